package m2

import (
	"encoding/binary"
	"math"
)

// builder writes M2 bytes by hand from the layout of docs/formats.md#m2 (header of
// (count, offset) pairs, blocks after it), so tests check the decoder
// against the document rather than against itself.
type builder struct {
	v    uint32
	hdr  []byte
	data []byte
}

func newBuilder(v uint32) *builder {
	b := &builder{v: v, hdr: make([]byte, headerSize)}
	copy(b.hdr, "MD20")
	binary.LittleEndian.PutUint32(b.hdr[4:], v)
	return b
}

// block appends raw bytes (16-byte aligned, as the game's files are) and
// returns their offset.
func (b *builder) block(p []byte) uint32 {
	for len(b.data)%16 != 0 {
		b.data = append(b.data, 0)
	}
	off := uint32(headerSize + len(b.data))
	b.data = append(b.data, p...)
	return off
}

// set stores a (count, offset) pair at a header offset.
func (b *builder) set(at int, count int, p []byte) {
	binary.LittleEndian.PutUint32(b.hdr[at:], uint32(count))
	if count > 0 {
		binary.LittleEndian.PutUint32(b.hdr[at+4:], b.block(p))
	}
}

func (b *builder) bytes() []byte { return append(append([]byte(nil), b.hdr...), b.data...) }

// w is a little-endian byte writer.
type w []byte

func (p w) u8(v ...uint8) w { return append(p, v...) }
func (p w) u16(vs ...uint16) w {
	for _, v := range vs {
		p = binary.LittleEndian.AppendUint16(p, v)
	}
	return p
}
func (p w) u32(vs ...uint32) w {
	for _, v := range vs {
		p = binary.LittleEndian.AppendUint32(p, v)
	}
	return p
}
func (p w) f32(vs ...float32) w {
	for _, v := range vs {
		p = binary.LittleEndian.AppendUint32(p, math.Float32bits(v))
	}
	return p
}

// track writes a 28-byte animation block whose arrays live in b's data.
func (b *builder) track(p w, interp uint16, gs int16, ranges [][2]uint32, times []uint32, values w, nvalues int) w {
	p = p.u16(interp, uint16(gs))
	var rb w
	for _, r := range ranges {
		rb = rb.u32(r[0], r[1])
	}
	for _, a := range []struct {
		n int
		d []byte
	}{{len(ranges), rb}, {len(times), w(nil).u32(times...)}, {nvalues, values}} {
		if a.n == 0 {
			p = p.u32(0, 0)
		} else {
			p = p.u32(uint32(a.n), b.block(a.d))
		}
	}
	return p
}

func emptyTrack(p w) w { return p.u16(0, 0xFFFF).u32(0, 0, 0, 0, 0, 0) }

// fixture builds a small model: 2 sequences, 2 bones (one animated, one
// with a global sequence), 6 vertices, two views (the second a coarser
// one), a view 0 with 2 submeshes and 3 texture units (two layers on
// submesh 0), 2 textures (a file and a replaceable), a colour, 2
// transparencies, a texture animation, 3 render flags and the lookups.
func fixture(v uint32) []byte { return fixtureBuilder(v).bytes() }

