package m2

import (
	"encoding/binary"

	"github.com/mdxrender/mdxrender/internal/m2build"
)

// fixture builds a small model: 2 sequences, 2 bones (one animated, one
// with a global sequence), 6 vertices, two views (the second a coarser
// one), a view 0 with 2 submeshes and 3 texture units (two layers on
// submesh 0), 2 textures (a file and a replaceable), a colour, 2
// transparencies, a texture animation, 3 render flags and the lookups.
func fixture(v uint32) []byte { return fixtureBuilder(v).Bytes() }

// fixtureBuilder is fixture's builder, for fixtures that add to it.
func fixtureBuilder(v uint32) *m2build.Builder {
	b := m2build.New(v)
	name := "Fixture\x00"
	b.Set(0x08, len(name), []byte(name))
	binary.LittleEndian.PutUint32(b.Hdr[0x10:], 0)
	b.Set(0x14, 1, m2build.W(nil).U32(1000)) // global sequences

	var seqs m2build.W
	seqs = seqs.U16(0, 0).U32(0, 999).F32(0).U32(0x20).U16(32767, 0).U32(0, 0, 150).F32(-1, -1, 0, 1, 1, 2, 2).U16(0xFFFF, 0)
	seqs = seqs.U16(4, 1).U32(1000, 1999).F32(2.5).U32(0).U16(16384, 0).U32(1, 2, 0).F32(-1, -1, 0, 1, 1, 2, 2).U16(0xFFFF, 1)
	b.Set(0x1C, 2, seqs)

	// Bones: root with translation (linear) and rotation keys; child with
	// a scaling track on the global sequence.
	var bones m2build.W
	for i := 0; i < 2; i++ {
		bones = bones.U32(0xFFFFFFFF)
		if i == 0 {
			bones = bones.U32(0x8).U16(0xFFFF, 0)
		} else {
			bones = bones.U32(0x1).U16(0, 0)
		}
		if v >= 260 {
			bones = bones.U32(0xABCD)
		}
		if i == 0 {
			bones = b.Track(bones, 1, -1, [][2]uint32{{0, 2}, {2, 3}}, []uint32{0, 999, 1500},
				m2build.W(nil).F32(0, 0, 0, 0, 0, 1, 1, 0, 0), 3)
			if v >= 260 {
				// (v < 0: (v+32768)/32767, else (v-32767)/32767): x = -16384
				// is 0.50002, 32767 is 0, w = -4391 is 0.86603.
				bones = b.Track(bones, 1, -1, [][2]uint32{{0, 1}, {1, 1}}, []uint32{0},
					m2build.W(nil).U16(i16(-16384), 32767, 32767, i16(-4391)), 1)
			} else {
				bones = b.Track(bones, 1, -1, [][2]uint32{{0, 1}, {1, 1}}, []uint32{0},
					m2build.W(nil).F32(0.5, 0, 0, 0.8660254), 1)
			}
			bones = m2build.EmptyTrack(bones)
		} else {
			bones = m2build.EmptyTrack(bones)
			bones = m2build.EmptyTrack(bones)
			bones = b.Track(bones, 2, 0, nil, []uint32{0, 500},
				m2build.W(nil).F32(1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2, 0, 0, 0, 0, 0, 0), 6)
		}
		bones = bones.F32(0, 0, float32(i))
	}
	b.Set(0x34, 2, bones)

	var verts m2build.W
	for i := 0; i < 6; i++ {
		x, y := float32(i%3), float32(i/3)
		bi, bw := uint8(0), uint8(255)
		verts = verts.F32(x, y, 0).U8(bw, 0, 0, 0, bi, 0, 0, 0)
		if i == 5 {
			verts = verts[:len(verts)-8].U8(128, 127, 0, 0, 0, 1, 0, 0)
		}
		verts = verts.F32(0, 0, 1).F32(x/2, y).F32(0, 0)
	}
	b.Set(0x44, 6, verts)

	// View 0: all 6 vertices, 2 submeshes (triangles 0-1-3 and 1-2-4 /
	// 3-4-5 on the second), 3 texture units.
	view := func(lod uint32) m2build.W {
		var p m2build.W
		idx := m2build.W(nil).U16(0, 1, 2, 3, 4, 5)
		tri := m2build.W(nil).U16(0, 1, 3, 1, 2, 4, 3, 4, 5)
		props := make(m2build.W, 24)
		var sm m2build.W
		for k, r := range [][4]uint16{{0, 5, 0, 6}, {3, 3, 6, 3}} {
			sm = sm.U16(uint16(k)*100+1, 0, r[0], r[1], r[2], r[3], 1, 0, 1, 0).F32(1, 1, 0)
			if v >= 260 {
				sm = sm.F32(1, 1, 0, 2)
			}
		}
		var tu m2build.W
		// flags, priority, shader, submesh, geoset, color, renderflags,
		// layer, count, texcombo, coordcombo, transparency, texanim
		tu = tu.U8(16, 0).U16(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0)
		tu = tu.U8(16, 1).U16(0, 0, 0, 0xFFFF, 1, 1, 1, 1, 0, 1, 0)
		tu = tu.U8(16, 0).U16(0, 1, 1, 0xFFFF, 2, 0, 1, 1, 1, 0, 1)
		for _, a := range []struct {
			n int
			d m2build.W
		}{{6, idx}, {9, tri}, {6, props}, {2, sm}, {3, tu}} {
			p = p.U32(uint32(a.n), b.Block(a.d))
		}
		return p.U32(lod)
	}
	v0 := view(2)
	v1 := view(1)
	b.Set(0x4C, 2, append(v0, v1...))

	var col m2build.W
	col = b.Track(col, 1, -1, [][2]uint32{{0, 1}}, []uint32{0}, m2build.W(nil).F32(1, 0.5, 0.25), 1)
	col = b.Track(col, 0, -1, [][2]uint32{{0, 1}}, []uint32{0}, m2build.W(nil).U16(16384), 1)
	b.Set(0x54, 1, col)

	fname := "Creature\\Fixture\\Fixture.blp\x00"
	var tex m2build.W
	tex = tex.U32(0, 3, uint32(len(fname)), b.Block([]byte(fname)))
	tex = tex.U32(11, 0, 0, 0)
	b.Set(0x5C, 2, tex)

	var tr m2build.W
	tr = b.Track(tr, 1, -1, nil, []uint32{0, 999}, m2build.W(nil).U16(32767, 0), 2)
	tr = b.Track(tr, 0, -1, nil, []uint32{0}, m2build.W(nil).U16(32767), 1)
	b.Set(0x64, 2, tr)

	var ta m2build.W
	ta = b.Track(ta, 1, -1, nil, []uint32{0, 999}, m2build.W(nil).F32(0, 0, 0, 1, 0, 0), 2)
	ta = m2build.EmptyTrack(ta)
	ta = m2build.EmptyTrack(ta)
	b.Set(0x74, 1, ta)

	b.Set(0x84, 3, m2build.W(nil).U16(RenderTwoSided, BlendOpaque, RenderUnlit|RenderNoDepthWrite, BlendAdd, RenderUnfogged, BlendMod2x))
	b.Set(0x8C, 2, m2build.W(nil).U16(0, 1))      // bone lookup
	b.Set(0x94, 2, m2build.W(nil).U16(0, 1))      // texture lookup
	b.Set(0x9C, 2, m2build.W(nil).U16(0, 0xFFFF)) // texture coordinate lookup
	b.Set(0xA4, 2, m2build.W(nil).U16(0, 1))      // transparency lookup
	b.Set(0xAC, 2, m2build.W(nil).U16(0xFFFF, 0)) // texture animation lookup
	copy(b.Hdr[0xB4:], m2build.W(nil).F32(0, 0, 0, 2, 1, 0, 1.2, -1, -1, -1, 3, 2, 1, 4))

	// A portrait camera (124 bytes): eye at base (5, 0, 1) plus an offset
	// track of spline keys (value, in, out tangents) moving it 1 up over
	// sequence 0, target (0, 0, 1), a constant roll.
	var cam m2build.W
	cam = cam.U32(0).F32(0.8, 100, 0.5)
	cam = b.Track(cam, 1, -1, [][2]uint32{{0, 2}}, []uint32{0, 999},
		m2build.W(nil).F32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0), 2)
	cam = cam.F32(5, 0, 1)
	cam = m2build.EmptyTrack(cam)
	cam = cam.F32(0, 0, 1)
	cam = b.Track(cam, 0, -1, nil, []uint32{0}, m2build.W(nil).F32(0.25, 0, 0), 1)
	b.Set(0x124, 1, cam)
	return b
}

func i16(v int16) uint16 { return uint16(v) }
