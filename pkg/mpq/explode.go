package mpq

import "errors"

// PKWARE Data Compression Library ("implode") decoder, used by MPQ both
// through the IMPLODE block flag and through compression byte 0x08.
//
// The stream starts with two bytes: the literal mode (0: literals are plain
// bytes, 1: literals are Huffman coded) and the dictionary size as log2 - 6
// (4, 5 or 6). Then, read least significant bit first, each item is a flag
// bit followed by either a literal or a length/distance pair; a length of
// 519 ends the stream. The Huffman codes are fixed; they are given below as
// run-length coded code lengths (high nibble + 1 = repeat, low nibble =
// length), the compact form Mark Adler's blast.c uses.

var (
	dclLitLengths = []byte{
		11, 124, 8, 7, 28, 7, 188, 13, 76, 4, 10, 8, 12, 10, 12, 10, 8, 23, 8,
		9, 7, 6, 7, 8, 7, 6, 55, 8, 23, 24, 12, 11, 7, 9, 11, 12, 6, 7, 22, 5,
		7, 24, 6, 11, 9, 6, 7, 22, 7, 11, 38, 7, 9, 8, 25, 11, 8, 11, 9, 12,
		8, 12, 5, 38, 5, 38, 5, 11, 7, 5, 6, 21, 6, 10, 53, 8, 7, 24, 10, 27,
		44, 253, 253, 253, 252, 252, 252, 13, 12, 45, 12, 45, 12, 61, 12, 45,
		44, 173}
	dclLenLengths  = []byte{2, 35, 36, 53, 38, 23}
	dclDistLengths = []byte{2, 20, 53, 230, 247, 151, 248}
	dclLenBase     = [16]uint16{3, 2, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 40, 72, 136, 264}
	dclLenExtra    = [16]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}
)

// dclTable decodes one fixed code by table lookup on the next maxBits input
// bits. Each entry packs the symbol (high bits) and the code length (low 4
// bits); 0 marks a bit pattern that is no code.
type dclTable struct {
	maxBits uint
	entries []uint16
}

var dclLit, dclLen, dclDist = buildDCLTable(dclLitLengths), buildDCLTable(dclLenLengths), buildDCLTable(dclDistLengths)

// buildDCLTable expands the compact code lengths and assigns the codes:
// canonical codes (shorter first, in symbol order within a length), stored
// in the stream bit-inverted and first bit first.
func buildDCLTable(rep []byte) dclTable {
	var lengths []uint
	for _, r := range rep {
		for i := 0; i <= int(r>>4); i++ {
			lengths = append(lengths, uint(r&15))
		}
	}
	var maxBits uint
	var count [16]int
	for _, l := range lengths {
		count[l]++
		maxBits = max(maxBits, l)
	}
	count[0] = 0
	var next [16]int
	code := 0
	for l := 1; l < 16; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	t := dclTable{maxBits: maxBits, entries: make([]uint16, 1<<maxBits)}
	for sym, l := range lengths {
		if l == 0 {
			continue
		}
		c := next[l]
		next[l]++
		// Stream bit k is the inverse of code bit l-1-k.
		v := 0
		for k := uint(0); k < l; k++ {
			if (c>>(l-1-k))&1 == 0 {
				v |= 1 << k
			}
		}
		for x := v; x < len(t.entries); x += 1 << l {
			t.entries[x] = uint16(sym)<<4 | uint16(l)
		}
	}
	return t
}

var errDCLShort = errors.New("pkware: input ends before the end-of-stream code")

// dclBits reads the input least significant bit first. fill tops the
// buffer up once per item (an item takes at most 30 bits); take and decode
// then only check that enough bits are left, which fails near the end of a
// truncated stream.
type dclBits struct {
	in   []byte
	pos  int
	buf  uint64
	nbuf uint
}

func (b *dclBits) fill() {
	for b.nbuf <= 56 && b.pos < len(b.in) {
		b.buf |= uint64(b.in[b.pos]) << b.nbuf
		b.pos++
		b.nbuf += 8
	}
}

func (b *dclBits) take(n uint) (uint32, error) {
	if b.nbuf < n {
		return 0, errDCLShort
	}
	v := uint32(b.buf & (1<<n - 1))
	b.buf >>= n
	b.nbuf -= n
	return v, nil
}

func (b *dclBits) decode(t *dclTable) (int, error) {
	e := t.entries[b.buf&(1<<t.maxBits-1)]
	l := uint(e & 15)
	if e == 0 || l > b.nbuf {
		if e == 0 && b.nbuf >= t.maxBits {
			return 0, errors.New("pkware: invalid code")
		}
		return 0, errDCLShort
	}
	b.buf >>= l
	b.nbuf -= l
	return int(e >> 4), nil
}

// dclWindow is the largest dictionary; back-references reach at most this
// far, and before the start of the output they read zeros (the PKWARE
// library's window starts zeroed and Storm relies on it).
const dclWindow = 4096

// explode decodes a PKWARE DCL stream into dst and returns the number of
// bytes produced. Output beyond len(dst) is decoded and dropped, as the
// library does when its output callback is full; the stream must still
// reach its end code.
func explode(dst, src []byte) (int, error) { return explodeTo(dst, src, false) }

// explodeHead decodes the start of a PKWARE DCL stream into dst and stops
// once dst is full.
func explodeHead(dst, src []byte) (int, error) { return explodeTo(dst, src, true) }

// explodeTo is explode, or with head explodeHead.
func explodeTo(dst, src []byte, head bool) (int, error) {
	if len(src) <= 4 {
		return 0, errors.New("pkware: stream shorter than 5 bytes")
	}
	mode, dict := src[0], uint(src[1])
	if mode > 1 {
		return 0, errors.New("pkware: invalid literal mode")
	}
	if dict < 4 || dict > 6 {
		return 0, errors.New("pkware: invalid dictionary size")
	}
	br := dclBits{in: src[2:]}
	n := 0 // bytes produced so far, including dropped ones
	for {
		if head && n >= len(dst) {
			return len(dst), nil
		}
		if br.nbuf < 32 {
			br.fill()
		}
		flag, err := br.take(1)
		if err != nil {
			return 0, err
		}
		if flag == 0 {
			var lit int
			if mode == 1 {
				lit, err = br.decode(&dclLit)
			} else {
				var v uint32
				v, err = br.take(8)
				lit = int(v)
			}
			if err != nil {
				return 0, err
			}
			if n < len(dst) {
				dst[n] = byte(lit)
			}
			n++
			continue
		}
		sym, err := br.decode(&dclLen)
		if err != nil {
			return 0, err
		}
		extra, err := br.take(uint(dclLenExtra[sym]))
		if err != nil {
			return 0, err
		}
		length := int(dclLenBase[sym]) + int(extra)
		if length == 519 {
			return min(n, len(dst)), nil
		}
		dsym, err := br.decode(&dclDist)
		if err != nil {
			return 0, err
		}
		low := dict
		if length == 2 {
			low = 2
		}
		lo, err := br.take(low)
		if err != nil {
			return 0, err
		}
		dist := int(dsym)<<low | int(lo) + 1
		length = min(length, len(dst)-n)
		switch {
		case length <= 0:
			// Output is full: the copy is dropped.
		case dist <= n && dist >= length:
			copy(dst[n:n+length], dst[n-dist:])
			n += length
		default:
			// Byte by byte: an overlapping copy repeats the last bytes, and
			// before the start of the output it reads zeros.
			for k := 0; k < length; k++ {
				if s := n - dist; s >= 0 {
					dst[n] = dst[s]
				} else {
					dst[n] = 0
				}
				n++
			}
		}
	}
}
