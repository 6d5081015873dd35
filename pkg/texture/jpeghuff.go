package texture

import "encoding/binary"

// The entropy-coded side of the fast BLP JPEG decoder (jpegdec.go): the
// bit reader and the Huffman tables.

// huffLookBits is how many bits the Huffman look-up tables index. Ten
// covers nearly every code in real streams and, for AC tables, most
// code-plus-value pairs too, while a table stays small (4 KiB); nine
// measured slower on the corpus, eleven no faster.
const huffLookBits = 10

// A look-up entry packs what the next huffLookBits bits decode to; zero
// means the code is longer than huffLookBits and the slow path decodes it.
//
//	bits 0-3    bits to consume: the code, or for a whole entry the code
//	            and the coefficient's extra bits
//	bits 4-7    the code's own length
//	bits 8-15   the symbol
//	bit 16      whole entry: bits 20-31 hold the coefficient (signed)
const (
	huffWhole    = 1 << 16
	huffValShift = 20
)

// huffTable is one DHT table, ready to decode.
type huffTable struct {
	look [1 << huffLookBits]int32
	// For codes longer than huffLookBits: maxCode[l] is the largest code
	// of length l (-1 when there is none), and a code c of length l is
	// symbol vals[c+valOff[l]].
	maxCode [17]int32
	valOff  [17]int32
	vals    [256]uint8
}

// build fills t from a DHT table's 16 code counts and its symbols. It
// refuses (false) a table whose counts assign more codes to a length than
// the length has room for: canonical decoding is not defined for those,
// and what a decoder makes of them is its own affair.
func (t *huffTable) build(counts []byte, syms []byte, ac bool) bool {
	*t = huffTable{}
	copy(t.vals[:], syms)
	code, k := int32(0), int32(0)
	for l := int32(1); l <= 16; l++ {
		n := int32(counts[l-1])
		if code+n > 1<<l {
			return false
		}
		t.maxCode[l] = -1
		if n > 0 {
			t.valOff[l] = k - code
			t.maxCode[l] = code + n - 1
		}
		for range n {
			if l <= huffLookBits {
				t.fill(code, l, t.vals[k], ac)
			}
			code++
			k++
		}
		code <<= 1
	}
	return true
}

// huffTables remembers built tables by their DHT bytes. A BLP's levels
// share one JPEG header, and files made by one tool share their tables,
// so most levels would otherwise build the same four 4 KiB look-up
// tables again, which costs more than decoding a small level. The tables
// are only read once built.
var huffTables = memo[huffKey, *huffTable]{max: 256}

// huffKey is a DHT table's bytes as a map key that costs no allocation to
// look up: the class (not the slot, which does not change the table), the
// 16 counts and the symbols, zero after the n used.
type huffKey struct {
	n int
	b [17 + 256]byte
}

// sharedHuffTable returns the table that DHT bytes spec (class and slot
// byte, 16 counts, symbols) build, or nil when build refuses them.
func sharedHuffTable(spec []byte) *huffTable {
	var k huffKey
	k.n = copy(k.b[:], spec)
	k.b[0] >>= 4
	return huffTables.get(k, func() *huffTable {
		t := new(huffTable)
		if !t.build(spec[1:17], spec[17:], k.b[0] == 1) {
			return nil
		}
		return t
	})
}

// fill writes the look-up entries of the code of length l for sym: every
// index whose first l bits are the code.
func (t *huffTable) fill(code, l int32, sym uint8, ac bool) {
	shift := huffLookBits - l
	first := code << shift
	for i := int32(0); i < 1<<shift; i++ {
		idx := first | i
		e := int32(sym)<<8 | l<<4 | l
		size := int32(sym & 15)
		if ac && size != 0 && l+size <= huffLookBits {
			// The coefficient's bits follow the code inside idx.
			v := (idx >> (huffLookBits - l - size)) & (1<<size - 1)
			v = extend(v, size)
			e = v<<huffValShift | huffWhole | int32(sym)<<8 | l<<4 | (l + size)
		}
		t.look[idx] = e
	}
}

// extend turns the size-bit value v (size 1-16) into the coefficient it
// codes: values with a clear top bit stand for negative numbers (T.81
// F.2.2.1, EXTEND).
func extend(v, size int32) int32 {
	if v < 1<<(size-1) {
		v += -1<<size + 1
	}
	return v
}

// bitReader reads the entropy-coded bytes of one scan interval, MSB first,
// undoing the 0xFF 0x00 stuffing. It stops at the first 0xFF that is not
// stuffing (a marker) or at the end of the data, and from then on feeds
// zero bits, counting them in pad; the caller checks overrun (more bits
// consumed than the data had) once per block, since a decoder that needs
// bits past a marker fails on that stream.
type bitReader struct {
	data []byte
	pos  int
	acc  uint64 // the next n bits, left-aligned
	n    int
	pad  int  // zero bits fed after the data ended
	end  bool // pos is at the marker (or the end) that ends the data
}

func (br *bitReader) reset(data []byte, pos int) {
	*br = bitReader{data: data, pos: pos}
}

// overrun reports whether more bits were consumed than the data held:
// n counts every bit fed (real and padding) minus those consumed.
func (br *bitReader) overrun() bool { return br.n < br.pad }

// Byte masks for finding a 0xFF among eight bytes.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// fill is refill for callers that keep acc and n in locals. Its common
// case, eight bytes ahead none of which is 0xFF, is small enough to be
// inlined.
func (br *bitReader) fill(acc uint64, n int) (uint64, int) {
	if p := br.pos; p+8 <= len(br.data) && !br.end {
		w := binary.BigEndian.Uint64(br.data[p:])
		// A byte of w is 0xFF exactly when the same byte of ^w is zero.
		if x := ^w; (x-lowBits)&^x&highBits == 0 {
			k := (64 - n) >> 3 // whole bytes that fit
			br.pos = p + k
			acc |= w >> n
			n += k << 3
			return acc &^ (^uint64(0) >> n), n // drop the bytes not taken
		}
	}
	br.acc, br.n = acc, n
	br.refill()
	return br.acc, br.n
}

// refill tops acc up to at least 57 bits, a byte at a time.
func (br *bitReader) refill() {
	for br.n <= 56 {
		var c byte
		switch {
		case br.end:
			br.pad += 8
		case br.pos >= len(br.data):
			br.end = true
			br.pad += 8
		case br.data[br.pos] != 0xff:
			c = br.data[br.pos]
			br.pos++
		case br.pos+1 < len(br.data) && br.data[br.pos+1] == 0:
			c = 0xff
			br.pos += 2
		default:
			br.end = true
			br.pad += 8
		}
		br.acc |= uint64(c) << (56 - br.n)
		br.n += 8
	}
}

// decodeSlow decodes a code longer than huffLookBits from the bit
// reader state acc, n (at least 16 bits in acc), or returns -1 for a bit
// pattern that is no code; it returns the state after the code. The
// decoders keep that state in locals in their hot loops, and hand it over
// here.
func (t *huffTable) decodeSlow(acc uint64, n int) (int32, uint64, int) {
	for l := huffLookBits + 1; l <= 16; l++ {
		code := int32(acc >> (64 - l))
		if code <= t.maxCode[l] {
			return int32(t.vals[(code+t.valOff[l])&0xff]), acc << uint(l), n - l
		}
	}
	return -1, acc, n
}
