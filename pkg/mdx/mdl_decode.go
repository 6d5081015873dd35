package mdx

import (
	"fmt"
	"math"
	"strings"
	"unsafe"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// DecodeMDL parses a model from MDL text (docs/formats.md#mdl-text),
// including the Reforged extensions (material and layer shaders,
// emissive and fresnel fields, tangents, skin weights, LOD, popcorn
// emitters, face effects, bind pose, v1100 layer texture slots).
//
// Static colours are written B,G,R in MDL and stored reversed (MDX order) in
// the model; animated colour keys are copied unchanged. Malformed text gives
// a *MDLError with the line and column. Counts written in the text are only
// hints: lists end at their closing brace, and no count allocates more than
// the remaining text could hold.
//
// The geometry is held to lim (the zero Limits means the defaults): a
// model with more vertices or triangles than it allows gives a *MDLError
// wrapping a *budget.Error, at the first item over the limit (the lists
// are counted as they are read).
func DecodeMDL(b []byte, lim budget.Limits) (m *Model, err error) {
	p := &mdlParser{b: b, line: 1, budget: 8*len(b) + 4096,
		vertices:  geoCount{limit: lim.Get(budget.Vertices), kind: budget.Vertices},
		triangles: geoCount{limit: lim.Get(budget.Triangles), kind: budget.Triangles}}
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		p.pos, p.lineStart = 3, 3
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*MDLError)
			if !ok {
				panic(r)
			}
			m, err = nil, e
		}
	}()
	m = &Model{Version: 800}
	p.next()
	for p.tok != tokEOF {
		p.topLevel(m)
	}
	if p.blocks == 0 {
		p.failf("no MDL blocks (expected Version, Model, Geoset, ...)")
	}
	m.normalizeEmpty()
	return m, nil
}

// normalizeEmpty makes empty lists nil, as the MDX decoder leaves them, so
// that the same model read from either format compares equal.
func (m *Model) normalizeEmpty() {
	nilIfEmpty(&m.Sequences)
	nilIfEmpty(&m.GlobalSequences)
	nilIfEmpty(&m.Materials)
	nilIfEmpty(&m.Textures)
	nilIfEmpty(&m.TextureAnims)
	nilIfEmpty(&m.PivotPoints)
	nilIfEmpty(&m.BindPose)
	for i := range m.Materials {
		nilIfEmpty(&m.Materials[i].Layers)
	}
}

func nilIfEmpty[T any](s *[]T) {
	if len(*s) == 0 {
		*s = nil
	}
}

func (p *mdlParser) failAt(line, col int, format string, args ...any) {
	panic(&MDLError{Line: line, Column: col, Reason: fmt.Sprintf(format, args...)})
}

// block reads "{ property... }", calling prop for each property name (after
// an optional "static"); prop returns false for a name it does not know.
func (p *mdlParser) block(what string, prop func(key []byte) bool) {
	if p.tok != tokLBrace {
		p.failf("expected \"{\" to open %s, found %s", what, p.describe())
	}
	p.next()
	for {
		switch p.tok {
		case tokRBrace:
			p.next()
			return
		case tokEOF:
			p.failf("unexpected end of file in %s (missing \"}\")", what)
		case tokWord:
		default:
			p.failf("expected a property name in %s, found %s", what, p.describe())
		}
		l, c := p.tokLine, p.tokCol
		key := p.val
		p.next()
		if string(key) == "static" {
			key = p.word("a property name after static")
		}
		if !prop(key) {
			p.failAt(l, c, "unknown property %s in %s", clip.Quote(string(key)), what)
		}
	}
}

// optCount reads the optional count before a list's "{", or returns -1.
func (p *mdlParser) optCount() int64 {
	if p.tok != tokWord {
		return -1
	}
	return p.parseInt(p.word("a count"), 0, math.MaxUint32, "count")
}

func (p *mdlParser) isWord(s string) bool { return p.tok == tokWord && string(p.val) == s }

func (p *mdlParser) openList(what string) {
	if p.tok != tokLBrace {
		p.failf("expected \"{\" to open %s, found %s", what, p.describe())
	}
	p.next()
}

// endList reports whether the current token closes a list (and consumes
// it), failing at end of file.
func (p *mdlParser) endList(what string) bool {
	if p.tok == tokRBrace {
		p.next()
		return true
	}
	if p.tok == tokEOF {
		p.failf("unexpected end of file in %s (missing \"}\")", what)
	}
	return false
}

func (p *mdlParser) floats(dst []float32, what string) {
	p.openList(what)
	for i := range dst {
		if p.tok != tokWord {
			p.failf("expected %d numbers in %s, found %s after %d", len(dst), what, p.describe(), i)
		}
		dst[i] = p.f32(what)
	}
	if p.tok != tokRBrace {
		p.failf("expected \"}\" after %d numbers of %s, found %s", len(dst), what, p.describe())
	}
	p.next()
}

func (p *mdlParser) vec3(what string) (v Vec3) {
	p.floats(v[:], what)
	return
}

// color reads a static MDL colour {b, g, r} into MDX order.
func (p *mdlParser) color(what string) Vec3 {
	v := p.vec3(what)
	return Vec3{v[2], v[1], v[0]}
}

func (p *mdlParser) u32s(dst []uint32, what string) {
	p.openList(what)
	for i := range dst {
		if p.tok != tokWord {
			p.failf("expected %d numbers in %s, found %s after %d", len(dst), what, p.describe(), i)
		}
		dst[i] = p.u32(what)
	}
	if p.tok != tokRBrace {
		p.failf("expected \"}\" after %d numbers of %s, found %s", len(dst), what, p.describe())
	}
	p.next()
}