// fixtureBuilder is fixture's builder, for fixtures that add to it.
func fixtureBuilder(v uint32) *builder {
	b := newBuilder(v)
	name := "Fixture\x00"
	b.set(0x08, len(name), []byte(name))
	binary.LittleEndian.PutUint32(b.hdr[0x10:], 0)
	b.set(0x14, 1, w(nil).u32(1000)) // global sequences

	var seqs w
	seqs = seqs.u16(0, 0).u32(0, 999).f32(0).u32(0x20).u16(32767, 0).u32(0, 0, 150).f32(-1, -1, 0, 1, 1, 2, 2).u16(0xFFFF, 0)
	seqs = seqs.u16(4, 1).u32(1000, 1999).f32(2.5).u32(0).u16(16384, 0).u32(1, 2, 0).f32(-1, -1, 0, 1, 1, 2, 2).u16(0xFFFF, 1)
	b.set(0x1C, 2, seqs)

	// Bones: root with translation (linear) and rotation keys; child with
	// a scaling track on the global sequence.
	var bones w
	for i := 0; i < 2; i++ {
		bones = bones.u32(0xFFFFFFFF)
		if i == 0 {
			bones = bones.u32(0x8).u16(0xFFFF, 0)
		} else {
			bones = bones.u32(0x1).u16(0, 0)
		}
		if v >= 260 {
			bones = bones.u32(0xABCD)
		}
		if i == 0 {
			bones = b.track(bones, 1, -1, [][2]uint32{{0, 2}, {2, 3}}, []uint32{0, 999, 1500},
				w(nil).f32(0, 0, 0, 0, 0, 1, 1, 0, 0), 3)
			if v >= 260 {
				// (v < 0: (v+32768)/32767, else (v-32767)/32767): x = -16384
				// is 0.50002, 32767 is 0, w = -4391 is 0.86603.
				bones = b.track(bones, 1, -1, [][2]uint32{{0, 1}, {1, 1}}, []uint32{0},
					w(nil).u16(i16(-16384), 32767, 32767, i16(-4391)), 1)
			} else {
				bones = b.track(bones, 1, -1, [][2]uint32{{0, 1}, {1, 1}}, []uint32{0},
					w(nil).f32(0.5, 0, 0, 0.8660254), 1)
			}
			bones = emptyTrack(bones)
		} else {
			bones = emptyTrack(bones)
			bones = emptyTrack(bones)
			bones = b.track(bones, 2, 0, nil, []uint32{0, 500},
				w(nil).f32(1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2, 0, 0, 0, 0, 0, 0), 6)
		}
		bones = bones.f32(0, 0, float32(i))
	}
	b.set(0x34, 2, bones)

	var verts w
	for i := 0; i < 6; i++ {
		x, y := float32(i%3), float32(i/3)
		bi, bw := uint8(0), uint8(255)
		verts = verts.f32(x, y, 0).u8(bw, 0, 0, 0, bi, 0, 0, 0)
		if i == 5 {
			verts = verts[:len(verts)-8].u8(128, 127, 0, 0, 0, 1, 0, 0)
		}
		verts = verts.f32(0, 0, 1).f32(x/2, y).f32(0, 0)
	}
	b.set(0x44, 6, verts)

	// View 0: all 6 vertices, 2 submeshes (triangles 0-1-3 and 1-2-4 /
	// 3-4-5 on the second), 3 texture units.
	view := func(lod uint32) w {
		var p w
		idx := w(nil).u16(0, 1, 2, 3, 4, 5)
		tri := w(nil).u16(0, 1, 3, 1, 2, 4, 3, 4, 5)
		props := make(w, 24)
		var sm w
		for k, r := range [][4]uint16{{0, 5, 0, 6}, {3, 3, 6, 3}} {
			sm = sm.u16(uint16(k)*100+1, 0, r[0], r[1], r[2], r[3], 1, 0, 1, 0).f32(1, 1, 0)
			if v >= 260 {
				sm = sm.f32(1, 1, 0, 2)
			}
		}
		var tu w
		// flags, priority, shader, submesh, geoset, color, renderflags,
		// layer, count, texcombo, coordcombo, transparency, texanim
		tu = tu.u8(16, 0).u16(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0)
		tu = tu.u8(16, 1).u16(0, 0, 0, 0xFFFF, 1, 1, 1, 1, 0, 1, 0)
		tu = tu.u8(16, 0).u16(0, 1, 1, 0xFFFF, 2, 0, 1, 1, 1, 0, 1)
		for _, a := range []struct {
			n int
			d w
		}{{6, idx}, {9, tri}, {6, props}, {2, sm}, {3, tu}} {
			p = p.u32(uint32(a.n), b.block(a.d))
		}
		return p.u32(lod)
	}
	v0 := view(2)
	v1 := view(1)
	b.set(0x4C, 2, append(v0, v1...))

	var col w
	col = b.track(col, 1, -1, [][2]uint32{{0, 1}}, []uint32{0}, w(nil).f32(1, 0.5, 0.25), 1)
	col = b.track(col, 0, -1, [][2]uint32{{0, 1}}, []uint32{0}, w(nil).u16(16384), 1)
	b.set(0x54, 1, col)

	fname := "Creature\\Fixture\\Fixture.blp\x00"
	var tex w
	tex = tex.u32(0, 3, uint32(len(fname)), b.block([]byte(fname)))
	tex = tex.u32(11, 0, 0, 0)
	b.set(0x5C, 2, tex)

	var tr w
	tr = b.track(tr, 1, -1, nil, []uint32{0, 999}, w(nil).u16(32767, 0), 2)
	tr = b.track(tr, 0, -1, nil, []uint32{0}, w(nil).u16(32767), 1)
	b.set(0x64, 2, tr)

	var ta w
	ta = b.track(ta, 1, -1, nil, []uint32{0, 999}, w(nil).f32(0, 0, 0, 1, 0, 0), 2)
	ta = emptyTrack(ta)
	ta = emptyTrack(ta)
	b.set(0x74, 1, ta)

	b.set(0x84, 3, w(nil).u16(RenderTwoSided, BlendOpaque, RenderUnlit|RenderNoDepthWrite, BlendAdd, RenderUnfogged, BlendMod2x))
	b.set(0x8C, 2, w(nil).u16(0, 1))      // bone lookup
	b.set(0x94, 2, w(nil).u16(0, 1))      // texture lookup
	b.set(0x9C, 2, w(nil).u16(0, 0xFFFF)) // texture coordinate lookup
	b.set(0xA4, 2, w(nil).u16(0, 1))      // transparency lookup
	b.set(0xAC, 2, w(nil).u16(0xFFFF, 0)) // texture animation lookup
	copy(b.hdr[0xB4:], w(nil).f32(0, 0, 0, 2, 1, 0, 1.2, -1, -1, -1, 3, 2, 1, 4))

	// A portrait camera (124 bytes): eye at base (5, 0, 1) plus an offset
	// track of spline keys (value, in, out tangents) moving it 1 up over
	// sequence 0, target (0, 0, 1), a constant roll.
	var cam w
	cam = cam.u32(0).f32(0.8, 100, 0.5)
	cam = b.track(cam, 1, -1, [][2]uint32{{0, 2}}, []uint32{0, 999},
		w(nil).f32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0), 2)
	cam = cam.f32(5, 0, 1)
	cam = emptyTrack(cam)
	cam = cam.f32(0, 0, 1)
	cam = b.track(cam, 0, -1, nil, []uint32{0}, w(nil).f32(0.25, 0, 0), 1)
	b.set(0x124, 1, cam)
	return b
}

func i16(v int16) uint16 { return uint16(v) }
