package render

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// The HD fixtures in testdata/models (hd_*.mdl) show one feature of the
// Reforged HD material path each (docs/rendering.md#reforged-hd-materials).
// Like the other fixtures they are MDL generated from the Go below, with
// their textures (TGA and DDS written here, no third-party art):
// UPDATE_FIXTURES=1 go test -run TestHDFixtureModels ./pkg/render
// rewrites them; TestGoldenHD renders them into testdata/golden/hd_*.png
// (UPDATE_GOLDEN=1) and TestHDFixturesMatchReferenceViewer compares them
// with the reference viewer's renders in testdata/golden/peer-hd.

// TEXS indices of the HD fixtures' textures (hdTextures lists the files).
const (
	hdWhite    = iota // neutral diffuse
	hdFlat            // neutral normal map
	hdORMPlain        // neutral ORM: no occlusion, no team mask
	hdBlack           // neutral emissive
	hdTeam            // replaceable 1
	hdEnv             // an environment map no viewer draws: must never show
	hdChecker         // DDS diffuse: coloured cells, a transparent and a half-transparent cell row
	hdBumps           // normal map of round bumps
	hdORMAO           // ORM with occlusion stripes
	hdGlow            // emissive rings
	hdORMTeam         // ORM with team-mask stripes at several alphas
	hdDark            // dark diffuse under the emissive map
	hdStripes         // SD backdrop texture (fixture_stripes.tga)
)

// hdTextureFiles are the file names of the textures above, in TEXS order
// (empty: the replaceable team colour).
var hdTextureFiles = []string{
	"hd_white.tga", "hd_flat_normal.tga", "hd_orm_plain.tga", "hd_black.tga", "",
	"hd_env.tga", "hd_checker.dds", "hd_bumps.tga", "hd_orm_ao.tga", "hd_glow.tga",
	"hd_orm_team.tga", "hd_dark.tga", "fixture_stripes.tga",
}

// hdNeutralSlots are slot textures that change nothing: white diffuse,
// flat normals, no occlusion or team mask, black emissive, the team
// colour, and the loud environment map.
var hdNeutralSlots = [NumSlots]int32{hdWhite, hdFlat, hdORMPlain, hdBlack, hdTeam, hdEnv}

func withSlot(s [NumSlots]int32, slot Slot, id int32) [NumSlots]int32 {
	s[slot] = id
	return s
}