func (p *mdlParser) extentProp(e *Extent, key []byte) bool {
	switch string(key) {
	case "MinimumExtent":
		e.Min = p.vec3("MinimumExtent")
	case "MaximumExtent":
		e.Max = p.vec3("MaximumExtent")
	case "BoundsRadius":
		e.BoundsRadius = p.f32("BoundsRadius")
	default:
		return false
	}
	return true
}

// Key value readers for tracks.
func mdlF(p *mdlParser) float32 { return p.f32("a key value") }
func mdlU(p *mdlParser) uint32  { return p.u32("a key value") }
func mdlV(p *mdlParser) (v Vec3) {
	p.floats(v[:], "a key value")
	return
}
func mdlQ(p *mdlParser) (v Quat) {
	p.floats(v[:], "a key value")
	return
}

// mdlTrack reads a track body after its key count n:
// "{ Interp, [GlobalSeqId g,] frame: value, [InTan v, OutTan v,] ... }".
// minKey is the fewest bytes one key can take, to bound n.
func mdlTrack[T TrackValue](p *mdlParser, n int64, val func(*mdlParser) T, minKey int) *Track[T] {
	p.openList("a track")
	t := &Track[T]{GlobalSeqID: -1}
	seenInterp := false
	for p.tok == tokWord {
		switch string(p.val) {
		case "DontInterp":
			t.Interpolation = DontInterp
		case "Linear":
			t.Interpolation = Linear
		case "Hermite":
			t.Interpolation = Hermite
		case "Bezier":
			t.Interpolation = Bezier
		case "GlobalSeqId":
			p.next()
			t.GlobalSeqID = p.i32("a global sequence id")
			continue
		default:
			if seenInterp {
				goto keys
			}
			// A numeric interpolation type (not one of the four names).
			if p.remaining() > 0 && p.b[p.pos] == ':' {
				goto keys // no interpolation line: a key follows
			}
			t.Interpolation = Interpolation(p.u32("an interpolation type"))
			seenInterp = true
			continue
		}
		seenInterp = true
		p.next()
	}
keys:
	if !seenInterp {
		p.failf("expected an interpolation type (DontInterp, Linear, Hermite, Bezier), found %s", p.describe())
	}
	t.Keys = presize[Key[T]](p, n, minKey)
	tan := t.Interpolation.HasTangents()
	for !p.endList("a track") {
		var k Key[T]
		k.Frame = p.i32("a key frame")
		if p.tok != tokColon {
			p.failf("expected \":\" after key frame %d, found %s", k.Frame, p.describe())
		}
		p.next()
		k.Value = val(p)
		if p.isWord("InTan") {
			p.next()
			v := val(p)
			if tan {
				k.InTan = v
			}
		}
		if p.isWord("OutTan") {
			p.next()
			v := val(p)
			if tan {
				k.OutTan = v
			}
		}
		t.Keys = append(t.Keys, k)
	}
	return t
}

// trackCount reads "N" and checks that a track body follows.
func (p *mdlParser) trackCount(what string) int64 {
	n := p.optCount()
	if p.tok != tokLBrace {
		p.failf("expected a key count and \"{\" for animated %s, found %s", what, p.describe())
	}
	return n
}

// animF reads "Key value" (static) or "Key N { ... }" (animated). static
// may be nil for tags that are only animated (a static value is then
// accepted and dropped).
func (p *mdlParser) animF(static *float32, track **Track[float32], what string) {
	w := p.word("a number or key count")
	if p.tok == tokLBrace {
		*track = mdlTrack(p, p.parseInt(w, 0, math.MaxUint32, "key count"), mdlF, 4)
		return
	}
	v := p.parseFloat(w, what)
	if static != nil {
		*static = v
	}
}

func (p *mdlParser) animU(static *uint32, track **Track[uint32], what string) {
	w := p.word("a number or key count")
	if p.tok == tokLBrace {
		*track = mdlTrack(p, p.parseInt(w, 0, math.MaxUint32, "key count"), mdlU, 4)
		return
	}
	v := uint32(p.parseInt(w, math.MinInt32, math.MaxUint32, what))
	if static != nil {
		*static = v
	}
}

// animV reads "Key {x, y, z}" (static; reversed when rev, for colours) or
// "Key N { ... }" (animated; keys never reversed).
func (p *mdlParser) animV(static *Vec3, track **Track[Vec3], rev bool, what string) {
	if p.tok == tokLBrace {
		v := p.vec3(what)
		if rev {
			v = Vec3{v[2], v[1], v[0]}
		}
		if static != nil {
			*static = v
		}
		return
	}
	*track = mdlTrack(p, p.trackCount(what), mdlV, 8)
}

func (p *mdlParser) animQ(track **Track[Quat], what string) {
	if p.tok == tokLBrace {
		var q Quat
		p.floats(q[:], what) // a static rotation has no MDX field
		return
	}
	*track = mdlTrack(p, p.trackCount(what), mdlQ, 10)
}

