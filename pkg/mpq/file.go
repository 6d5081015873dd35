package mpq

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/mdxrender/mdxrender/internal/mpqcrypt"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// File is one entry of an archive: a hash table entry and the block it
// points at.
type File struct {
	// Name is the file's name as the archive spells it (from a listfile,
	// war3map.imp or the standard names), or as the caller gave it to
	// Lookup; "" when no known name hashes to this entry.
	Name string
	// Locale is the entry's language id (0 = neutral, 0x409 = en-US, ...),
	// Platform the byte beside it that Warcraft III ignores.
	Locale   uint16
	Platform uint16
	// BlockIndex and HashIndex locate the entry in the archive's tables.
	BlockIndex int
	HashIndex  int
	// Offset is where the file's data starts in the archive file.
	Offset int64
	// CompressedSize is the size the block table gives for the stored
	// data; Size is the file's size once read.
	CompressedSize int64
	Size           int64
	// Flags are the block flags this reader acts on (Flag*); StoredFlags
	// are the flags as stored, before those unknown to this kind of archive
	// were cleared.
	Flags       uint32
	StoredFlags uint32

	a *Archive
}

// Open returns a reader over the file's contents, decoded one sector at a
// time. Reading an encrypted file needs its name, except for compressed
// sectored files, whose key can be recovered from their sector table.
func (f *File) Open() (io.ReadCloser, error) {
	st, err := f.prepare()
	if err != nil {
		return nil, err
	}
	return &fileReader{st: st, cur: -1}, nil
}

// ReadAll returns the file's whole contents. A file whose size is over the
// archive's read limit (the ReadBytes of the Limits it was opened with) is
// refused with a *budget.Error before anything is read; Open streams it.
func (f *File) ReadAll() ([]byte, error) { return f.readAll() }

func (f *File) readAll() ([]byte, error) {
	if err := f.checkReadLimit("reading the whole file"); err != nil {
		return nil, err
	}
	st, err := f.prepare()
	if err != nil {
		return nil, err
	}
	out := make([]byte, f.Size)
	if err := st.decodeAll(out); err != nil {
		return nil, err
	}
	return out, nil
}

// checkReadLimit refuses a file whose declared size is over the archive's
// read limit, naming it "archive:name" as the budget's errors do.
func (f *File) checkReadLimit(what string) error {
	return f.a.lim.Check(budget.ReadBytes, f.Size, archiveShown(f.a.name)+":"+nameShown(f.label()), what)
}

// label names the file in errors: its name, or its block index.
func (f *File) label() string {
	if f.Name != "" {
		return f.Name
	}
	return fmt.Sprintf("block %d", f.BlockIndex)
}

// Compressions reports how the file's sectors are stored: the distinct
// encodings in the order they first occur. It reads the sector table and
// the first word of every sector, not the data, in windows of 64 KiB.
// Entries whose blocks point at the same stored bytes (which a hostile
// archive can repeat a million times) share one answer.
func (f *File) Compressions() ([]Compression, error) {
	b := &f.a.blocks[f.BlockIndex]
	key := compKey{off: f.a.dataOffset(b.pos), csize: b.csize, fsize: b.fsize, flags: b.flags}
	if b.flags&FlagEncrypted != 0 {
		key.name = f.Name // the name makes the key
	}
	if v, ok := f.a.comps.Load(key); ok {
		r := v.(compResult)
		return slices.Clone(r.c), f.relabel(r.err)
	}
	c, err := f.compressions()
	f.a.comps.Store(key, compResult{c, err})
	return slices.Clone(c), err
}

// compKey is what Compressions' answer depends on.
type compKey struct {
	off                 int64
	csize, fsize, flags uint32
	name                string
}

type compResult struct {
	c   []Compression
	err error
}

// relabel returns err, from a read of the same bytes under another name,
// as an error about f.
func (f *File) relabel(err error) error {
	var fe *FormatError
	var ue *UnsupportedError
	switch {
	case errors.As(err, &fe):
		g := *fe
		g.File = f.label()
		return &g
	case errors.As(err, &ue):
		g := *ue
		g.File = f.label()
		return &g
	}
	return err
}

