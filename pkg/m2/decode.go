package m2

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

var le = binary.LittleEndian

// headerSize is the pre-Wrath header: up to and including the particle
// emitter pair at 0x13C.
const headerSize = 0x144

// cameraSize is a pre-Wrath camera record (Cataclysm later drops the
// field of view).
const cameraSize = 124

// Version returns the version of an MD20 file, or an error if b is not one.
func Version(b []byte) (uint32, error) {
	if !IsM2(b) {
		return 0, ErrNotM2
	}
	if len(b) < 8 {
		return 0, &FormatError{Offset: 4, Block: "header", Reason: "no version"}
	}
	return le.Uint32(b[4:]), nil
}

// Decode decodes the M2 held in b (magic "MD20", versions 256-263). The
// File keeps no reference to b.
func Decode(b []byte) (*File, error) {
	v, err := Version(b)
	if err != nil {
		return nil, err
	}
	if v < 256 || v > 263 {
		return nil, &UnsupportedVersionError{Version: v}
	}
	if len(b) < headerSize {
		return nil, &FormatError{Offset: 0, Block: "header", Reason: fmt.Sprintf("file has %d bytes, the header needs %d", len(b), headerSize)}
	}
	d := &decoder{b: b, f: &File{}, budget: 8*uint64(len(b)) + 1<<20}
	d.header()
	d.blocks()
	if d.err != nil {
		return nil, d.err
	}
	return d.f, nil
}

type decoder struct {
	b   []byte
	f   *File
	err error
	// budget is how many more bytes of blocks may be read. Blocks may
	// overlap (many tracks can point at the same bytes), so without it a
	// small hostile file could make the decoder allocate far more than its
	// size.
	budget uint64
}

func (d *decoder) fail(off int64, block, format string, args ...any) {
	if d.err == nil {
		d.err = &FormatError{Offset: off, Block: block, Reason: fmt.Sprintf(format, args...)}
	}
}

// span returns the bytes of an array of count elements of size bytes, or
// nil (and records an error) if it does not lie inside the file.
func (d *decoder) span(a Array, size int, block string) []byte {
	if d.err != nil || a.Count == 0 {
		return nil
	}
	n := uint64(a.Count) * uint64(size)
	if uint64(a.Offset) > uint64(len(d.b)) || n > uint64(len(d.b))-uint64(a.Offset) {
		d.fail(int64(a.Offset), block, "%d elements of %d bytes at offset %#x run past the end of the file (%d bytes)", a.Count, size, a.Offset, len(d.b))
		return nil
	}
	if n > d.budget {
		d.fail(int64(a.Offset), block, "blocks overlap too much: more than 8 times the file size read")
		return nil
	}
	d.budget -= n
	return d.b[a.Offset : uint64(a.Offset)+n]
}

func getArray(b []byte) Array { return Array{le.Uint32(b), le.Uint32(b[4:])} }
func f32(b []byte) float32    { return math.Float32frombits(le.Uint32(b)) }
func vec3(b []byte) mdx.Vec3  { return mdx.Vec3{f32(b), f32(b[4:]), f32(b[8:])} }

func (d *decoder) header() {
	b := d.b
	h := &d.f.Header
	h.Version = le.Uint32(b[4:])
	h.Name = getArray(b[8:])
	h.Flags = le.Uint32(b[0x10:])
	pairs := []*Array{&h.GlobalSequences, &h.Sequences, &h.SequenceLookup, &h.PlayableLookup,
		&h.Bones, &h.KeyBoneLookup, &h.Vertices, &h.Views, &h.Colors, &h.Textures, &h.Transparency,
		&h.TextureFlipbooks, &h.TextureAnims, &h.TexReplace, &h.RenderFlags, &h.BoneLookup,
		&h.TextureLookup, &h.TexUnitLookup, &h.TransparencyLookup, &h.TextureAnimLookup}
	for i, p := range pairs {
		*p = getArray(b[0x14+8*i:])
	}
	fl := b[0xB4:]
	h.VertexBox = [2]mdx.Vec3{vec3(fl), vec3(fl[12:])}
	h.VertexRadius = f32(fl[24:])
	h.BoundingBox = [2]mdx.Vec3{vec3(fl[28:]), vec3(fl[40:])}
	h.BoundingRadius = f32(fl[52:])
	tail := []*Array{&h.BoundingTriangles, &h.BoundingVertices, &h.BoundingNormals, &h.Attachments,
		&h.AttachLookup, &h.Events, &h.Lights, &h.Cameras, &h.CameraLookup, &h.RibbonEmitters, &h.Particles}
	for i, p := range tail {
		*p = getArray(b[0xEC+8*i:])
	}
}