func (p *mdlParser) topLevel(m *Model) {
	p.blocks++
	l, c := p.tokLine, p.tokCol
	kw := p.word("a block name (Version, Model, Geoset, Bone, ...)")
	switch string(kw) {
	case "Version":
		p.block("Version", func(k []byte) bool {
			if string(k) != "FormatVersion" {
				return false
			}
			m.Version = p.u32("FormatVersion")
			return true
		})
	case "Model":
		m.Name = p.str("the model name")
		p.block("Model", func(k []byte) bool {
			switch string(k) {
			case "BlendTime":
				m.BlendTime = p.u32("BlendTime")
			case "AnimationFile":
				m.AnimationFile = p.str("AnimationFile")
			case "NumGeosets", "NumGeosetAnims", "NumHelpers", "NumLights", "NumBones", "NumAttachments",
				"NumParticleEmitters", "NumParticleEmitters2", "NumParticleEmittersPopcorn", "NumRibbonEmitters",
				"NumEvents", "NumFaceFX":
				p.u32("a count") // informational only
			default:
				return p.extentProp(&m.Extent, k)
			}
			return true
		})
	case "Sequences":
		n := p.optCount()
		m.Sequences = growCap(p, m.Sequences, n, 16)
		p.block("Sequences", func(k []byte) bool {
			if string(k) != "Anim" {
				return false
			}
			m.Sequences = append(m.Sequences, p.sequence())
			return true
		})
	case "GlobalSequences":
		n := p.optCount()
		m.GlobalSequences = growCap(p, m.GlobalSequences, n, 10)
		p.block("GlobalSequences", func(k []byte) bool {
			if string(k) != "Duration" {
				return false
			}
			m.GlobalSequences = append(m.GlobalSequences, p.u32("Duration"))
			return true
		})
	case "Textures":
		n := p.optCount()
		m.Textures = growCap(p, m.Textures, n, 8)
		p.block("Textures", func(k []byte) bool {
			if string(k) != "Bitmap" {
				return false
			}
			var t Texture
			p.block("Bitmap", func(k []byte) bool {
				switch string(k) {
				case "Image":
					t.Path = p.str("Image")
				case "ReplaceableId":
					t.ReplaceableID = p.u32("ReplaceableId")
				case "Flags":
					t.Flags = p.u32("Flags")
				default:
					return setFlag(&t.Flags, textureFlags, k)
				}
				return true
			})
			m.Textures = append(m.Textures, t)
			return true
		})
	case "Materials":
		n := p.optCount()
		m.Materials = growCap(p, m.Materials, n, 10)
		p.block("Materials", func(k []byte) bool {
			if string(k) != "Material" {
				return false
			}
			m.Materials = append(m.Materials, p.material(m.Version))
			return true
		})
	case "TextureAnims":
		n := p.optCount()
		m.TextureAnims = growCap(p, m.TextureAnims, n, 13)
		p.block("TextureAnims", func(k []byte) bool {
			if string(k) != "TVertexAnim" {
				return false
			}
			var ta TextureAnim
			p.block("TVertexAnim", func(k []byte) bool {
				switch string(k) {
				case "Translation":
					p.animV(nil, &ta.Translation, false, "Translation")
				case "Rotation":
					p.animQ(&ta.Rotation, "Rotation")
				case "Scaling":
					p.animV(nil, &ta.Scaling, false, "Scaling")
				default:
					return false
				}
				return true
			})
			m.TextureAnims = append(m.TextureAnims, ta)
			return true
		})
	case "Geoset":
		m.Geosets = append(m.Geosets, p.geoset())
	case "GeosetAnim":
		m.GeosetAnims = append(m.GeosetAnims, p.geosetAnim())
	case "Bone":
		m.Bones = append(m.Bones, p.bone())
	case "Light":
		m.Lights = append(m.Lights, p.light(m.Version))
	case "Helper":
		var h Helper
		p.node(&h.Node, 0, "Helper", nil)
		m.Helpers = append(m.Helpers, h)
	case "Attachment":
		m.Attachments = append(m.Attachments, p.attachment())
	case "PivotPoints":
		n := p.optCount()
		m.PivotPoints = growCap(p, m.PivotPoints, n, 7)
		p.openList("PivotPoints")
		for !p.endList("PivotPoints") {
			m.PivotPoints = append(m.PivotPoints, p.vec3("a pivot point"))
		}
	case "ParticleEmitter":
		m.ParticleEmitters = append(m.ParticleEmitters, p.prem())
	case "ParticleEmitter2":
		m.ParticleEmitters2 = append(m.ParticleEmitters2, p.pre2())
	case "ParticleEmitterPopcorn":
		m.PopcornEmitters = append(m.PopcornEmitters, p.corn())
	case "RibbonEmitter":
		m.RibbonEmitters = append(m.RibbonEmitters, p.ribbon())
	case "Camera":
		m.Cameras = append(m.Cameras, p.camera())
	case "EventObject":
		m.EventObjects = append(m.EventObjects, p.event())
	case "CollisionShape":
		m.CollisionShapes = append(m.CollisionShapes, p.collision())
	case "FaceFX":
		var f FaceEffect
		f.Type = p.str("the FaceFX type")
		p.block("FaceFX", func(k []byte) bool {
			if string(k) != "Path" {
				return false
			}
			f.Path = p.str("Path")
			return true
		})
		m.FaceEffects = append(m.FaceEffects, f)
	case "BindPose":
		p.block("BindPose", func(k []byte) bool {
			if string(k) != "Matrices" {
				return false
			}
			n := p.optCount()
			m.BindPose = growCap(p, m.BindPose, n, 25)
			p.openList("Matrices")
			for !p.endList("Matrices") {
				var mat [12]float32
				p.floats(mat[:], "a bind pose matrix")
				m.BindPose = append(m.BindPose, mat)
			}
			return true
		})
	case "SoundTrack":
		var s SoundTrack
		s.Path = p.str("the sound path")
		p.block("SoundTrack", func(k []byte) bool {
			switch string(k) {
			case "Volume":
				s.Volume = p.f32("Volume")
			case "Pitch":
				s.Pitch = p.f32("Pitch")
			case "Flags":
				s.Flags = p.u32("Flags")
			default:
				return false
			}
			return true
		})
		m.SoundTracks = append(m.SoundTracks, s)
	default:
		p.failAt(l, c, "unknown block %s", clip.Quote(string(kw)))
	}
}