func (f *File) compressions() ([]Compression, error) {
	st, err := f.prepare()
	if err != nil {
		return nil, err
	}
	var out []Compression
	add := func(c Compression) {
		for _, d := range out {
			if d == c {
				return
			}
		}
		out = append(out, c)
	}
	if st.size == 0 {
		return nil, nil
	}
	if st.flags&(FlagCompress|FlagImplode) == 0 {
		return []Compression{Stored}, nil
	}
	// The first words are read through a window of the stored bytes, not
	// one read per sector: a file can have millions of sectors.
	lastOff, lastLen := st.rawRange(st.nsect - 1)
	end := lastOff + lastLen
	var window []byte
	var wStart uint64
	for i := 0; i < st.nsect; i++ {
		exp := st.expected(i)
		rawOff, rawLen := st.rawRange(i)
		switch {
		case rawLen >= uint64(exp):
			add(Stored)
		case st.flags&FlagCompress == 0:
			add(Imploded)
		case rawLen == 0:
			add(Stored)
		default:
			var w [4]byte
			n := min(rawLen, 4)
			if rawOff < wStart || rawOff+n > wStart+uint64(len(window)) {
				wStart = rawOff
				window = st.window(window, rawOff, end, n)
				if window == nil {
					// Past the end of the archive: the error names the sector.
					return out, st.readRaw(w[:n], rawOff)
				}
			}
			copy(w[:n], window[rawOff-wStart:])
			if st.flags&FlagEncrypted != 0 {
				mpqcrypt.Decrypt(w[:n], st.key+uint32(i))
			}
			c := Compression(w[0])
			if c == lzmaByte && st.a.header.Format > 0 {
				c = CompressionLZMA
			}
			add(c)
		}
	}
	return out, nil
}

// window reads up to 64 KiB of the stored bytes from rel, no further than
// end or the end of the archive, into buf's storage; nil when fewer than
// need bytes are there.
func (st *fileState) window(buf []byte, rel, end, need uint64) []byte {
	off := st.a.dataOffset(st.base + rel)
	if off >= st.a.size {
		return nil
	}
	n := min(64<<10, end-rel, uint64(st.a.size-off))
	if n < need {
		return nil
	}
	if uint64(cap(buf)) < n {
		buf = make([]byte, 64<<10)
	}
	buf = buf[:n]
	if st.readRaw(buf, rel) != nil {
		return nil
	}
	return buf
}

// fileState is everything needed to decode a file's sectors.
type fileState struct {
	f          *File
	a          *Archive
	flags      uint32
	size       uint32
	key        uint32
	sectorSize uint32 // bytes per sector; the file's size for a single unit
	nsect      int
	offsets    []uint32 // sector offset table of compressed sectored files
	base       uint64   // block position relative to the MPQ header
}

func (f *File) formatErr(off int64, format string, args ...any) *FormatError {
	return &FormatError{Archive: f.a.name, File: f.label(), Offset: off, Reason: fmt.Sprintf(format, args...)}
}

func (f *File) unsupported(format string, args ...any) *UnsupportedError {
	return &UnsupportedError{Archive: f.a.name, File: f.label(), What: fmt.Sprintf(format, args...)}
}

// prepare checks the block against the file, derives the key and loads the
// sector offset table.
func (f *File) prepare() (*fileState, error) { return f.prepareSectors(-1) }