func (d *decoder) blocks() {
	f := d.f
	h := &f.Header
	if nb := d.span(h.Name, 1, "name"); nb != nil {
		if i := bytes.IndexByte(nb, 0); i >= 0 {
			nb = nb[:i]
		}
		f.Name = string(nb)
	}
	f.GlobalSequences = u32s(d.span(h.GlobalSequences, 4, "global sequences"))

	if sb := d.span(h.Sequences, 68, "sequences"); sb != nil {
		f.Sequences = make([]Sequence, h.Sequences.Count)
		for i := range f.Sequences {
			p := sb[68*i:]
			s := &f.Sequences[i]
			s.ID, s.SubID = le.Uint16(p), le.Uint16(p[2:])
			s.Start, s.End = le.Uint32(p[4:]), le.Uint32(p[8:])
			s.MoveSpeed = f32(p[12:])
			s.Flags = le.Uint32(p[16:])
			s.Frequency = int16(le.Uint16(p[20:]))
			s.Replay = [2]uint32{le.Uint32(p[24:]), le.Uint32(p[28:])}
			s.BlendTime = le.Uint32(p[32:])
			s.BoxMin, s.BoxMax = vec3(p[36:]), vec3(p[48:])
			s.Radius = f32(p[60:])
			s.NextAnim = int16(le.Uint16(p[64:]))
			s.Index = le.Uint16(p[66:])
		}
	}

	boneSize := 108
	if h.Version >= 260 {
		boneSize = 112
	}
	if bb := d.span(h.Bones, boneSize, "bones"); bb != nil {
		f.Bones = make([]Bone, h.Bones.Count)
		for i := range f.Bones {
			p := bb[boneSize*i:]
			bn := &f.Bones[i]
			bn.KeyBone = int32(le.Uint32(p))
			bn.Flags = le.Uint32(p[4:])
			bn.Parent = int16(le.Uint16(p[8:]))
			bn.Submesh = le.Uint16(p[10:])
			o := 12
			if h.Version >= 260 {
				bn.NameCRC = le.Uint32(p[12:])
				o = 16
			}
			blk := fmt.Sprintf("bone %d", i)
			bn.Translation = readTrack(d, p[o:], blk+" translation", 12, vec3)
			if h.Version >= 260 {
				bn.Rotation = readTrack(d, p[o+28:], blk+" rotation", 8, compQuat)
			} else {
				bn.Rotation = readTrack(d, p[o+28:], blk+" rotation", 16, quat)
			}
			bn.Scaling = readTrack(d, p[o+56:], blk+" scaling", 12, vec3)
			bn.Pivot = vec3(p[o+84:])
			if int(bn.Parent) >= len(f.Bones) || bn.Parent < -1 {
				d.fail(int64(h.Bones.Offset)+int64(boneSize*i+8), blk, "parent %d of %d bones", bn.Parent, len(f.Bones))
			}
		}
	}

	if vb := d.span(h.Vertices, 48, "vertices"); vb != nil {
		f.Vertices = make([]Vertex, h.Vertices.Count)
		for i := range f.Vertices {
			p := vb[48*i:]
			v := &f.Vertices[i]
			v.Position = vec3(p)
			copy(v.BoneWeights[:], p[12:16])
			copy(v.BoneIndices[:], p[16:20])
			v.Normal = vec3(p[20:])
			v.UV = [2]mdx.Vec2{{f32(p[32:]), f32(p[36:])}, {f32(p[40:]), f32(p[44:])}}
			for k := 0; k < 4; k++ {
				if v.BoneWeights[k] > 0 && int(v.BoneIndices[k]) >= len(f.Bones) {
					d.fail(int64(h.Vertices.Offset)+int64(48*i+16), "vertices", "vertex %d uses bone %d of %d", i, v.BoneIndices[k], len(f.Bones))
				}
			}
		}
	}

	if vb := d.span(h.Views, 44, "views"); vb != nil {
		f.Views = make([]View, h.Views.Count)
		for i := range f.Views {
			d.view(&f.Views[i], vb[44*i:], i)
		}
	}

	if cb := d.span(h.Colors, 56, "colors"); cb != nil {
		f.Colors = make([]Color, h.Colors.Count)
		for i := range f.Colors {
			blk := fmt.Sprintf("color %d", i)
			f.Colors[i].Color = readTrack(d, cb[56*i:], blk, 12, vec3)
			f.Colors[i].Alpha = readTrack(d, cb[56*i+28:], blk+" alpha", 2, fixed16)
		}
	}

	if tb := d.span(h.Textures, 16, "textures"); tb != nil {
		f.Textures = make([]Texture, h.Textures.Count)
		for i := range f.Textures {
			p := tb[16*i:]
			t := &f.Textures[i]
			t.Type, t.Flags = le.Uint32(p), le.Uint32(p[4:])
			if nb := d.span(getArray(p[8:]), 1, fmt.Sprintf("texture %d name", i)); nb != nil {
				if k := bytes.IndexByte(nb, 0); k >= 0 {
					nb = nb[:k]
				}
				t.Filename = string(nb)
			}
		}
	}

	if tb := d.span(h.Transparency, 28, "transparency"); tb != nil {
		f.Transparency = make([]Track[int16], h.Transparency.Count)
		for i := range f.Transparency {
			f.Transparency[i] = readTrack(d, tb[28*i:], fmt.Sprintf("transparency %d", i), 2, fixed16)
		}
	}

	if tb := d.span(h.TextureAnims, 84, "texture animations"); tb != nil {
		f.TextureAnims = make([]TextureAnim, h.TextureAnims.Count)
		for i := range f.TextureAnims {
			blk := fmt.Sprintf("texture animation %d", i)
			p := tb[84*i:]
			f.TextureAnims[i] = TextureAnim{
				Translation: readTrack(d, p, blk+" translation", 12, vec3),
				Rotation:    readTrack(d, p[28:], blk+" rotation", 16, quat),
				Scaling:     readTrack(d, p[56:], blk+" scaling", 12, vec3),
			}
		}
	}

	if rb := d.span(h.RenderFlags, 4, "render flags"); rb != nil {
		f.RenderFlags = make([]RenderFlag, h.RenderFlags.Count)
		for i := range f.RenderFlags {
			f.RenderFlags[i] = RenderFlag{Flags: le.Uint16(rb[4*i:]), Blend: le.Uint16(rb[4*i+2:])}
		}
	}

	if cb := d.span(h.Cameras, cameraSize, "cameras"); cb != nil {
		f.Cameras = make([]Camera, h.Cameras.Count)
		for i := range f.Cameras {
			blk := fmt.Sprintf("camera %d", i)
			p := cb[cameraSize*i:]
			f.Cameras[i] = Camera{
				Type: int32(le.Uint32(p)), FieldOfView: f32(p[4:]), FarClip: f32(p[8:]), NearClip: f32(p[12:]),
				// spline keys: the value, then its two tangents
				Position:     readTrack(d, p[16:], blk+" position", 36, vec3),
				PositionBase: vec3(p[44:]),
				Target:       readTrack(d, p[56:], blk+" target", 36, vec3),
				TargetBase:   vec3(p[84:]),
				Roll:         readTrack(d, p[96:], blk+" roll", 12, f32),
			}
		}
	}

	f.BoneLookup = u16s(d.span(h.BoneLookup, 2, "bone lookup"))
	f.TextureLookup = u16s(d.span(h.TextureLookup, 2, "texture lookup"))
	f.TexUnitLookup = u16s(d.span(h.TexUnitLookup, 2, "texture coordinate lookup"))
	f.TransparencyLookup = u16s(d.span(h.TransparencyLookup, 2, "transparency lookup"))
	for _, v := range u16s(d.span(h.TextureAnimLookup, 2, "texture animation lookup")) {
		f.TextureAnimLookup = append(f.TextureAnimLookup, int16(v))
	}
	d.emitters()
}