// growCap makes room for the count n of more elements (see capFor).
func growCap[T any](p *mdlParser, s []T, count int64, minLen int) []T {
	var zero T
	n := p.capFor(count, minLen, int(unsafe.Sizeof(zero)))
	if n <= 0 || cap(s)-len(s) >= n {
		return s
	}
	out := make([]T, len(s), len(s)+n)
	copy(out, s)
	return out
}

func (p *mdlParser) sequence() Sequence {
	var s Sequence
	s.Name = p.str("the sequence name")
	p.block("Anim", func(k []byte) bool {
		switch string(k) {
		case "Interval":
			p.u32s(s.Interval[:], "Interval")
		case "Flags":
			s.Flags = p.u32("Flags")
		case "MoveSpeed":
			s.MoveSpeed = p.f32("MoveSpeed")
		case "Rarity":
			s.Rarity = p.f32("Rarity")
		case "SyncPoint":
			s.SyncPoint = p.u32("SyncPoint")
		case "Frequency": // WoW (v1300+) sequences
			s.Frequency = p.f32("Frequency")
		case "Replay":
			p.u32s(s.Replay[:], "Replay")
		case "BlendTime":
			s.BlendTime = p.u32("BlendTime")
		default:
			return setFlag(&s.Flags, sequenceFlags, k) || p.extentProp(&s.Extent, k)
		}
		return true
	})
	return s
}

// layerEmissiveDefault is the EmissiveGain of a layer that does not mention
// it: 1 in Reforged models (as the game and mdx-m3-viewer assume), 0 before
// (the field does not exist there).
func layerEmissiveDefault(version uint32) float32 {
	if version >= 900 {
		return 1
	}
	return 0
}

func (p *mdlParser) material(version uint32) Material {
	var mt Material
	p.block("Material", func(k []byte) bool {
		switch string(k) {
		case "Flags":
			mt.Flags = p.u32("Flags")
		case "PriorityPlane":
			mt.PriorityPlane = p.i32("PriorityPlane")
		case "Shader":
			mt.Shader = p.str("Shader")
		case "Layer":
			mt.Layers = append(mt.Layers, p.layer(version))
		default:
			return setFlag(&mt.Flags, mdlMaterialFlags, k)
		}
		return true
	})
	return mt
}

// Names of the v1100 layer shader types.
const (
	shaderSD = "Shader_SD_FixedFunction"
	shaderHD = "Shader_HD_DefaultUnit"
)

func (p *mdlParser) layer(version uint32) Layer {
	l := Layer{TextureAnimID: -1, Alpha: 1, EmissiveGain: layerEmissiveDefault(version)}
	p.block("Layer", func(k []byte) bool {
		switch string(k) {
		case "FilterMode":
			w := p.word("a filter mode")
			l.FilterMode = FilterMode(filterModeByName(p, w))
		case "Flags":
			l.Flags = p.u32("Flags")
		case "TextureID":
			p.layerTexture(&l)
		case "TVertexAnimId":
			l.TextureAnimID = p.i32("TVertexAnimId")
		case "CoordId":
			l.CoordID = p.u32("CoordId")
		case "Alpha":
			p.animF(&l.Alpha, &l.AlphaTrack, "Alpha")
		case "EmissiveGain", "Emissive":
			p.animF(&l.EmissiveGain, &l.EmissiveGainTrack, "EmissiveGain")
		case "FresnelColor":
			p.animV(&l.FresnelColor, &l.FresnelColorTrack, false, "FresnelColor")
		case "FresnelOpacity":
			p.animF(&l.FresnelOpacity, &l.FresnelOpacityTrack, "FresnelOpacity")
		case "FresnelTeamColor":
			p.animF(&l.FresnelTeamColor, &l.FresnelTeamColorTrack, "FresnelTeamColor")
		case "Shader":
			switch s := p.str("Shader"); s {
			case shaderSD, "":
				l.ShaderTypeID = 0
			case shaderHD:
				l.ShaderTypeID = 1
			default:
				p.failf("unknown layer shader %s (want %s or %s)", clip.Quote(s), shaderSD, shaderHD)
			}
		case "ShaderTypeId":
			l.ShaderTypeID = p.u32("ShaderTypeId")
		default:
			return setFlag(&l.Flags, layerFlags, k)
		}
		return true
	})
	return l
}

// layerTexture reads a layer's TextureID: "static TextureID n", an animated
// "TextureID N {...}", or a v1100 texture slot "TextureID n <= slot" whose
// flipbook track, if any, follows as "TextureID N {...} <= slot".
func (p *mdlParser) layerTexture(l *Layer) {
	w := p.word("a texture id or key count")
	if p.tok == tokLBrace {
		t := mdlTrack(p, p.parseInt(w, 0, math.MaxUint32, "key count"), mdlU, 4)
		if p.tok == tokLE {
			p.next()
			slot := p.u32("a texture slot")
			if len(l.Textures) == 0 || l.Textures[len(l.Textures)-1].Slot != slot {
				p.failf("texture slot %d track does not follow a \"TextureID id <= %d\" line", slot, slot)
			}
			l.Textures[len(l.Textures)-1].TextureIDTrack = t
			return
		}
		l.TextureIDTrack = t
		return
	}
	id := uint32(p.parseInt(w, math.MinInt32, math.MaxUint32, "TextureID"))
	if p.tok == tokLE {
		p.next()
		slot := p.u32("a texture slot")
		if l.Textures == nil {
			l.Textures = make([]LayerTexture, 0, 6)
		}
		l.Textures = append(l.Textures, LayerTexture{TextureID: id, Slot: slot})
		return
	}
	l.TextureID = int32(id)
}

