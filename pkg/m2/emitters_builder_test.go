package m2

import (
	"math"

	"github.com/mdxrender/mdxrender/internal/m2build"
)

// emitterFixture is fixture with the emitter blocks of
// docs/formats.md#m2-particle-and-ribbon-emitters: three particle emitters
// (a plane on bone 0 with an animated emission rate, a sphere on bone 1
// with compressed gravity, a spline with four points) and a ribbon on
// bone 1, written field by field from the document's layout.
func emitterFixture(v uint32) []byte {
	b := fixtureBuilder(v)
	var ps m2build.W
	ps = append(ps, particleRecord(b, v, particleSpec{
		flags: 0x10, bone: 0, texture: 0, blend: BlendAddAlpha, emitterType: 1, colorIndex: 11, particleType: 2,
		rotation: 1, rows: 2, cols: 4, rateKeys: []float32{10, 20}, gravity: math.Float32bits(9.8), model: "Spawn.mdx",
	})...)
	ps = append(ps, particleRecord(b, v, particleSpec{
		flags: 0x800000, bone: 1, texture: 1, blend: BlendAdd, emitterType: 2, particleType: 0, rows: 1, cols: 1,
		rateKeys: []float32{5}, gravity: compressedGravity(64, 0, -100),
	})...)
	ps = append(ps, particleRecord(b, v, particleSpec{
		bone: 1, texture: 0, blend: BlendAlpha, emitterType: 3, particleType: 1, rows: 1, cols: 1,
		rateKeys: []float32{30}, spline: []float32{0, 0, 0, 1, 0, 0, 2, 1, 0, 3, 1, 1},
	})...)
	b.Set(0x13C, 3, ps)

	var r m2build.W
	r = r.U32(0xFFFFFFFF, 1).F32(0, 0.5, 1)
	r = r.U32(1, b.Block(m2build.W(nil).U16(1)))
	r = r.U32(1, b.Block(m2build.W(nil).U16(1)))
	r = b.Track(r, 1, -1, [][2]uint32{{0, 2}}, []uint32{0, 999}, m2build.W(nil).F32(1, 0, 0, 0, 0, 1), 2)
	r = b.Track(r, 0, -1, nil, []uint32{0}, m2build.W(nil).U16(16384), 1)
	r = b.Track(r, 0, -1, nil, []uint32{0}, m2build.W(nil).F32(0.75), 1)
	r = b.Track(r, 0, -1, nil, []uint32{0}, m2build.W(nil).F32(0.25), 1)
	r = r.F32(30, 0.5, -1).U16(1, 2)
	r = b.Track(r, 0, -1, nil, []uint32{0}, m2build.W(nil).U16(1), 1)
	r = b.Track(r, 0, -1, nil, []uint32{0, 500}, m2build.W(nil).U8(1, 0), 2)
	b.Set(0x134, 1, r)
	return b.Bytes()
}

// particleSpec is what emitterFixture varies between particle emitters.
type particleSpec struct {
	flags              uint32
	bone, texture      uint16
	blend, emitterType uint16
	colorIndex         uint16
	particleType       uint8
	rotation           int16
	rows, cols         uint16
	rateKeys           []float32 // one key per 500 ms
	gravity            uint32    // the value's bits
	spline             []float32 // x, y, z per point
	model              string
}

// particleRecord writes one 504-byte particle emitter record.
func particleRecord(b *m2build.Builder, v uint32, s particleSpec) m2build.W {
	var p m2build.W
	p = p.U32(0xFFFFFFFF, s.flags).F32(0.5, 0, 1).U16(s.bone, s.texture)
	if s.model != "" {
		p = p.U32(uint32(len(s.model)+1), b.Block([]byte(s.model+"\x00")))
	} else {
		p = p.U32(0, 0)
	}
	p = p.U32(0, 0) // recursion model
	if v >= particleByteFields {
		p = p.U8(uint8(s.blend), uint8(s.emitterType)).U16(s.colorIndex)
	} else {
		p = p.U16(s.blend, s.emitterType)
	}
	p = p.U8(s.particleType, 0).U16(uint16(s.rotation)).U16(s.rows, s.cols)
	one := func(p m2build.W, v float32) m2build.W {
		return b.Track(p, 0, -1, nil, []uint32{0}, m2build.W(nil).F32(v), 1)
	}
	p = one(p, 2)    // speed
	p = one(p, 0.1)  // variation
	p = one(p, 0.5)  // vertical range
	p = one(p, 3.14) // horizontal range
	p = b.Track(p, 0, -1, nil, []uint32{0}, m2build.W(nil).U32(s.gravity), 1)
	p = one(p, 1.5) // lifespan
	times := make([]uint32, len(s.rateKeys))
	for i := range times {
		times[i] = uint32(500 * i)
	}
	p = b.Track(p, 1, -1, [][2]uint32{{0, uint32(len(times))}}, times, m2build.W(nil).F32(s.rateKeys...), len(times))
	p = one(p, 1) // area length
	p = one(p, 2) // area width
	p = one(p, 0) // z source
	// mid point, colours (B, G, R, A), scales, cells, tail length, twinkle,
	// burst, drag, spin, tumble, wind, wind time, follow.
	p = p.F32(0.25).U8(0, 0, 255, 0, 0, 255, 255, 128, 255, 255, 255, 0).F32(0.1, 0.2, 0.05)
	p = p.U16(0, 3, 1, 4, 7, 2).U16(1, 2, i16(-1), 5)
	p = p.F32(0.5, 10, 1, 1, 1.5, 1, 0.5, 0.25).F32(0, 0, 0, 0, 0, 0).F32(0, 0, -1, 2).F32(2.5, 0.7, 7, 0.9)
	if n := len(s.spline) / 3; n > 0 {
		p = p.U32(uint32(n), b.Block(m2build.W(nil).F32(s.spline...)))
	} else {
		p = p.U32(0, 0)
	}
	return b.Track(p, 0, -1, nil, []uint32{0}, m2build.W(nil).U8(1), 1) // enabled
}

// compressedGravity packs a gravity vector as the record stores it with
// the compressed-gravity flag.
func compressedGravity(x, y int8, z int16) uint32 {
	return uint32(uint8(x)) | uint32(uint8(y))<<8 | uint32(uint16(z))<<16
}