func (d *decoder) view(v *View, p []byte, i int) {
	blk := fmt.Sprintf("view %d", i)
	v.Indices = u16s(d.span(getArray(p), 2, blk+" indices"))
	v.Triangles = u16s(d.span(getArray(p[8:]), 2, blk+" triangles"))
	if pb := d.span(getArray(p[16:]), 4, blk+" properties"); pb != nil {
		v.Properties = make([][4]uint8, len(pb)/4)
		for k := range v.Properties {
			copy(v.Properties[k][:], pb[4*k:])
		}
	}
	smSize := 32
	if d.f.Header.Version >= 260 {
		smSize = 48
	}
	sa := getArray(p[24:])
	if sb := d.span(sa, smSize, blk+" submeshes"); sb != nil {
		v.Submeshes = make([]Submesh, sa.Count)
		for k := range v.Submeshes {
			q := sb[smSize*k:]
			s := &v.Submeshes[k]
			s.ID, s.Level = le.Uint16(q), le.Uint16(q[2:])
			s.VertexStart, s.VertexCount = le.Uint16(q[4:]), le.Uint16(q[6:])
			s.TriangleStart, s.TriangleCount = le.Uint16(q[8:]), le.Uint16(q[10:])
			s.BoneCount, s.BoneComboIndex = le.Uint16(q[12:]), le.Uint16(q[14:])
			s.BoneInfluences, s.CenterBone = le.Uint16(q[16:]), le.Uint16(q[18:])
			s.Center = vec3(q[20:])
			if smSize == 48 {
				s.SortCenter = vec3(q[32:])
				s.SortRadius = f32(q[44:])
			}
			at := int64(sa.Offset) + int64(smSize*k)
			if int(s.VertexStart)+int(s.VertexCount) > len(v.Indices) {
				d.fail(at, fmt.Sprintf("%s submesh %d", blk, k), "vertices %d+%d exceed the %d indices", s.VertexStart, s.VertexCount, len(v.Indices))
			}
			if s.TriangleFirst()+int(s.TriangleCount) > len(v.Triangles) || s.TriangleCount%3 != 0 {
				d.fail(at, fmt.Sprintf("%s submesh %d", blk, k), "triangle indices %d+%d do not fit the %d triangle indices in threes", s.TriangleFirst(), s.TriangleCount, len(v.Triangles))
			}
		}
	}
	ta := getArray(p[32:])
	if tb := d.span(ta, 24, blk+" texture units"); tb != nil {
		v.TexUnits = make([]TexUnit, ta.Count)
		for k := range v.TexUnits {
			q := tb[24*k:]
			v.TexUnits[k] = TexUnit{Flags: q[0], PriorityPlane: int8(q[1]), ShaderID: le.Uint16(q[2:]),
				Submesh: le.Uint16(q[4:]), GeosetIndex: le.Uint16(q[6:]), ColorIndex: int16(le.Uint16(q[8:])),
				RenderFlags: le.Uint16(q[10:]), MaterialLayer: le.Uint16(q[12:]), TextureCount: le.Uint16(q[14:]),
				TextureCombo: le.Uint16(q[16:]), CoordCombo: le.Uint16(q[18:]), Transparency: le.Uint16(q[20:]),
				TextureAnim: le.Uint16(q[22:])}
		}
	}
	v.BoneCount = le.Uint32(p[40:])
	for k, x := range v.Indices {
		if int(x) >= len(d.f.Vertices) {
			d.fail(int64(getArray(p).Offset)+int64(2*k), blk+" indices", "index %d names vertex %d of %d", k, x, len(d.f.Vertices))
			break
		}
	}
}