func filterModeByName(p *mdlParser, w []byte) uint32 {
	if i, ok := enumByName(filterModeNames[:], w); ok {
		return i
	}
	return uint32(p.parseInt(w, 0, math.MaxUint32, "a filter mode ("+strings.Join(filterModeNames[:], ", ")+")"))
}

func (p *mdlParser) geoset() Geoset {
	var g Geoset
	p.block("Geoset", func(k []byte) bool {
		switch string(k) {
		case "Vertices":
			g.Vertices = p.vec3List(g.Vertices, "Vertices", &p.vertices)
		case "Normals":
			g.Normals = p.vec3List(g.Normals, "Normals", nil)
		case "TVertices":
			n := p.optCount()
			uv := presize[Vec2](p, n, 5)
			p.openList("TVertices")
			for !p.endList("TVertices") {
				var v Vec2
				p.floats(v[:], "a texture coordinate")
				uv = append(uv, v)
			}
			if len(uv) == 0 {
				uv = nil
			}
			g.UVSets = append(g.UVSets, uv)
		case "VertexGroup":
			p.optCount()
			p.openList("VertexGroup")
			for !p.endList("VertexGroup") {
				g.VertexGroups = append(g.VertexGroups, uint8(p.parseInt(p.word("a vertex group"), 0, 255, "vertex group")))
			}
		case "Tangents":
			n := p.optCount()
			g.Tangents = presize[Vec4](p, n, 9)
			p.openList("Tangents")
			for !p.endList("Tangents") {
				var v Vec4
				p.floats(v[:], "a tangent")
				g.Tangents = append(g.Tangents, v)
			}
		case "SkinWeights":
			n := p.optCount()
			g.Skin = presize[byte](p, n*8, 2)
			p.openList("SkinWeights")
			for !p.endList("SkinWeights") {
				if p.tok == tokLBrace { // tolerate one braced row per vertex
					p.next()
					for !p.endList("a skin weight row") {
						g.Skin = append(g.Skin, uint8(p.parseInt(p.word("a skin weight"), 0, 255, "skin weight")))
					}
					continue
				}
				g.Skin = append(g.Skin, uint8(p.parseInt(p.word("a skin weight"), 0, 255, "skin weight")))
			}
		case "Faces":
			p.faces(&g)
		case "Groups":
			p.optCount()
			p.optCount()
			p.openList("Groups")
			for !p.endList("Groups") {
				if !p.isWord("Matrices") {
					p.failf("expected Matrices in Groups, found %s", p.describe())
				}
				p.next()
				p.openList("Matrices")
				n := 0
				for !p.endList("Matrices") {
					g.MatrixIndices = append(g.MatrixIndices, p.u32("a matrix index"))
					n++
				}
				g.MatrixGroups = append(g.MatrixGroups, uint32(n))
			}
		case "BoneIndices": // WoW v1300/1400 BIDX words
			g.BoneIndices = p.u32List("BoneIndices")
		case "BoneWeights": // WoW v1300/1400 BWGT words
			g.BoneWeights = p.u32List("BoneWeights")
		case "Anim":
			var e Extent
			p.block("Anim", func(k []byte) bool { return p.extentProp(&e, k) })
			g.SequenceExtents = append(g.SequenceExtents, e)
		case "MaterialID":
			g.MaterialID = p.u32("MaterialID")
		case "SelectionGroup":
			g.SelectionGroup = p.u32("SelectionGroup")
		case "SelectionFlags":
			g.SelectionFlags = p.u32("SelectionFlags")
		case "LevelOfDetail":
			g.LOD = p.u32("LevelOfDetail")
		case "Name":
			g.LODName = p.str("Name")
		default:
			return setFlag(&g.SelectionFlags, geosetFlags, k) || p.extentProp(&g.Extent, k)
		}
		return true
	})
	return g
}

// u32List reads "[N] { a, b, ... }" into a non-nil slice (the block's
// presence is kept even when it is empty).
func (p *mdlParser) u32List(what string) []uint32 {
	out := presize[uint32](p, p.optCount(), 2)
	p.openList(what)
	for !p.endList(what) {
		out = append(out, p.u32(what))
	}
	return out
}

// vec3List reads "[N] { {x, y, z}, ... }", counting the vectors against
// quota when it is not nil.
func (p *mdlParser) vec3List(dst []Vec3, what string, quota *geoCount) []Vec3 {
	n := p.optCount()
	if dst == nil {
		dst = presize[Vec3](p, n, 7)
	}
	p.openList(what)
	for !p.endList(what) {
		if quota != nil {
			p.add(quota, 1)
		}
		dst = append(dst, p.vec3(what))
	}
	if len(dst) == 0 {
		return nil
	}
	return dst
}

// faces reads "Faces groups total { Type { {i, ...}, ... } ... }": one
// primitive group per type block.
func (p *mdlParser) faces(g *Geoset) {
	p.optCount()
	total := p.optCount()
	if g.Faces == nil {
		g.Faces = presize[uint16](p, total, 2)
	}
	p.openList("Faces")
	for !p.endList("Faces") {
		w := p.word("a primitive type (Triangles)")
		typ, ok := enumByName(faceTypeNames[:], w)
		if !ok {
			typ = uint32(p.parseInt(w, 0, math.MaxUint32, "a primitive type (Triangles, ...)"))
		}
		before := len(g.Faces)
		p.openList("a face group")
		for !p.endList("a face group") {
			if p.tok == tokLBrace {
				p.next()
				for !p.endList("a face list") {
					p.faceIndex(g)
				}
				continue
			}
			p.faceIndex(g)
		}
		g.FaceTypes = append(g.FaceTypes, typ)
		g.FaceGroups = append(g.FaceGroups, uint32(len(g.Faces)-before))
	}
	if len(g.Faces) == 0 {
		g.Faces = nil
	}
}

