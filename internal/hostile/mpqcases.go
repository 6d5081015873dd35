package hostile

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/mdxrender/mdxrender/internal/mpqcrypt"
)

// The bzip2 sector method byte.
const mpqBzip2 = 0x10

// TinyNames returns a (listfile) of n names of one letter each ("a" to
// "z" over and over, one per line): a list that costs a reader one name
// per two bytes and compresses about a thousand to one.
func TinyNames(n int) []byte {
	out := make([]byte, 2*n)
	for i := range n {
		out[2*i] = 'a' + byte(i%26)
		out[2*i+1] = '\n'
	}
	return out
}

// MPQListfileBomb is an archive whose (listfile), stored as zlib sectors
// of 512 << shift bytes, holds TinyNames(names), and which has one other
// file, "a", which the list names.
func MPQListfileBomb(shift uint16, names int) []byte {
	return MPQ(shift, []MPQBlock{
		{Data: TinyNames(names), Sectors: true},
		{Data: []byte("the one listed file")},
	}, []MPQName{{"(listfile)", 0}, {"a", 1}})
}

// MPQManyNames is an archive of one small stored file that n names stand
// for, each its own hash table entry, and a (listfile) naming them all:
// "name0", "name1", ..., each followed by depth times `\x`, so that every
// name is a chain of depth folders of its own.
func MPQManyNames(n, depth int) []byte {
	names := make([]MPQName, 0, n+1)
	var list bytes.Buffer
	tail := strings.Repeat(`\x`, depth)
	for i := range n {
		name := fmt.Sprintf("name%d", i) + tail
		names = append(names, MPQName{name, 0})
		list.WriteString(name + "\n")
	}
	names = append(names, MPQName{"(listfile)", 1})
	return MPQ(3, []MPQBlock{
		{Data: []byte("one block behind every name")},
		{Data: list.Bytes(), Sectors: true},
	}, names)
}

// MPQUnnamed is an archive of n entries that no list names, each its own
// block holding raw (the caller's encoded sectors: a sector offset table
// and sectors with their method bytes) and declaring size bytes, with
// block flags exists and compress. shift is the sector size shift.
func MPQUnnamed(shift uint16, n int, raw []byte, size uint32) []byte {
	blocks := make([]MPQBlock, n)
	names := make([]MPQName, n)
	for i := range n {
		blocks[i] = MPQBlock{Raw: raw, Size: size, Flags: mpqFlagExists | mpqFlagCompress}
		names[i] = MPQName{fmt.Sprintf("unnamed%d.bin", i), i}
	}
	return MPQ(shift, blocks, names)
}

// Bzip2Sector is one MPQ sector holding n bytes of value b as a bzip2
// stream: the method byte, then Bzip2Run(b, n).
func Bzip2Sector(b byte, n int) []byte {
	return append([]byte{mpqBzip2}, Bzip2Run(b, n)...)
}

// Bzip2Run returns a bzip2 stream (level 9) that decodes to n bytes of
// value b, encoded the way bzip2 itself encodes a run: four bytes and a
// repeat count for every 255 bytes, so that 32 MiB fit in one block of
// about 650 kB, which compresses to a few dozen bytes. Standard library Go
// has no bzip2 writer, and this is the one input the hostile cases need.
func Bzip2Run(b byte, n int) []byte {
	w := &bitWriter{}
	w.bytes([]byte("BZh9"))
	var combined uint32
	const perChunk = 4 + 251 // bytes of output per "b b b b 251"
	// bzip2 blocks hold at most 900,000 - 19 bytes once run-length coded.
	const maxChunks = (900000 - 19) / 5
	for n > 0 {
		var crc uint32
		switch {
		case n >= perChunk:
			k := min(n/perChunk, maxChunks)
			crc = bzip2CRCRun(b, k*perChunk)
			bzip2Block(w, crc, b, 251, k)
			n -= k * perChunk
		case n >= 4:
			crc = bzip2CRCRun(b, n)
			bzip2Block(w, crc, b, byte(n-4), 1)
			n = 0
		default:
			crc = bzip2CRCRun(b, n)
			bzip2Uniform(w, crc, b, n)
			n = 0
		}
		combined = (combined<<1 | combined>>31) ^ crc
	}
	w.bits(0x177245, 24)
	w.bits(0x385090, 24)
	w.bits(uint64(combined), 32)
	return w.flush()
}

