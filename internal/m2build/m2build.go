// Package m2build writes M2 files by hand, field by field, from the layout
// of docs/formats.md#m2: a header of (count, offset) pairs with the blocks
// after it. The decoder's tests (pkg/m2) and the WoW render fixtures
// (pkg/render) build their files with it, so that they check the decoder
// against the document rather than against itself.
package m2build

import (
	"encoding/binary"
	"math"
)

// HeaderSize is the pre-Wrath header, up to and including the particle
// emitter pair at 0x13C.
const HeaderSize = 0x144

// W is a little-endian byte writer: each method appends its values.
type W []byte

// U8 appends bytes.
func (p W) U8(v ...uint8) W { return append(p, v...) }

// U16 appends 16-bit values.
func (p W) U16(vs ...uint16) W {
	for _, v := range vs {
		p = binary.LittleEndian.AppendUint16(p, v)
	}
	return p
}

// U32 appends 32-bit values.
func (p W) U32(vs ...uint32) W {
	for _, v := range vs {
		p = binary.LittleEndian.AppendUint32(p, v)
	}
	return p
}

// F32 appends float32 values.
func (p W) F32(vs ...float32) W {
	for _, v := range vs {
		p = binary.LittleEndian.AppendUint32(p, math.Float32bits(v))
	}
	return p
}

// Builder is an M2 file being written: its header (Hdr, which callers may
// also fill directly) and the blocks after it.
type Builder struct {
	Hdr  []byte
	data []byte
}

// New starts a file of the given version: "MD20", the version, and a
// zeroed header.
func New(version uint32) *Builder {
	b := &Builder{Hdr: make([]byte, HeaderSize)}
	copy(b.Hdr, "MD20")
	binary.LittleEndian.PutUint32(b.Hdr[4:], version)
	return b
}

// Block appends p after the header, 16-byte aligned as the game's files
// are, and returns its offset.
func (b *Builder) Block(p []byte) uint32 {
	for len(b.data)%16 != 0 {
		b.data = append(b.data, 0)
	}
	off := uint32(HeaderSize + len(b.data))
	b.data = append(b.data, p...)
	return off
}

// Array is the (count, offset) pair of an array of n records stored as p;
// an empty array is (0, 0) and stores nothing.
func (b *Builder) Array(n int, p []byte) W {
	if n == 0 {
		return W(nil).U32(0, 0)
	}
	return W(nil).U32(uint32(n), b.Block(p))
}

// Set stores the (count, offset) pair of an array of n records at the
// header offset at.
func (b *Builder) Set(at, n int, p []byte) { copy(b.Hdr[at:], b.Array(n, p)) }

// Bytes is the file: header, then blocks.
func (b *Builder) Bytes() []byte { return append(append([]byte(nil), b.Hdr...), b.data...) }

// Track appends a 28-byte pre-Wrath animation block to p: interpolation,
// global sequence (-1 for none), then the arrays of per-sequence ranges,
// times and nvalues values, which live in b's blocks.
func (b *Builder) Track(p W, interp uint16, gs int16, ranges [][2]uint32, times []uint32, values W, nvalues int) W {
	p = p.U16(interp, uint16(gs))
	var rb W
	for _, r := range ranges {
		rb = rb.U32(r[0], r[1])
	}
	p = append(p, b.Array(len(ranges), rb)...)
	p = append(p, b.Array(len(times), W(nil).U32(times...))...)
	return append(p, b.Array(nvalues, values)...)
}

// EmptyTrack appends an animation block with no keys and no global
// sequence.
func EmptyTrack(p W) W { return p.U16(0, 0xFFFF).U32(0, 0, 0, 0, 0, 0) }