// faceIndex reads one vertex index of a face list, every third one
// counting a triangle against the quota.
func (p *mdlParser) faceIndex(g *Geoset) {
	g.Faces = append(g.Faces, uint16(p.parseInt(p.word("a vertex index"), 0, 65535, "vertex index")))
	if p.faceIndices++; p.faceIndices%3 == 0 {
		p.add(&p.triangles, 1)
	}
}

func (p *mdlParser) geosetAnim() GeosetAnim {
	a := GeosetAnim{Alpha: 1, Color: Vec3{1, 1, 1}, GeosetID: -1}
	// A Color line implies the UseColor flag (as mdx-m3-viewer reads it)
	// unless the flags are given in full.
	var flags uint32
	explicit, color := false, false
	p.block("GeosetAnim", func(k []byte) bool {
		switch string(k) {
		case "DropShadow":
			a.Flags |= GeoaDropShadow
		case "Flags":
			flags, explicit = p.u32("Flags"), true
		case "Alpha":
			p.animF(&a.Alpha, &a.AlphaTrack, "Alpha")
		case "Color":
			color = true
			p.animV(&a.Color, &a.ColorTrack, true, "Color")
		case "GeosetId":
			a.GeosetID = p.i32("GeosetId")
		default:
			return false
		}
		return true
	})
	switch {
	case explicit:
		a.Flags = flags
	case color:
		a.Flags |= GeoaUseColor
	}
	return a
}

// enumByName returns the value whose name in names is k.
func enumByName(names []string, k []byte) (uint32, bool) {
	for i, n := range names {
		if string(k) == n {
			return uint32(i), true
		}
	}
	return 0, false
}

// setFlag sets the bit of t named k in *flags and reports whether t names
// one.
func setFlag(flags *uint32, t flagTable, k []byte) bool {
	b, ok := t.bit(k)
	*flags |= b
	return ok
}

// nodeFlagByName returns the node bit an MDL keyword names, or 0. Magos
// writes "BillboardLock*" for "BillboardedLock*".
func nodeFlagByName(k []byte) uint32 {
	if b, ok := mdlNodeFlags.bit(k); ok {
		return b
	}
	switch string(k) {
	case "BillboardLockX":
		return NodeBillboardedLockX
	case "BillboardLockY":
		return NodeBillboardedLockY
	case "BillboardLockZ":
		return NodeBillboardedLockZ
	}
	return 0
}

// emitterFlagByName returns the emitter bit an MDL keyword names, or 0.
// Either emitter's spelling of 0x8000 and 0x10000 is accepted in both.
func emitterFlagByName(k []byte) uint32 {
	if b, ok := emitterFlags.bit(k); ok {
		return b
	}
	b, _ := emitter2Flags.bit(k)
	return b
}

// node reads a node block; the node's type bit is set in Flags (MDX files
// carry it, MDL implies it by the block name). prop handles the
// type-specific properties.
func (p *mdlParser) node(n *Node, typeBit uint32, what string, prop func(k []byte) bool) {
	n.Name = p.str("the " + what + " name")
	n.ObjectID, n.ParentID, n.Flags = -1, -1, typeBit
	emitter := typeBit == NodeParticleEmitter
	p.block(what, func(k []byte) bool {
		switch string(k) {
		case "ObjectId":
			n.ObjectID = p.i32("ObjectId")
		case "Parent":
			n.ParentID = p.i32("Parent")
		case "NodeFlags":
			n.Flags = p.u32("NodeFlags")
		case "DontInherit":
			p.openList("DontInherit")
			for !p.endList("DontInherit") {
				if !setFlag(&n.Flags, mdlDontInherit, p.word("Translation, Rotation or Scaling")) {
					p.failf("DontInherit takes Translation, Rotation or Scaling")
				}
			}
		case "Translation":
			p.animV(nil, &n.Translation, false, "Translation")
		case "Rotation":
			p.animQ(&n.Rotation, "Rotation")
		case "Scaling":
			p.animV(nil, &n.Scaling, false, "Scaling")
		default:
			if f := nodeFlagByName(k); f != 0 {
				n.Flags |= f
				return true
			}
			if emitter {
				if f := emitterFlagByName(k); f != 0 {
					n.Flags |= f
					return true
				}
			}
			if prop == nil {
				// Bones and helpers have no visibility in MDX; some
				// exporters write one anyway. It is read and dropped.
				if string(k) == "Visibility" {
					var t *Track[float32]
					p.animF(nil, &t, "Visibility")
					return true
				}
				return false
			}
			return prop(k)
		}
		return true
	})
}

func (p *mdlParser) bone() Bone {
	b := Bone{GeosetID: -1, GeosetAnimID: -1}
	p.node(&b.Node, NodeBone, "Bone", func(k []byte) bool {
		switch string(k) {
		case "GeosetId":
			if p.isWord("Multiple") || p.isWord("None") {
				p.next()
				b.GeosetID = -1
			} else {
				b.GeosetID = p.i32("GeosetId")
			}
		case "GeosetAnimId":
			if p.isWord("None") {
				p.next()
				b.GeosetAnimID = -1
			} else {
				b.GeosetAnimID = p.i32("GeosetAnimId")
			}
		case "Visibility":
			var t *Track[float32]
			p.animF(nil, &t, "Visibility")
		default:
			return false
		}
		return true
	})
	return b
}