// prepareSectors is prepare loading the offsets of the first k sectors
// only (all when k < 0): what reading the start of a file needs, however
// long its table.
func (f *File) prepareSectors(k int) (*fileState, error) {
	a := f.a
	b := &a.blocks[f.BlockIndex]
	st := &fileState{f: f, a: a, flags: b.flags, size: b.fsize, base: b.pos}
	if st.size == 0 {
		return st, nil
	}
	if st.flags&FlagPatchFile != 0 {
		return nil, f.unsupported("incremental patch file")
	}
	compressed := st.flags&(FlagCompress|FlagImplode) != 0
	keyKnown := true
	if st.flags&FlagEncrypted != 0 {
		if f.Name != "" {
			st.key = fileKey(f.Name, b.pos, b.fsize, st.flags)
		} else {
			keyKnown = false
		}
	}
	if st.flags&FlagSingleUnit != 0 {
		st.sectorSize, st.nsect = st.size, 1
		if st.size > maxSectorBytes {
			return nil, f.unsupported("single-unit file of %d bytes (more than %d)", st.size, maxSectorBytes)
		}
		if !keyKnown {
			return nil, f.unsupported("encrypted file whose name is unknown")
		}
		raw := uint64(st.size)
		if compressed {
			raw = uint64(b.csize)
			if b.csize > b.fsize {
				return nil, f.formatErr(f.Offset, "compressed size %d is larger than the file's size %d", b.csize, b.fsize)
			}
		}
		if off := a.dataOffset(b.pos); uint64(off)+raw > uint64(a.size) {
			return nil, f.formatErr(off, "data (%d bytes) runs past the end of the archive", raw)
		}
		return st, nil
	}
	ss := a.header.SectorSize
	st.sectorSize = ss
	st.nsect = int((uint64(st.size) + uint64(ss) - 1) / uint64(ss))
	if min(ss, st.size) > maxSectorBytes {
		return nil, f.unsupported("sectors of %d bytes (more than %d)", min(ss, st.size), maxSectorBytes)
	}
	if !compressed {
		if !keyKnown {
			return nil, f.unsupported("encrypted file whose name is unknown")
		}
		if off := a.dataOffset(b.pos); uint64(off)+uint64(st.size) > uint64(a.size) {
			return nil, f.formatErr(off, "data (%d bytes) runs past the end of the archive", st.size)
		}
		return st, nil
	}
	// The sector offset table: one offset per sector plus the end, and one
	// more word when sector checksums follow the data.
	n := st.nsect + 1
	if st.flags&FlagSectorCRC != 0 {
		n++
	}
	tableLen := uint64(n) * 4
	off := a.dataOffset(b.pos)
	if uint64(off)+tableLen > uint64(a.size) {
		return nil, f.formatErr(off, "sector offset table of %d entries runs past the end of the archive", n)
	}
	load := st.nsect
	if k >= 0 && k < load {
		load = k
		n = k + 1
	}
	tb := make([]byte, n*4)
	if _, err := a.r.ReadAt(tb, off); err != nil {
		return nil, f.formatErr(off, "reading the sector offset table: %v", err)
	}
	if st.flags&FlagEncrypted != 0 {
		if !keyKnown {
			key, ok := mpqcrypt.KeyFromSectorTable(tb, uint32(tableLen), ss)
			if !ok {
				return nil, f.unsupported("encrypted file whose name is unknown (its key could not be recovered)")
			}
			st.key = key
		}
		mpqcrypt.Decrypt(tb, st.key-1)
	}
	st.offsets = make([]uint32, n)
	for i := range st.offsets {
		st.offsets[i] = binary.LittleEndian.Uint32(tb[i*4:])
	}
	// StormLib's checks: offsets strictly increase and no sector is stored
	// in more bytes than a sector holds.
	for i := 0; i < load; i++ {
		o0, o1 := st.offsets[i], st.offsets[i+1]
		if o1 <= o0 || o1-o0 > ss {
			return nil, f.formatErr(off+int64(i)*4, "sector offset table is corrupt (sector %d: %d..%d, sector size %d)", i, o0, o1, ss)
		}
	}
	return st, nil
}

// expected is the number of bytes sector i decodes to.
func (st *fileState) expected(i int) uint32 {
	start := uint64(i) * uint64(st.sectorSize)
	return uint32(min(uint64(st.sectorSize), uint64(st.size)-start))
}

// rawRange is where sector i is stored, relative to the block's position,
// and how many bytes it takes.
func (st *fileState) rawRange(i int) (uint64, uint64) {
	switch {
	case st.flags&FlagSingleUnit != 0:
		if st.flags&(FlagCompress|FlagImplode) != 0 {
			return 0, uint64(st.a.blocks[st.f.BlockIndex].csize)
		}
		return 0, uint64(st.size)
	case st.offsets != nil:
		return uint64(st.offsets[i]), uint64(st.offsets[i+1] - st.offsets[i])
	}
	return uint64(i) * uint64(st.sectorSize), uint64(st.expected(i))
}

// readRaw reads len(p) bytes stored at rel (relative to the block).
func (st *fileState) readRaw(p []byte, rel uint64) error {
	off := st.a.dataOffset(st.base + rel)
	if uint64(off)+uint64(len(p)) > uint64(st.a.size) {
		return st.f.formatErr(off, "sector data (%d bytes) runs past the end of the archive", len(p))
	}
	if _, err := st.a.r.ReadAt(p, off); err != nil {
		return st.f.formatErr(off, "reading sector data: %v", err)
	}
	return nil
}

// decodeSector decodes sector i into dst (len(dst) == expected(i)); raw
// holds the sector's stored bytes, already read, and is modified.
func (st *fileState) decodeSector(i int, dst, raw []byte) error {
	if st.flags&FlagEncrypted != 0 {
		mpqcrypt.Decrypt(raw, st.key+uint32(i))
	}
	if st.flags&(FlagCompress|FlagImplode) == 0 {
		copy(dst, raw)
		return nil
	}
	// A sector that did not get smaller is stored as it is: Storm decides
	// by size alone, without looking at the method byte.
	if len(raw) >= len(dst) {
		if st.flags&FlagSingleUnit != 0 && len(raw) > len(dst) {
			return st.f.formatErr(st.a.dataOffset(st.base), "compressed size %d is larger than the file's size %d", len(raw), len(dst))
		}
		copy(dst, raw)
		return nil
	}
	if len(raw) == 0 {
		clear(dst)
		return nil
	}
	var n int
	var err error
	switch {
	case st.flags&FlagCompress != 0 && st.a.header.Format == 0:
		n, err = decompressGeneric(dst, raw)
	case st.flags&FlagCompress != 0:
		n, err = decompressFixed(dst, raw)
	default:
		n, err = explode(dst, raw)
	}
	if err != nil {
		return st.sectorErr(i, raw[0], err)
	}
	// A stream that ends early leaves the rest of the sector zero, as
	// StormLib does.
	clear(dst[n:])
	return nil
}