// hdBase is fixtureBase for an HD model of the given version with the HD
// fixture textures.
func hdBase(name string, version uint32) *mdx.Model {
	m := fixtureBase(name)
	m.Version = version
	m.Textures = nil
	for _, f := range hdTextureFiles {
		t := mdx.Texture{Path: `Textures\` + f, Flags: mdx.TexWrapWidth | mdx.TexWrapHeight}
		if f == "" {
			t = mdx.Texture{ReplaceableID: 1, Flags: mdx.TexWrapWidth | mdx.TexWrapHeight}
		}
		m.Textures = append(m.Textures, t)
	}
	return m
}

// addHDMaterial appends an HD material with the given slot textures, as
// the model's version stores it: a Shader_HD_DefaultUnit material of six
// layers (900, 1000), the diffuse layer carrying the filter mode and
// flags; or one layer of shader type 1 listing its slots (1100).
func addHDMaterial(m *mdx.Model, shader string, mode mdx.FilterMode, flags uint32, slots [NumSlots]int32) uint32 {
	mat := mdx.Material{}
	if m.Version >= 1100 {
		l := layer(mode, slots[0], flags)
		l.ShaderTypeID, l.EmissiveGain = 1, 1
		for s, id := range slots {
			l.Textures = append(l.Textures, mdx.LayerTexture{TextureID: uint32(id), Slot: uint32(s)})
		}
		mat.Layers = []mdx.Layer{l}
	} else {
		mat.Shader = shader
		for s, id := range slots {
			l := layer(mdx.FilterNone, id, 0)
			if s == 0 {
				l = layer(mode, id, flags)
			}
			l.EmissiveGain = 1
			mat.Layers = append(mat.Layers, l)
		}
	}
	m.Materials = append(m.Materials, mat)
	return uint32(len(m.Materials) - 1)
}

// withTangents gives a geoset built by cube or quad its tangents: the
// direction of increasing texture u along each face, with the binormal
// cross(normal, tangent)·w pointing along increasing v (w = −1 there).
func withTangents(g mdx.Geoset) mdx.Geoset {
	uv := g.UVSets[0]
	g.Tangents = make([]mdx.Vec4, len(g.Vertices))
	for f := 0; f+2 < len(g.Faces); f += 3 {
		i0, i1, i2 := g.Faces[f], g.Faces[f+1], g.Faces[f+2]
		p0, p1, p2 := g.Vertices[i0], g.Vertices[i1], g.Vertices[i2]
		e1 := [3]float32{p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]}
		e2 := [3]float32{p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]}
		du1, dv1 := uv[i1][0]-uv[i0][0], uv[i1][1]-uv[i0][1]
		du2, dv2 := uv[i2][0]-uv[i0][0], uv[i2][1]-uv[i0][1]
		det := du1*dv2 - du2*dv1
		if det == 0 {
			continue
		}
		var t [3]float32
		for k := range 3 {
			t[k] = (e1[k]*dv2 - e2[k]*dv1) / det
		}
		t = unit(t)
		for _, i := range []uint16{i0, i1, i2} {
			g.Tangents[i] = mdx.Vec4{t[0], t[1], t[2], -1}
		}
	}
	return g
}

// hdBox is box() with tangents.
func hdBox(c mdx.Vec3, h float32, mat uint32) mdx.Geoset { return withTangents(box(c, h, mat, 0)) }

// hdQuad is quad() with tangents.
func hdQuad(c mdx.Vec3, w, h float32, mat uint32) mdx.Geoset {
	return withTangents(quad(c, w, h, false, mat, 0))
}

// hdSphere is a UV sphere of radius r centred at c: u runs once around +Z
// (longitude), v from the top to the bottom; tangents along u, w = −1.
func hdSphere(c mdx.Vec3, r float32, stacks, slices int, mat uint32) mdx.Geoset {
	g := mdx.Geoset{MaterialID: mat, MatrixGroups: []uint32{1}, MatrixIndices: []uint32{0}}
	var uvs []mdx.Vec2
	for i := 0; i <= stacks; i++ {
		th := math.Pi * float64(i) / float64(stacks)
		for j := 0; j <= slices; j++ {
			ph := 2 * math.Pi * float64(j) / float64(slices)
			n := mdx.Vec3{float32(math.Sin(th) * math.Cos(ph)), float32(math.Sin(th) * math.Sin(ph)), float32(math.Cos(th))}
			g.Vertices = append(g.Vertices, mdx.Vec3{c[0] + r*n[0], c[1] + r*n[1], c[2] + r*n[2]})
			g.Normals = append(g.Normals, n)
			g.VertexGroups = append(g.VertexGroups, 0)
			g.Tangents = append(g.Tangents, mdx.Vec4{float32(-math.Sin(ph)), float32(math.Cos(ph)), 0, -1})
			uvs = append(uvs, mdx.Vec2{float32(j) / float32(slices), float32(i) / float32(stacks)})
		}
	}
	row := uint16(slices + 1)
	for i := 0; i < stacks; i++ {
		for j := 0; j < slices; j++ {
			a := uint16(i)*row + uint16(j)
			b, cc, d := a+row, a+row+1, a+1
			if i != 0 {
				g.Faces = append(g.Faces, a, b, d)
			}
			if i != stacks-1 {
				g.Faces = append(g.Faces, d, b, cc)
			}
		}
	}
	g.UVSets = [][]mdx.Vec2{uvs}
	g.FaceTypes, g.FaceGroups = []uint32{4}, []uint32{uint32(len(g.Faces))}
	fixExtent(&g)
	return g
}

// hdView is the view of the HD goldens: 128² over a dark background, an
// explicit camera (the reference harness gets the same numbers).
var hdView = View{Width: 128, Yaw: 30, Pitch: 20, Background: &color.NRGBA{32, 32, 40, 255}, Particles: Particles{Off: true},
	Target: &fauxgl.Vector{X: 0, Y: 0, Z: 20}, Distance: 110}

func hdFixtures() []fixture {
	var fs []fixture
	add := func(name string, m *mdx.Model, edit func(*View)) {
		fs = append(fs, fixture{name, finish(m), withOpt(hdView, edit)})
	}
	noEdit := func(*View) {}

	// The diffuse slot alone (a DDS with coloured cells): lit by the
	// viewer's HD light, which sits behind the camera.
	{
		m := hdBase("hd_diffuse", 1000)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, withSlot(hdNeutralSlots, SlotDiffuse, hdChecker))
		m.Geosets = append(m.Geosets, hdBox(mdx.Vec3{0, 0, 20}, 18, mat))
		add("hd_diffuse", m, noEdit)
	}
	// The same material stored as version 1100 (slots listed in one
	// layer): must draw exactly as hd_diffuse.
	{
		m := hdBase("hd_diffuse_v1100", 1100)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, withSlot(hdNeutralSlots, SlotDiffuse, hdChecker))
		m.Geosets = append(m.Geosets, hdBox(mdx.Vec3{0, 0, 20}, 18, mat))
		add("hd_diffuse_v1100", m, noEdit)
	}
	// A normal map of round bumps on a white sphere.
	{
		m := hdBase("hd_normal", 1000)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, withSlot(hdNeutralSlots, SlotNormal, hdBumps))
		m.Geosets = append(m.Geosets, hdSphere(mdx.Vec3{0, 0, 20}, 26, 24, 32, mat))
		add("hd_normal", m, func(o *View) { o.Yaw, o.Pitch = 20, 15 })
	}
	// The ORM slot alone: occlusion stripes darken a white box.
	{
		m := hdBase("hd_orm", 1000)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, withSlot(hdNeutralSlots, SlotORM, hdORMAO))
		m.Geosets = append(m.Geosets, hdBox(mdx.Vec3{0, 0, 20}, 18, mat))
		add("hd_orm", m, noEdit)
	}
	// Emissive rings on a dark box: added after the lighting.
	{
		m := hdBase("hd_emissive", 1000)
		slots := withSlot(withSlot(hdNeutralSlots, SlotDiffuse, hdDark), SlotEmissive, hdGlow)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, slots)
		m.Geosets = append(m.Geosets, hdBox(mdx.Vec3{0, 0, 20}, 18, mat))
		add("hd_emissive", m, noEdit)
	}
	// The team mask: ORM alpha in seven stripes (0, 20, 25, 27, 51, 128,
	// 255 of 255); the team colour (blue) tints where alpha > 0.1, by
	// alpha, so the 25 stripe is untinted and the 27 one tinted.
	{
		m := hdBase("hd_team", 1000)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, withSlot(hdNeutralSlots, SlotORM, hdORMTeam))
		m.Geosets = append(m.Geosets, hdQuad(mdx.Vec3{0, 0, 20}, 56, 36, mat))
		add("hd_team", m, func(o *View) { o.Yaw, o.Pitch, o.Distance = 0, 0, 75; o.Team = texture.Player(1) })
	}
	// Alpha-tested HD (Transparent): the checker's transparent and
	// half-transparent rows cut out (< 0.75) and show the SD backdrop, an
	// SD material of the same Reforged model.
	{
		m := hdBase("hd_alpha_test", 1000)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterTransparent, 0, withSlot(hdNeutralSlots, SlotDiffuse, hdChecker))
		back := addMaterial(m, 0, layer(mdx.FilterNone, hdStripes, 0))
		m.Geosets = append(m.Geosets, hdQuad(mdx.Vec3{0, 0, 20}, 40, 40, mat), quad(mdx.Vec3{-12, 0, 20}, 60, 50, false, back, 0))
		add("hd_alpha_test", m, func(o *View) { o.Yaw, o.Pitch, o.Distance = 20, 10, 85 })
	}
	// Blended HD (Blend): the half-transparent row mixes with the backdrop.
	{
		m := hdBase("hd_blend", 1000)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterBlend, 0, withSlot(hdNeutralSlots, SlotDiffuse, hdChecker))
		back := addMaterial(m, 0, layer(mdx.FilterNone, hdStripes, 0))
		m.Geosets = append(m.Geosets, hdQuad(mdx.Vec3{0, 0, 20}, 40, 40, mat), quad(mdx.Vec3{-12, 0, 20}, 60, 50, false, back, 0))
		add("hd_blend", m, func(o *View) { o.Yaw, o.Pitch, o.Distance = 20, 10, 85 })
	}
	// Geoset animation on HD geosets: left box plain; middle box's alpha
	// track reaches 0 at 500 ms (hidden, as a corpse geoset is); right box
	// tinted green by its static geoset colour.
	{
		m := hdBase("hd_geoset_alpha", 1000)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, withSlot(hdNeutralSlots, SlotDiffuse, hdChecker))
		for i := 0; i < 3; i++ {
			m.Geosets = append(m.Geosets, hdBox(mdx.Vec3{0, float32(i-1) * 22, 12}, 9, mat))
		}
		m.GeosetAnims = []mdx.GeosetAnim{
			{Alpha: 1, Color: mdx.Vec3{1, 1, 1}, GeosetID: 1, AlphaTrack: lin(k[float32](0, 1), k[float32](500, 0))},
			{Alpha: 1, Color: mdx.Vec3{0.3, 1, 0.3}, Flags: mdx.GeoaUseColor, GeosetID: 2},
		}
		add("hd_geoset_alpha", m, func(o *View) { o.Time = Ms(500); o.Target = &fauxgl.Vector{X: 0, Y: 0, Z: 12}; o.Distance = 90 })
	}
	// Normal-map texels outside the unit disc, where z = √(1 − x² − y²)
	// does not exist: horizontal bands of the flat normal, (0.70, 0.70)
	// just inside, (0.80, 0.70) just outside and (1, 1) far outside, on a
	// white sphere. The viewer's square root is NaN there and its clamp
	// leaves the ambient 0.1; taking z = 0 instead would light the side of
	// the sphere the bands lean towards.
	{
		m := hdBase("hd_normal_disc", 1000)
		m.Textures = append(m.Textures, mdx.Texture{Path: `Textures\hd_normal_disc.tga`, Flags: mdx.TexWrapWidth | mdx.TexWrapHeight})
		disc := int32(len(m.Textures) - 1)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, withSlot(hdNeutralSlots, SlotNormal, disc))
		m.Geosets = append(m.Geosets, hdSphere(mdx.Vec3{0, 0, 20}, 26, 24, 32, mat))
		add("hd_normal_disc", m, func(o *View) { o.Yaw, o.Pitch = 20, 15 })
	}
	// Two geosets sharing one HD material (version 900): one batch each.
	{
		m := hdBase("hd_shared", 900)
		slots := withSlot(withSlot(hdNeutralSlots, SlotDiffuse, hdChecker), SlotNormal, hdBumps)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, slots)
		m.Geosets = append(m.Geosets, hdBox(mdx.Vec3{0, -14, 20}, 10, mat), hdSphere(mdx.Vec3{0, 16, 20}, 12, 16, 24, mat))
		add("hd_shared", m, noEdit)
	}
	// SKIN weights move the geometry and its tangent frames: a
	// normal-mapped strip whose right half follows a bone turning 60°
	// about +X over Stand, at 500 ms (30°).
	{
		m := hdBase("hd_skinned", 1000)
		bn := addBone(m, "Turn", -1, mdx.Vec3{0, 0, 20}, 0)
		bn.Rotation = lin(k(0, qaxis(mdx.Vec3{1, 0, 0}, 0)), k(1000, qaxis(mdx.Vec3{1, 0, 0}, 60)))
		slots := withSlot(withSlot(hdNeutralSlots, SlotDiffuse, hdChecker), SlotNormal, hdBumps)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, mdx.LayerTwoSided, slots)
		g := mdx.Geoset{MaterialID: mat, MatrixGroups: []uint32{1}, MatrixIndices: []uint32{0}}
		var uvs []mdx.Vec2
		for col := 0; col <= 4; col++ {
			for rw := 0; rw <= 1; rw++ {
				y := float32(col-2) * 12
				g.Vertices = append(g.Vertices, mdx.Vec3{0, y, 6 + 28*float32(rw)})
				g.Normals = append(g.Normals, mdx.Vec3{1, 0, 0})
				g.Tangents = append(g.Tangents, mdx.Vec4{0, 1, 0, -1})
				g.VertexGroups = append(g.VertexGroups, 0)
				uvs = append(uvs, mdx.Vec2{float32(col) / 4, 1 - float32(rw)})
				w := uint8(0)
				if col > 2 {
					w = 255
				} else if col == 2 {
					w = 128
				}
				g.Skin = append(g.Skin, 0, 1, 0, 0, 255-w, w, 0, 0)
			}
		}
		for col := uint16(0); col < 4; col++ {
			a := col * 2
			g.Faces = append(g.Faces, a, a+2, a+3, a, a+3, a+1)
		}
		g.UVSets = [][]mdx.Vec2{uvs}
		g.FaceTypes, g.FaceGroups = []uint32{4}, []uint32{uint32(len(g.Faces))}
		fixExtent(&g)
		m.Geosets = append(m.Geosets, g)
		add("hd_skinned", m, func(o *View) { o.Time = Ms(500); o.Yaw, o.Pitch, o.Distance = 25, 15, 90 })
	}
	// A normal map on a geoset without tangents (TANG): the map cannot be
	// placed, so the box is lit by its vertex normals.
	{
		m := hdBase("hd_no_tangents", 1000)
		mat := addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, withSlot(hdNeutralSlots, SlotNormal, hdBumps))
		m.Geosets = append(m.Geosets, box(mdx.Vec3{0, 0, 20}, 18, mat, 0))
		add("hd_no_tangents", m, noEdit)
	}
	// A shader we do not implement (Shader_HD_Crystal): drawn as
	// Shader_HD_DefaultUnit, with a warning.
	{
		m := hdBase("hd_unknown_shader", 1000)
		mat := addHDMaterial(m, "Shader_HD_Crystal", mdx.FilterNone, 0, withSlot(hdNeutralSlots, SlotDiffuse, hdChecker))
		m.Geosets = append(m.Geosets, hdBox(mdx.Vec3{0, 0, 20}, 18, mat))
		add("hd_unknown_shader", m, noEdit)
	}
	return fs
}

// hdTextureImages draws the HD fixture textures.
func hdTextureImages() map[string]*image.NRGBA {
	solid := func(c color.NRGBA) *image.NRGBA {
		im := image.NewNRGBA(image.Rect(0, 0, 4, 4))
		for i := 0; i < len(im.Pix); i += 4 {
			im.Pix[i], im.Pix[i+1], im.Pix[i+2], im.Pix[i+3] = c.R, c.G, c.B, c.A
		}
		return im
	}
	each := func(w, h int, f func(x, y int) color.NRGBA) *image.NRGBA {
		im := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				im.SetNRGBA(x, y, f(x, y))
			}
		}
		return im
	}
	out := map[string]*image.NRGBA{
		"hd_white.tga":       solid(color.NRGBA{255, 255, 255, 255}),
		"hd_flat_normal.tga": solid(color.NRGBA{128, 128, 255, 255}),
		"hd_orm_plain.tga":   solid(color.NRGBA{255, 255, 0, 0}),
		"hd_black.tga":       solid(color.NRGBA{0, 0, 0, 255}),
		"hd_dark.tga":        solid(color.NRGBA{48, 40, 64, 255}),
	}
	// A loud sky-over-grass picture, the kind of environment map that
	// covered whole models when slots were drawn as SD layers.
	out["hd_env.tga"] = each(32, 32, func(x, y int) color.NRGBA {
		if y < 16 {
			return color.NRGBA{90, 170, 255, 255}
		}
		return color.NRGBA{60, 200, 40, 255}
	})
	// 8×8 cells of 8 texels in four colours (block-aligned, so the DXT5
	// encoding below is exact); row 2 transparent, row 5 at alpha 128.
	cells := [4]color.NRGBA{{200, 56, 40, 255}, {240, 200, 64, 255}, {48, 120, 216, 255}, {232, 232, 232, 255}}
	out["hd_checker.dds"] = each(64, 64, func(x, y int) color.NRGBA {
		cx, cy := x/8, y/8
		c := cells[(cx+cy)%4]
		switch cy {
		case 2:
			c.A = 0
		case 5:
			c.A = 128
		}
		return c
	})
	// Round bumps, 8 across and 4 down (the sphere's u spans twice its v),
	// from the height field sin(πfx)·sin(πfy) in each cell.
	out["hd_bumps.tga"] = each(64, 64, func(x, y int) color.NRGBA {
		const nx, ny = 8, 4
		fx := math.Mod((float64(x)+0.5)*nx/64, 1)
		fy := math.Mod((float64(y)+0.5)*ny/64, 1)
		const s = 0.6 // bump height, in cell widths
		dx := s * math.Pi * math.Cos(math.Pi*fx) * math.Sin(math.Pi*fy)
		dy := s * math.Pi * math.Sin(math.Pi*fx) * math.Cos(math.Pi*fy) * nx / ny
		n := [3]float64{-dx, -dy, 1}
		l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
		enc := func(v float64) uint8 { return uint8(math.Round((v/l*0.5 + 0.5) * 255)) }
		return color.NRGBA{enc(n[0]), enc(n[1]), enc(n[2]), 255}
	})
	// hd_normal_disc's bands, 8 texels each down the sphere: flat, just
	// inside the unit disc, just outside, far outside.
	bands := [4][2]uint8{{128, 128}, {217, 217}, {230, 217}, {255, 255}}
	out["hd_normal_disc.tga"] = each(16, 64, func(x, y int) color.NRGBA {
		b := bands[y/8%4]
		return color.NRGBA{b[0], b[1], 128, 255}
	})
	// Occlusion in four vertical stripes: 1, 0.66, 0.33, 0.
	out["hd_orm_ao.tga"] = each(16, 16, func(x, y int) color.NRGBA {
		return color.NRGBA{uint8(255 - 85*(x/4)), 255, 0, 0}
	})
	// Glowing orange rings on black.
	out["hd_glow.tga"] = each(64, 64, func(x, y int) color.NRGBA {
		d := math.Hypot(float64(x)-31.5, float64(y)-31.5)
		if math.Mod(d, 12) < 4 {
			return color.NRGBA{255, 150, 40, 255}
		}
		return color.NRGBA{0, 0, 0, 255}
	})
	// Team mask: seven vertical stripes of ORM alpha, full occlusion-free
	// lighting.
	alphas := [7]uint8{0, 20, 25, 27, 51, 128, 255}
	out["hd_orm_team.tga"] = each(64, 8, func(x, y int) color.NRGBA {
		return color.NRGBA{255, 255, 0, alphas[min(x*7/64, 6)]}
	})
	return out
}

// writeDDS writes a DXT5 DDS of one mip level. The image must be made of
// 4×4 blocks of one colour each: every block is then encoded exactly
// (both endpoints the colour, RGB in 5:6:5), which keeps this encoder a
// few lines long.
func writeDDS(path string, img *image.NRGBA) error {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	le := binary.LittleEndian
	hdr := make([]byte, 128)
	copy(hdr, "DDS ")
	le.PutUint32(hdr[4:], 124)
	le.PutUint32(hdr[8:], 0x1|0x2|0x4|0x1000|0x80000) // caps, height, width, pixel format, linear size
	le.PutUint32(hdr[12:], uint32(h))
	le.PutUint32(hdr[16:], uint32(w))
	le.PutUint32(hdr[20:], uint32(w*h))
	le.PutUint32(hdr[76:], 32)
	le.PutUint32(hdr[80:], 0x4) // FourCC
	copy(hdr[84:], "DXT5")
	le.PutUint32(hdr[108:], 0x1000) // texture
	var b bytes.Buffer
	b.Write(hdr)
	for by := 0; by < h; by += 4 {
		for bx := 0; bx < w; bx += 4 {
			c := img.NRGBAAt(bx, by)
			blk := make([]byte, 16)
			blk[0], blk[1] = c.A, c.A // alpha endpoints; indices 0
			c565 := uint16(c.R>>3)<<11 | uint16(c.G>>2)<<5 | uint16(c.B>>3)
			le.PutUint16(blk[8:], c565)
			le.PutUint16(blk[10:], c565) // colour indices 0
			b.Write(blk)
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// TestHDFixtureModels checks that every HD fixture MDL decodes to the
// model the generator builds, and rewrites the models and their textures
// with UPDATE_FIXTURES=1.
func TestHDFixtureModels(t *testing.T) {
	if golden.UpdateFixtures() {
		for name, img := range hdTextureImages() {
			p := filepath.Join(modelsDir, "Textures", name)
			var err error
			if filepath.Ext(name) == ".dds" {
				err = writeDDS(p, img)
			} else {
				err = writeTGA(p, img)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range hdFixtures() {
		header := "// mdxrender fixture " + f.name + ": generated by pkg/render/hd_fixtures_test.go\n// (UPDATE_FIXTURES=1 go test -run TestHDFixtureModels ./pkg/render).\n"
		testmodel.CheckFixture(t, filepath.Join(modelsDir, f.name+".mdl"), header, f.m)
	}
	// The DDS decodes to the image it was written from (the encoder is
	// exact for block-uniform images, up to 5:6:5).
	want := hdTextureImages()["hd_checker.dds"]
	b, err := os.ReadFile(filepath.Join(modelsDir, "Textures", "hd_checker.dds"))
	if err != nil {
		t.Fatal(err)
	}
	tex, err := texture.Decode(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := tex.Levels[0]
	for i := range want.Pix {
		if d := int(want.Pix[i]) - int(got.Pix[i]); d > 8 || d < -8 {
			t.Fatalf("hd_checker.dds byte %d: %d, want %d", i, got.Pix[i], want.Pix[i])
		}
	}
}