func (p *mdlParser) light(version uint32) Light {
	var l Light
	if ver(version).since(1200) {
		l.ShadowIntensity = DefaultShadowIntensity
	}
	p.node(&l.Node, NodeLight, "Light", func(k []byte) bool {
		if i, ok := enumByName(lightTypeNames[:], k); ok {
			l.Type = LightType(i)
			return true
		}
		switch string(k) {
		case "LightType":
			l.Type = LightType(p.u32("LightType"))
		case "AttenuationStart":
			p.animF(&l.AttenuationStart, &l.AttenuationStartTrack, "AttenuationStart")
		case "AttenuationEnd":
			p.animF(&l.AttenuationEnd, &l.AttenuationEndTrack, "AttenuationEnd")
		case "Intensity":
			p.animF(&l.Intensity, &l.IntensityTrack, "Intensity")
		case "Color":
			p.animV(&l.Color, &l.ColorTrack, true, "Color")
		case "AmbIntensity", "AmbientIntensity":
			p.animF(&l.AmbIntensity, &l.AmbIntensityTrack, "AmbIntensity")
		case "AmbColor", "AmbientColor":
			p.animV(&l.AmbColor, &l.AmbColorTrack, true, "AmbColor")
		case "Visibility":
			p.animF(nil, &l.Visibility, "Visibility")
		case "ShadowIntensity":
			l.ShadowIntensity = p.f32("ShadowIntensity")
		default:
			return false
		}
		return true
	})
	return l
}

func (p *mdlParser) attachment() Attachment {
	var a Attachment
	p.node(&a.Node, NodeAttachment, "Attachment", func(k []byte) bool {
		switch string(k) {
		case "AttachmentID", "AttachmentId":
			a.AttachmentID = p.i32("AttachmentID")
		case "Path":
			a.Path = p.str("Path")
		case "Visibility":
			p.animF(nil, &a.Visibility, "Visibility")
		default:
			return false
		}
		return true
	})
	return a
}

func (p *mdlParser) prem() ParticleEmitter {
	var e ParticleEmitter
	var particle func(k []byte) bool
	particle = func(k []byte) bool {
		switch string(k) {
		case "LifeSpan":
			p.animF(&e.LifeSpan, &e.LifeSpanTrack, "LifeSpan")
		case "InitVelocity", "Speed":
			p.animF(&e.Speed, &e.SpeedTrack, "InitVelocity")
		case "Path":
			e.Path = p.str("Path")
		default:
			return false
		}
		return true
	}
	p.node(&e.Node, NodeParticleEmitter, "ParticleEmitter", func(k []byte) bool {
		switch string(k) {
		case "EmissionRate":
			p.animF(&e.EmissionRate, &e.EmissionRateTrack, "EmissionRate")
		case "Gravity":
			p.animF(&e.Gravity, &e.GravityTrack, "Gravity")
		case "Longitude":
			p.animF(&e.Longitude, &e.LongitudeTrack, "Longitude")
		case "Latitude":
			p.animF(&e.Latitude, &e.LatitudeTrack, "Latitude")
		case "Visibility":
			p.animF(nil, &e.Visibility, "Visibility")
		case "Particle":
			p.block("Particle", particle)
		default:
			return particle(k)
		}
		return true
	})
	return e
}

func (p *mdlParser) pre2() ParticleEmitter2 {
	var e ParticleEmitter2
	p.node(&e.Node, NodeParticleEmitter, "ParticleEmitter2", func(k []byte) bool {
		if i, ok := enumByName(emitter2FilterNames[:], k); ok {
			e.FilterMode = i
			return true
		}
		if i, ok := enumByName(headTailNames[:], k); ok {
			e.HeadOrTail = i
			return true
		}
		switch string(k) {
		case "Speed":
			p.animF(&e.Speed, &e.SpeedTrack, "Speed")
		case "Variation":
			p.animF(&e.Variation, &e.VariationTrack, "Variation")
		case "Latitude":
			p.animF(&e.Latitude, &e.LatitudeTrack, "Latitude")
		case "Gravity":
			p.animF(&e.Gravity, &e.GravityTrack, "Gravity")
		case "EmissionRate":
			p.animF(&e.EmissionRate, &e.EmissionRateTrack, "EmissionRate")
		case "Width":
			p.animF(&e.Width, &e.WidthTrack, "Width")
		case "Length":
			p.animF(&e.Length, &e.LengthTrack, "Length")
		case "Visibility":
			p.animF(nil, &e.Visibility, "Visibility")
		case "LifeSpan":
			e.LifeSpan = p.f32("LifeSpan")
		case "Squirt":
			e.Squirt = 1
		case "FilterMode":
			e.FilterMode = p.u32("FilterMode")
		case "HeadOrTail":
			e.HeadOrTail = p.u32("HeadOrTail")
		case "Rows":
			e.Rows = p.u32("Rows")
		case "Columns":
			e.Columns = p.u32("Columns")
		case "TailLength":
			e.TailLength = p.f32("TailLength")
		case "Time":
			e.Time = p.f32("Time")
		case "SegmentColor":
			i := 0
			p.block("SegmentColor", func(k []byte) bool {
				if string(k) != "Color" {
					return false
				}
				if i >= 3 {
					p.failf("SegmentColor has more than three colours")
				}
				e.SegmentColors[i] = p.color("a segment colour")
				i++
				return true
			})
		case "Alpha":
			var a [3]uint32
			p.u32s(a[:], "Alpha")
			for i, v := range a {
				if v > 255 {
					p.failf("segment alpha %d out of range [0, 255]", v)
				}
				e.SegmentAlphas[i] = uint8(v)
			}
		case "ParticleScaling":
			e.SegmentScaling = p.vec3("ParticleScaling")
		case "LifeSpanUVAnim":
			p.u32s(e.HeadIntervals[:], "LifeSpanUVAnim")
		case "DecayUVAnim":
			p.u32s(e.HeadDecayIntervals[:], "DecayUVAnim")
		case "TailUVAnim":
			p.u32s(e.TailIntervals[:], "TailUVAnim")
		case "TailDecayUVAnim":
			p.u32s(e.TailDecayIntervals[:], "TailDecayUVAnim")
		case "TextureID":
			e.TextureID = p.i32("TextureID")
		case "ReplaceableId":
			e.ReplaceableID = p.u32("ReplaceableId")
		case "PriorityPlane":
			e.PriorityPlane = p.i32("PriorityPlane")
		default:
			return false
		}
		return true
	})
	return e
}