// sectorErr reports sector i (whose first stored byte is first) failing
// to decompress: unsupported for a method this package does not
// implement, else damaged.
func (st *fileState) sectorErr(i int, first byte, err error) error {
	var me *methodError
	if errors.As(err, &me) && me.unsupported {
		return st.f.unsupported("compression %s (byte %#02x) in sector %d", me.method, first, i)
	}
	rawOff, _ := st.rawRange(i)
	return st.f.formatErr(st.a.dataOffset(st.base+rawOff), "sector %d does not decompress: %v", i, err)
}

// decodeAll decodes the whole file into out (len(out) == size), reading all
// of its stored bytes at once.
func (st *fileState) decodeAll(out []byte) error {
	if st.size == 0 {
		return nil
	}
	first, _ := st.rawRange(0)
	lastOff, lastLen := st.rawRange(st.nsect - 1)
	total := lastOff + lastLen - first
	if total > uint64(st.a.size) {
		return st.f.formatErr(st.a.dataOffset(st.base), "stored data (%d bytes) is larger than the archive", total)
	}
	raw := make([]byte, total)
	if err := st.readRaw(raw, first); err != nil {
		return err
	}
	for i := 0; i < st.nsect; i++ {
		o, l := st.rawRange(i)
		start := int(uint64(i) * uint64(st.sectorSize))
		if err := st.decodeSector(i, out[start:start+int(st.expected(i))], raw[o-first:o-first+l]); err != nil {
			return err
		}
	}
	return nil
}

// fileReader streams a file one sector at a time.
type fileReader struct {
	st     *fileState
	pos    int64
	cur    int // index of the sector in buf, or -1
	buf    []byte
	raw    []byte
	err    error
	closed bool
}

func (r *fileReader) Read(p []byte) (int, error) {
	if r.closed {
		return 0, errors.New("mpq: read of a closed file")
	}
	if r.err != nil {
		return 0, r.err
	}
	st := r.st
	if r.pos >= int64(st.size) {
		return 0, io.EOF
	}
	n := 0
	for len(p) > 0 && r.pos < int64(st.size) {
		i := int(r.pos / int64(st.sectorSize))
		within := int(r.pos - int64(i)*int64(st.sectorSize))
		exp := int(st.expected(i))
		if i != r.cur && within == 0 && len(p) >= exp {
			// A whole sector fits: decode it straight into p.
			if err := r.load(i, p[:exp]); err != nil {
				r.err = err
				return n, err
			}
			p = p[exp:]
			n += exp
			r.pos += int64(exp)
			continue
		}
		if i != r.cur {
			if cap(r.buf) < exp {
				r.buf = make([]byte, exp)
			}
			r.buf = r.buf[:exp]
			if err := r.load(i, r.buf); err != nil {
				r.err = err
				return n, err
			}
			r.cur = i
		}
		c := copy(p, r.buf[within:])
		p = p[c:]
		n += c
		r.pos += int64(c)
	}
	return n, nil
}

// load reads and decodes sector i into dst.
func (r *fileReader) load(i int, dst []byte) error {
	rel, l := r.st.rawRange(i)
	if uint64(cap(r.raw)) < l {
		r.raw = make([]byte, l)
	}
	r.raw = r.raw[:l]
	if err := r.st.readRaw(r.raw, rel); err != nil {
		return err
	}
	return r.st.decodeSector(i, dst, r.raw)
}

func (r *fileReader) Close() error {
	r.closed = true
	r.buf, r.raw = nil, nil
	return nil
}

// flagNames gives the short names used by FlagNames, in bit order.
var flagNames = []struct {
	bit  uint32
	name string
}{
	{FlagImplode, "implode"}, {FlagCompress, "compress"}, {FlagEncrypted, "encrypted"},
	{FlagFixKey, "fix-key"}, {FlagPatchFile, "patch"}, {FlagSingleUnit, "single-unit"},
	{FlagDeleteMarker, "delete-marker"}, {FlagSectorCRC, "sector-crc"}, {FlagSignature, "signature"},
	{FlagExists, "exists"},
}

// FlagNames names the block flags set in flags ("compress", "encrypted",
// "fix-key", ...); unknown bits are given in hex.
func FlagNames(flags uint32) []string {
	var out []string
	for _, f := range flagNames {
		if flags&f.bit != 0 {
			out = append(out, f.name)
			flags &^= f.bit
		}
	}
	if flags != 0 {
		out = append(out, fmt.Sprintf("%#08x", flags))
	}
	return out
}