// bzip2Block writes a block whose run-length coded form is k copies of
// "b b b b c". The rotations of u = b⁴c sort as u's rotations each
// repeated k times, so the block's BWT is BWT(u) with every byte repeated
// k times: c then b⁴ when c > b (u itself sorts first), b⁴ then c when c <
// b (u sorts last), and b⁵ when c == b.
func bzip2Block(w *bitWriter, crc uint32, b, c byte, k int) {
	var runs []bzRun
	var origPtr int
	switch {
	case c > b:
		runs, origPtr = []bzRun{{c, k}, {b, 4 * k}}, 0
	case c < b:
		runs, origPtr = []bzRun{{b, 4 * k}, {c, k}}, 5*k-1
	default:
		runs, origPtr = []bzRun{{b, 5 * k}}, 0
	}
	bzip2Write(w, crc, origPtr, runs)
}

// bzip2Uniform writes a block of n (1-3) bytes b, too few to be run-length
// coded; its BWT is itself.
func bzip2Uniform(w *bitWriter, crc uint32, b byte, n int) {
	bzip2Write(w, crc, 0, []bzRun{{b, n}})
}

// bzRun is a run of one byte in a block's BWT.
type bzRun struct {
	b byte
	n int
}

// bzip2Write writes one block: its header, the symbol map, two identical
// Huffman tables that give every symbol a code of about the same length
// (enough: the data is a handful of symbols), and the BWT (given as runs)
// move-to-front and zero-run coded.
func bzip2Write(w *bitWriter, crc uint32, origPtr int, runs []bzRun) {
	// The bytes used, in order, are the move-to-front list's start.
	var used [256]bool
	for _, r := range runs {
		used[r.b] = true
	}
	var mtf []byte
	for i := range used {
		if used[i] {
			mtf = append(mtf, byte(i))
		}
	}
	eob := uint16(len(mtf) + 1)
	var syms []uint16
	zeros := 0
	flushZeros := func() {
		// Zero runs are written in bijective base 2 with RUNA (0) and
		// RUNB (1), least significant digit first.
		if zeros == 0 {
			return
		}
		z := zeros - 1
		for {
			syms = append(syms, uint16(z&1))
			if z < 2 {
				break
			}
			z = (z - 2) / 2
		}
		zeros = 0
	}
	for _, r := range runs {
		i := bytes.IndexByte(mtf, r.b)
		if i == 0 {
			zeros += r.n
			continue
		}
		flushZeros()
		syms = append(syms, uint16(i+1))
		copy(mtf[1:i+1], mtf[:i])
		mtf[0] = r.b
		zeros += r.n - 1
	}
	flushZeros()
	syms = append(syms, eob)

	w.bits(0x314159, 24)
	w.bits(0x265359, 24)
	w.bits(uint64(crc), 32)
	w.bits(0, 1) // not randomised
	w.bits(uint64(origPtr), 24)
	var ranges uint64
	for i := range 16 {
		for j := range 16 {
			if used[i*16+j] {
				ranges |= 1 << (15 - i)
			}
		}
	}
	w.bits(ranges, 16)
	for i := range 16 {
		if ranges&(1<<(15-i)) == 0 {
			continue
		}
		var m uint64
		for j := range 16 {
			if used[i*16+j] {
				m |= 1 << (15 - j)
			}
		}
		w.bits(m, 16)
	}
	alpha := int(eob) + 1
	lengths, codes := bzip2Codes(alpha)
	const groups = 2
	selectors := (len(syms) + 49) / 50
	w.bits(groups, 3)
	w.bits(uint64(selectors), 15)
	for range selectors {
		w.bits(0, 1) // table 0, move-to-front coded: a lone 0 bit
	}
	for range groups {
		cur := lengths[0]
		w.bits(uint64(cur), 5)
		for _, l := range lengths {
			for cur < l {
				w.bits(2, 2) // "10": one longer
				cur++
			}
			for cur > l {
				w.bits(3, 2) // "11": one shorter
				cur--
			}
			w.bits(0, 1)
		}
	}
	for _, s := range syms {
		w.bits(uint64(codes[s]), uint(lengths[s]))
	}
}

