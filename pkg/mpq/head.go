package mpq

import (
	"errors"

	"github.com/mdxrender/mdxrender/internal/mpqcrypt"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// The work Head may do on a sector, besides n: first headStep bytes read
// and decoded per stage, then, when that was not enough, headMax.
const (
	headStep = 64 << 10
	headMax  = 1 << 20
)

// Head returns the start of the file: its first n bytes, or all of it when
// it is shorter, but never more than its first sector holds (512 << the
// archive's sector size shift: 4 KiB in most maps; a file stored as a
// single unit is one sector). It is for sniffing a file's kind without
// paying for the file.
//
// Only the start of the first sector is read and decoded: zlib and bzip2
// streams are read until n bytes are out, the PKWARE, Huffman, ADPCM and
// sparse decoders stop once n bytes are out, and when a sector is
// compressed with several methods the earlier stages stop once they have
// given the last enough. Stored and encrypted sectors are read as far as
// n bytes reach. Whatever the file, Head reads at most 1 MiB of stored
// bytes and decodes at most 1 MiB in each stage, besides the n bytes it
// returns; a bzip2 stream costs its first block (at most 900 kB) to
// decode. A sector whose first n bytes cannot be had within that, which
// no real file is like, is refused with an *UnsupportedError.
//
// Head does not check the rest of the sector or of the file: a file whose
// later bytes are damaged has a head and fails a whole read. n is charged
// against nothing but is refused over the archive's read limit.
func (f *File) Head(n int) ([]byte, error) {
	st, err := f.prepareSectors(1)
	if err != nil {
		return nil, err
	}
	if n <= 0 || st.size == 0 {
		return []byte{}, nil
	}
	exp := int(st.expected(0))
	want := min(n, exp)
	if err := f.a.lim.Check(budget.ReadBytes, int64(want), archiveShown(f.a.name)+":"+nameShown(f.label()), "reading the start of the file"); err != nil {
		return nil, err
	}
	rel, rawLen := st.rawRange(0)
	compressed := st.flags&(FlagCompress|FlagImplode) != 0
	if !compressed || rawLen >= uint64(exp) {
		// Stored, or a sector that did not get smaller (stored too, as
		// Storm decides by size alone).
		if compressed && st.flags&FlagSingleUnit != 0 && rawLen > uint64(exp) {
			return nil, f.formatErr(st.a.dataOffset(st.base), "compressed size %d is larger than the file's size %d", rawLen, exp)
		}
		raw, err := st.headRaw(rel, rawLen, want)
		if err != nil {
			return nil, err
		}
		return raw[:want], nil
	}
	if rawLen == 0 {
		return make([]byte, want), nil
	}
	for _, limit := range []int{headStep, headMax} {
		limit += 4 * want
		raw, err := st.headRaw(rel, rawLen, limit)
		if err != nil {
			return nil, err
		}
		out, err := st.headDecode(raw, uint64(len(raw)) < rawLen, want, limit)
		if err != errHeadShort {
			return out, err
		}
	}
	return nil, f.unsupported("first sector whose first %d bytes take more than %d bytes to decode", want, headMax+4*want)
}

// errHeadShort reports that a head was decoded from less than all of the
// sector and that more might decode it.
var errHeadShort = errors.New("the head needs more of the sector")

// headRaw reads the first min(n, rawLen) stored bytes of sector 0 (at rel,
// rawLen bytes long) and decrypts them. Cut short, it reads whole words,
// so that they decrypt as in a read of the whole sector.
func (st *fileState) headRaw(rel, rawLen uint64, n int) ([]byte, error) {
	k := rawLen
	if uint64(n) < k {
		k = min(rawLen, (uint64(n)+3)&^3)
	}
	raw := make([]byte, k)
	if err := st.readRaw(raw, rel); err != nil {
		return nil, err
	}
	if st.flags&FlagEncrypted != 0 {
		mpqcrypt.Decrypt(raw, st.key)
	}
	return raw, nil
}

// headDecode decodes the first want bytes of compressed sector 0 from raw,
// its stored bytes or (truncated) their start, each stage producing at
// most limit bytes. It returns errHeadShort when a stage ran out of cut
// input before it had produced what it had to.
func (st *fileState) headDecode(raw []byte, truncated bool, want, limit int) ([]byte, error) {
	exp := int(st.expected(0))
	mask, names := Imploded, []Compression{CompressionPKWare}
	in := raw
	if st.flags&FlagCompress != 0 {
		var err error
		if st.a.header.Format == 0 {
			mask, names, err = stagesGeneric(raw[0])
		} else {
			mask, names, err = stagesFixed(raw[0])
		}
		if err == nil {
			err = checkStages(mask, names)
		}
		if err != nil {
			return nil, st.sectorErr(0, raw[0], err)
		}
		in = raw[1:]
	}
	var out []byte
	for i, m := range names {
		size := min(limit, exp)
		if i == len(names)-1 {
			size = want
		}
		out = make([]byte, size)
		n, decided, err := headStage(m, out, in, exp)
		if truncated && (err != nil || decided < size) {
			return nil, errHeadShort
		}
		if err == nil && n == 0 && mask != Imploded {
			err = errors.New(m.String() + " produced no data")
		}
		if err != nil {
			return nil, st.sectorErr(0, raw[0], stageErr(mask, m, err))
		}
		// A stage stopped at its size may have had more to give.
		truncated = n == size && size < exp
		out = out[:n]
		in = out
	}
	// A stream that ends early leaves the rest zero, as in a whole read.
	head := out[:want:want]
	clear(head[len(out):])
	return head, nil
}

// headStage runs one method over src into dst, stopping once dst is full.
// capacity is what the method's output may hold in a whole read. It
// returns the bytes produced and how many of them src decided (all but
// the zeros sparse fills in after its input).
func headStage(m Compression, dst, src []byte, capacity int) (n, decided int, err error) {
	switch m {
	case CompressionZlib:
		n, err = inflateHead(dst, src)
	case CompressionPKWare:
		n, err = explodeHead(dst, src)
	case CompressionSparse:
		return sparse(dst, src, capacity)
	case CompressionADPCMMono, CompressionADPCMStereo:
		// ADPCM writes whole 16-bit samples: an odd head is cut from one
		// byte more, where the sector has room for it.
		if len(dst)%2 == 1 && len(dst) < capacity {
			buf := make([]byte, len(dst)+1)
			n, err = stageFor(m)(buf, src)
			n = copy(dst, buf[:n])
			return n, n, err
		}
		n, err = stageFor(m)(dst, src)
	default:
		// bzip2 and Huffman stop when dst is full.
		n, err = stageFor(m)(dst, src)
	}
	return n, n, err
}