// readTrack reads a 28-byte pre-Wrath animation block at p.
func readTrack[T any](d *decoder, p []byte, block string, size int, get func([]byte) T) Track[T] {
	t := Track[T]{Interpolation: le.Uint16(p), GlobalSeq: int16(le.Uint16(p[2:]))}
	ra, ta, va := getArray(p[4:]), getArray(p[12:]), getArray(p[20:])
	if rb := d.span(ra, 8, block+" ranges"); rb != nil {
		t.Ranges = make([][2]uint32, ra.Count)
		for i := range t.Ranges {
			t.Ranges[i] = [2]uint32{le.Uint32(rb[8*i:]), le.Uint32(rb[8*i+4:])}
		}
	}
	t.Times = u32s(d.span(ta, 4, block+" timestamps"))
	if vb := d.span(va, size, block+" values"); vb != nil {
		t.Values = make([]T, va.Count)
		for i := range t.Values {
			t.Values[i] = get(vb[size*i:])
		}
	}
	if d.err == nil {
		want := len(t.Times)
		if t.Interpolation > 1 && len(t.Values) == 3*want {
			want *= 3
		}
		if len(t.Values) != want {
			d.fail(int64(va.Offset), block, "%d values for %d timestamps", len(t.Values), len(t.Times))
		}
		if t.GlobalSeq >= 0 && int(t.GlobalSeq) >= len(d.f.GlobalSequences) {
			d.fail(int64(ta.Offset), block, "global sequence %d of %d", t.GlobalSeq, len(d.f.GlobalSequences))
		}
	}
	return t
}

func quat(b []byte) mdx.Quat { return mdx.Quat{f32(b), f32(b[4:]), f32(b[8:]), f32(b[12:])} }

// compQuat decodes the v260+ rotation: four int16s mapped onto [-1, 1].
func compQuat(b []byte) mdx.Quat {
	var q mdx.Quat
	for i := range q {
		v := int16(le.Uint16(b[2*i:]))
		if v < 0 {
			q[i] = float32(int32(v)+32768) / 32767
		} else {
			q[i] = float32(int32(v)-32767) / 32767
		}
	}
	return q
}

func fixed16(b []byte) int16 { return int16(le.Uint16(b)) }

func u16s(b []byte) []uint16 {
	if b == nil {
		return nil
	}
	s := make([]uint16, len(b)/2)
	for i := range s {
		s[i] = le.Uint16(b[2*i:])
	}
	return s
}

func u32s(b []byte) []uint32 {
	if b == nil {
		return nil
	}
	s := make([]uint32, len(b)/4)
	for i := range s {
		s[i] = le.Uint32(b[4*i:])
	}
	return s
}