// bzip2Codes gives alpha symbols a complete prefix code (2^d - alpha
// symbols of d-1 bits, the rest of d bits, d = ceil(log2 alpha)) and
// assigns the codes the canonical way bzip2 does: shorter codes first,
// in symbol order within a length.
func bzip2Codes(alpha int) ([]int, []uint32) {
	d := 1
	for 1<<d < alpha {
		d++
	}
	lengths := make([]int, alpha)
	short := 1<<d - alpha
	for i := range lengths {
		if i < short {
			lengths[i] = d - 1
		} else {
			lengths[i] = d
		}
	}
	codes := make([]uint32, alpha)
	code := uint32(0)
	for l := 1; l <= d; l++ {
		for i, li := range lengths {
			if li == l {
				codes[i] = code
				code++
			}
		}
		code <<= 1
	}
	return lengths, codes
}

// bzip2CRCRun is bzip2's CRC (CRC-32 with the polynomial 0x04C11DB7, most
// significant bit first) of n bytes of value b.
func bzip2CRCRun(b byte, n int) uint32 {
	crc := ^uint32(0)
	for range n {
		crc = bzip2CRCTable[byte(crc>>24)^b] ^ crc<<8
	}
	return ^crc
}

var bzip2CRCTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// bitWriter writes bits most significant first, as bzip2 reads them.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	for n > 0 {
		take := min(n, 32)
		n -= take
		w.acc = w.acc<<take | (v>>n)&(1<<take-1)
		w.nacc += take
		for w.nacc >= 8 {
			w.nacc -= 8
			w.out = append(w.out, byte(w.acc>>w.nacc))
		}
	}
}

func (w *bitWriter) bytes(b []byte) {
	for _, c := range b {
		w.bits(uint64(c), 8)
	}
}

// flush pads the last byte with zero bits and returns the stream.
func (w *bitWriter) flush() []byte {
	if w.nacc > 0 {
		w.bits(0, 8-w.nacc)
	}
	return w.out
}

// MPQCompressedTable is a format-4 archive holding one stored file, "a",
// whose hash table declares entries entries (a power of two, at least 16)
// and is stored zlib-compressed, as format 4 allows: a declared size that
// nothing in the file backs (16 MiB for entries = 1<<20, in a few kB).
func MPQCompressedTable(entries uint32) []byte {
	const headerSize = 0xD0
	data := []byte("hello")
	hash := bytes.Repeat([]byte{0xFF}, int(entries)*16)
	slot := mpqcrypt.Hash("a", mpqcrypt.TableIndex) & (entries - 1)
	e := hash[slot*16:]
	binary.LittleEndian.PutUint32(e, mpqcrypt.Hash("a", mpqcrypt.NameA))
	binary.LittleEndian.PutUint32(e[4:], mpqcrypt.Hash("a", mpqcrypt.NameB))
	binary.LittleEndian.PutUint32(e[8:], 0)
	binary.LittleEndian.PutUint32(e[12:], 0)
	var z bytes.Buffer
	z.WriteByte(mpqZlib)
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	w.Write(hash)
	w.Close()
	stored := z.Bytes()
	mpqcrypt.Encrypt(stored, mpqcrypt.HashTableKey)
	block := make([]byte, 16)
	binary.LittleEndian.PutUint32(block, headerSize)
	binary.LittleEndian.PutUint32(block[4:], uint32(len(data)))
	binary.LittleEndian.PutUint32(block[8:], uint32(len(data)))
	binary.LittleEndian.PutUint32(block[12:], mpqFlagExists)
	mpqcrypt.Encrypt(block, mpqcrypt.BlockTableKey)

	out := make([]byte, headerSize)
	out = append(out, data...)
	hashPos := len(out)
	out = append(out, stored...)
	blockPos := len(out)
	out = append(out, block...)
	h := out[:headerSize]
	le := binary.LittleEndian
	copy(h, "MPQ\x1a")
	le.PutUint32(h[4:], headerSize)
	le.PutUint32(h[8:], uint32(len(out)))
	le.PutUint16(h[12:], 3) // format 4
	le.PutUint16(h[14:], 3)
	le.PutUint32(h[16:], uint32(hashPos))
	le.PutUint32(h[20:], uint32(blockPos))
	le.PutUint32(h[24:], entries)
	le.PutUint32(h[28:], 1)
	le.PutUint64(h[44:], uint64(len(out)))    // archive size
	le.PutUint64(h[68:], uint64(len(stored))) // hash table as stored
	le.PutUint64(h[76:], uint64(len(block)))  // block table as stored
	sum := md5.Sum(h[:0xC0])                  // the header's own MD5,
	copy(h[0xC0:], sum[:])                    // without which it is skipped as fake
	return out
}
