package render

import (
	"fmt"
	"strings"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/pose"
)

// Reforged HD materials (docs/rendering.md#reforged-hd-materials).
//
// A material whose shader is Shader_HD_DefaultUnit does not stack its
// layers: its texture slots (diffuse, normal map, ORM, emissive, team
// colour, environment map) feed one shading rule, drawn as one batch per
// geoset. Versions 900 and 1000 name the shader on the material and keep
// slot i in layer i; version 1100 marks each layer with a shader type (1
// is HD) and lists the layer's slots in the layer itself. This file says
// which draws a material makes; hdbatch.go builds them.

// ShaderHD is the Reforged material shader the HD path implements.
const ShaderHD = "Shader_HD_DefaultUnit"

// shaderSD is the Reforged name of the classic fixed-function shader.
const shaderSD = "Shader_SD_FixedFunction"

// Slot is a texture slot of an HD material.
type Slot int

// The HD texture slots, in the order versions 900-1000 keep them as
// layers and version 1100 numbers them.
const (
	SlotDiffuse Slot = iota
	SlotNormal
	SlotORM
	SlotEmissive
	SlotTeamColor
	SlotEnvironment
	NumSlots
)

var slotNames = [NumSlots]string{"diffuse", "normal", "orm", "emissive", "teamcolor", "environment"}

// String names the slot: diffuse, normal, orm, emissive, teamcolor or
// environment.
func (s Slot) String() string {
	if s >= 0 && s < NumSlots {
		return slotNames[s]
	}
	return fmt.Sprintf("Slot(%d)", int(s))
}

// HDPass is one HD draw of a material: one batch per geoset using it.
type HDPass struct {
	// Layer is the material layer whose filter mode, shading flags,
	// alpha, texture animation, UV set and emissive gain the draw uses:
	// layer 0 (the diffuse slot) in versions 900-1000, the HD layer
	// itself in version 1100.
	Layer int
	// Shader is the shader the material asks for: its shader name
	// (900-1000), or for a 1100 layer ShaderHD (type 1) or "shader type
	// N".
	Shader string
	// Implemented is false for a shader this renderer does not implement
	// (Shader_HD_Crystal, an unknown type, ...): it is drawn as
	// Shader_HD_DefaultUnit, the nearest one, with a warning.
	Implemented bool
	// Textures is the TEXS index of each slot's texture (its static one,
	// without flipbook tracks), −1 where the material has no such slot.
	Textures [NumSlots]int

	// Where each slot's texture id (and flipbook track) lives: a layer of
	// the material (900-1000) or a texture entry of the layer (1100).
	slotLayer [NumSlots]int
	slotTex   [NumSlots]*mdx.LayerTexture
}

// matDraw is one draw of a material: an HD pass, or (hd nil) the SD
// batch of one layer.
type matDraw struct {
	layer int
	hd    *HDPass
}

// HDPasses returns the HD draws of material mi of m, in layer order; nil
// when every layer of the material is drawn by the classic rules (an SD
// material, a model older than 900, an index out of range).
func HDPasses(m *mdx.Model, mi int) []HDPass {
	var out []HDPass
	for _, d := range materialDraws(m, mi) {
		if d.hd != nil {
			out = append(out, *d.hd)
		}
	}
	return out
}

// materialDraws lists how material mi is drawn: one entry per SD layer
// and per HD pass, in layer order.
func materialDraws(m *mdx.Model, mi int) []matDraw {
	if mi < 0 || mi >= len(m.Materials) {
		return nil
	}
	mat := &m.Materials[mi]
	if m.Version >= 900 && m.Version < 1100 && hdShaderName(mat.Shader) && len(mat.Layers) > 0 && !isWoW(m) {
		// 900-1000: the layers are the slots.
		p := &HDPass{Shader: mat.Shader, Implemented: mat.Shader == ShaderHD}
		for s := range NumSlots {
			p.slotLayer[s], p.Textures[s] = -1, -1
			if int(s) < len(mat.Layers) {
				p.slotLayer[s] = int(s)
				p.Textures[s] = max(int(mat.Layers[s].TextureID), 0)
			}
		}
		return []matDraw{{layer: 0, hd: p}}
	}
	var out []matDraw
	for li := range mat.Layers {
		l := &mat.Layers[li]
		if m.Version < 1100 || isWoW(m) || l.ShaderTypeID == 0 {
			out = append(out, matDraw{layer: li})
			continue
		}
		// 1100: an HD layer (type 1), or a type we do not know, drawn by
		// the nearest path: HD when it lists texture slots.
		if l.ShaderTypeID != 1 && len(l.Textures) == 0 {
			out = append(out, matDraw{layer: li})
			continue
		}
		p := &HDPass{Layer: li, Shader: ShaderHD, Implemented: l.ShaderTypeID == 1}
		if !p.Implemented {
			p.Shader = fmt.Sprintf("shader type %d", l.ShaderTypeID)
		}
		for s := range NumSlots {
			p.slotLayer[s], p.Textures[s] = -1, -1
		}
		if len(l.Textures) == 0 {
			p.slotLayer[SlotDiffuse], p.Textures[SlotDiffuse] = li, max(int(l.TextureID), 0)
		}
		for k := range l.Textures {
			lt := &l.Textures[k]
			if s := Slot(lt.Slot); lt.Slot < uint32(NumSlots) && p.slotTex[s] == nil {
				p.slotTex[s], p.Textures[s] = lt, int(lt.TextureID)
			}
		}
		out = append(out, matDraw{layer: li, hd: p})
	}
	return out
}

// hdShaderName reports whether a material shader name selects the HD
// path: Shader_HD_DefaultUnit, and any other Shader_HD_ name (drawn as
// DefaultUnit with a warning, as their slots are laid out the same way).
func hdShaderName(s string) bool { return strings.HasPrefix(s, "Shader_HD_") }

// unknownSDShader reports whether a material names a shader that is
// neither HD nor the classic one: drawn by the classic rules, with a
// warning.
func unknownSDShader(s string) bool { return s != "" && s != shaderSD && !hdShaderName(s) }

// slotTexture returns the TEXS index slot s of pass p shows at the pose's
// clock (per-slot flipbook tracks included), or −1 for no slot.
func slotTexture(m *mdx.Model, p *pose.Pose, mat *mdx.Material, hp *HDPass, s Slot) int {
	if li := hp.slotLayer[s]; li >= 0 {
		return p.LayerTexture(&mat.Layers[li])
	}
	if lt := hp.slotTex[s]; lt != nil {
		return int(pose.Uint(m, lt.TextureIDTrack, p.Clock(), lt.TextureID, 0))
	}
	return -1
}