func (p *mdlParser) corn() PopcornEmitter {
	var e PopcornEmitter
	p.node(&e.Node, NodeParticleEmitter, "ParticleEmitterPopcorn", func(k []byte) bool {
		switch string(k) {
		case "LifeSpan":
			p.animF(&e.LifeSpan, &e.LifeSpanTrack, "LifeSpan")
		case "EmissionRate":
			p.animF(&e.EmissionRate, &e.EmissionRateTrack, "EmissionRate")
		case "Speed":
			p.animF(&e.Speed, &e.SpeedTrack, "Speed")
		case "Color":
			p.animV(&e.Color, &e.ColorTrack, true, "Color")
		case "Alpha":
			p.animF(&e.Alpha, &e.AlphaTrack, "Alpha")
		case "Visibility":
			p.animF(nil, &e.Visibility, "Visibility")
		case "ReplaceableId":
			e.ReplaceableID = p.u32("ReplaceableId")
		case "Path":
			e.Path = p.str("Path")
		case "AnimVisibilityGuide":
			e.AnimVisibilityGuide = p.str("AnimVisibilityGuide")
		default:
			return false
		}
		return true
	})
	return e
}

func (p *mdlParser) ribbon() RibbonEmitter {
	var e RibbonEmitter
	p.node(&e.Node, NodeRibbonEmitter, "RibbonEmitter", func(k []byte) bool {
		switch string(k) {
		case "HeightAbove":
			p.animF(&e.HeightAbove, &e.HeightAboveTrack, "HeightAbove")
		case "HeightBelow":
			p.animF(&e.HeightBelow, &e.HeightBelowTrack, "HeightBelow")
		case "Alpha":
			p.animF(&e.Alpha, &e.AlphaTrack, "Alpha")
		case "Color":
			p.animV(&e.Color, &e.ColorTrack, true, "Color")
		case "TextureSlot":
			p.animU(&e.TextureSlot, &e.TextureSlotTrack, "TextureSlot")
		case "Visibility":
			p.animF(nil, &e.Visibility, "Visibility")
		case "EmissionRate":
			e.EmissionRate = p.u32("EmissionRate")
		case "LifeSpan":
			e.LifeSpan = p.f32("LifeSpan")
		case "Gravity":
			e.Gravity = p.f32("Gravity")
		case "Rows":
			e.Rows = p.u32("Rows")
		case "Columns":
			e.Columns = p.u32("Columns")
		case "MaterialID":
			e.MaterialID = p.i32("MaterialID")
		default:
			return false
		}
		return true
	})
	return e
}

func (p *mdlParser) camera() Camera {
	var c Camera
	c.Name = p.str("the camera name")
	p.block("Camera", func(k []byte) bool {
		switch string(k) {
		case "Position":
			c.Position = p.vec3("Position")
		case "Translation":
			p.animV(nil, &c.Translation, false, "Translation")
		case "Rotation":
			p.animF(nil, &c.Rotation, "Rotation")
		case "FieldOfView":
			c.FieldOfView = p.f32("FieldOfView")
		case "FarClip":
			c.FarClip = p.f32("FarClip")
		case "NearClip":
			c.NearClip = p.f32("NearClip")
		case "Target":
			p.block("Target", func(k []byte) bool {
				switch string(k) {
				case "Position":
					c.TargetPosition = p.vec3("Position")
				case "Translation":
					p.animV(nil, &c.TargetTranslation, false, "Translation")
				default:
					return false
				}
				return true
			})
		default:
			return false
		}
		return true
	})
	return c
}

func (p *mdlParser) event() EventObject {
	e := EventObject{GlobalSeqID: -1}
	p.node(&e.Node, NodeEventObject, "EventObject", func(k []byte) bool {
		if string(k) != "EventTrack" {
			return false
		}
		n := p.optCount()
		e.Frames = presize[uint32](p, n, 2)
		p.openList("EventTrack")
		for !p.endList("EventTrack") {
			if p.isWord("GlobalSeqId") {
				p.next()
				e.GlobalSeqID = p.i32("GlobalSeqId")
				continue
			}
			e.Frames = append(e.Frames, p.u32("an event frame"))
		}
		if len(e.Frames) == 0 {
			e.Frames = nil
		}
		return true
	})
	return e
}

func (p *mdlParser) collision() CollisionShape {
	var c CollisionShape
	p.node(&c.Node, NodeCollisionShape, "CollisionShape", func(k []byte) bool {
		if i, ok := enumByName(shapeNames[:], k); ok {
			c.Type = ShapeType(i)
			return true
		}
		switch string(k) {
		case "ShapeType":
			c.Type = ShapeType(p.u32("ShapeType"))
		case "Vertices":
			p.optCount()
			p.openList("Vertices")
			i := 0
			for !p.endList("Vertices") {
				if i >= 2 {
					p.failf("a collision shape has at most two vertices")
				}
				c.Vertices[i] = p.vec3("a collision vertex")
				i++
			}
		case "BoundsRadius":
			c.BoundsRadius = p.f32("BoundsRadius")
		default:
			return false
		}
		return true
	})
	return c
}
