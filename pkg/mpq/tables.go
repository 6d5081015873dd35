package mpq

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/mdxrender/mdxrender/internal/mpqcrypt"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// Block flags, as stored in the block table.
const (
	FlagImplode      = 0x00000100 // PKWARE DCL imploded (the older, Diablo-era compression flag)
	FlagCompress     = 0x00000200 // compressed; each sector starts with a byte naming the method(s)
	FlagEncrypted    = 0x00010000 // encrypted with a key derived from the file's name
	FlagFixKey       = 0x00020000 // the key is adjusted by the file's position and size
	FlagPatchFile    = 0x00100000 // an incremental patch (World of Warcraft); not read by this package
	FlagSingleUnit   = 0x01000000 // stored as one unit rather than in sectors
	FlagDeleteMarker = 0x02000000 // marks a file deleted by a patch archive
	FlagSectorCRC    = 0x04000000 // an Adler-32 per sector follows the data
	FlagSignature    = 0x10000000
	FlagExists       = 0x80000000
)

// Flags Storm knows; Warcraft III's Storm additionally knows neither
// SINGLE_UNIT nor PATCH_FILE, and StormLib clears them when reading a map.
const (
	validFlags    = FlagImplode | FlagCompress | FlagEncrypted | FlagFixKey | FlagPatchFile | FlagSingleUnit | FlagDeleteMarker | FlagSectorCRC | FlagSignature | FlagExists
	validFlagsW3X = validFlags &^ (FlagSingleUnit | FlagPatchFile)
)

// Hash table markers in the block index field.
const (
	hashFree    = 0xFFFFFFFF // never used: ends a probe sequence
	hashDeleted = 0xFFFFFFFE // used, then deleted: probing continues past it
)

type hashEntry struct {
	name1, name2 uint32
	locale       uint16
	platform     uint16
	block        uint32
}

type blockEntry struct {
	pos   uint64 // offset of the file's data from the MPQ header (hi-block bits included)
	csize uint32
	fsize uint32
	flags uint32 // masked to the flags this kind of archive knows
	raw   uint32 // flags as stored
}

// readTable reads a table of entries*16 bytes at pos and decrypts it with
// key. In format 1 a table may run past the end of the file: Storm reads
// what is there, and the rest reads as zeros before decryption, which turns
// it into keystream noise that matches no name and is never free. Only the
// whole entries present in the file are returned; the caller treats the
// missing ones as that noise. stored is the table's size in the file when
// the header gives one (format 4); a smaller stored size means compressed.
func (a *Archive) readTable(what string, pos int64, entries uint32, stored uint64, key uint32, v1 bool) ([]byte, error) {
	full := uint64(entries) * 16
	if full == 0 {
		return nil, nil
	}
	if stored != 0 && stored < full {
		// A compressed table: its stored bytes must be in the file, and
		// its declared size, which nothing in the file backs, must be
		// within the read limit.
		if pos < 0 || uint64(pos)+stored > uint64(a.size) {
			return nil, a.formatErr(pos, "compressed %s (%d bytes) runs past the end of the file", what, stored)
		}
		if err := a.lim.Check(budget.ReadBytes, int64(full), archiveShown(a.name), fmt.Sprintf("decompressing a %s of %d entries", what, entries)); err != nil {
			return nil, err
		}
		raw := make([]byte, stored)
		if _, err := a.r.ReadAt(raw, pos); err != nil {
			return nil, a.formatErr(pos, "reading the %s: %v", what, err)
		}
		mpqcrypt.Decrypt(raw, key)
		out := make([]byte, full)
		n, err := decompressTable(out, raw)
		if err != nil || n != len(out) {
			return nil, a.formatErr(pos, "the compressed %s does not decompress to %d bytes", what, full)
		}
		return out, nil
	}
	avail := uint64(0)
	if pos >= 0 && pos < a.size {
		avail = uint64(a.size - pos)
	}
	if avail < full {
		if !v1 {
			return nil, a.formatErr(pos, "%s of %d entries runs past the end of the file", what, entries)
		}
		full = avail &^ 15
	}
	b := make([]byte, full)
	if full > 0 {
		if _, err := a.r.ReadAt(b, pos); err != nil {
			return nil, a.formatErr(pos, "reading the %s: %v", what, err)
		}
	}
	mpqcrypt.Decrypt(b, key)
	return b, nil
}

// loadTables reads the hash, block and hi-block tables.
func (a *Archive) loadTables(lay tableLayout) error {
	if lay.hashEntries == 0 {
		return &UnsupportedError{Archive: a.name, What: "archive without a classic hash table (HET/BET tables only)"}
	}
	hb, err := a.readTable("hash table", lay.hashPos, lay.hashEntries, lay.hashStored, mpqcrypt.HashTableKey, lay.v1Offsets)
	if err != nil {
		return err
	}
	a.hashSize = lay.hashEntries
	a.hashes = make([]hashEntry, len(hb)/16)
	le := binary.LittleEndian
	for i := range a.hashes {
		e := hb[i*16:]
		a.hashes[i] = hashEntry{
			name1:    le.Uint32(e),
			name2:    le.Uint32(e[4:]),
			locale:   le.Uint16(e[8:]),
			platform: le.Uint16(e[10:]),
			block:    le.Uint32(e[12:]),
		}
	}
	bb, err := a.readTable("block table", lay.blockPos, lay.blockEntries, lay.blockStored, mpqcrypt.BlockTableKey, lay.v1Offsets)
	if err != nil {
		return err
	}
	var hi []byte
	if lay.hiBlockPos != 0 && len(bb) > 0 {
		n := int64(len(bb) / 16 * 2)
		if lay.hiBlockPos+n > a.size {
			return a.formatErr(lay.hiBlockPos, "hi-block table of %d entries runs past the end of the file", len(bb)/16)
		}
		hi = make([]byte, n)
		if _, err := a.r.ReadAt(hi, lay.hiBlockPos); err != nil {
			return a.formatErr(lay.hiBlockPos, "reading the hi-block table: %v", err)
		}
	}
	mask := uint32(validFlags)
	if a.header.Map {
		mask = validFlagsW3X
	}
	a.blocks = make([]blockEntry, len(bb)/16)
	for i := range a.blocks {
		e := bb[i*16:]
		b := blockEntry{
			pos:   uint64(le.Uint32(e)),
			csize: le.Uint32(e[4:]),
			fsize: le.Uint32(e[8:]),
			raw:   le.Uint32(e[12:]),
		}
		b.flags = b.raw & mask
		if hi != nil {
			b.pos |= uint64(le.Uint16(hi[i*2:])) << 32
		}
		a.blocks[i] = b
	}
	return nil
}

// dataOffset converts a position relative to the MPQ header (a block's
// position plus a sector offset) into an absolute file offset. Format 1
// offsets are 32-bit and wrap, which protectors use to place data before
// the header.
func (a *Archive) dataOffset(rel uint64) int64 {
	if a.header.Format == 0 {
		return int64(uint32(uint64(a.header.Offset) + rel))
	}
	return a.header.Offset + int64(rel)
}

// blockUsable is StormLib's test for a block a hash entry may point at: it
// exists, its size is below 2 GiB, and its data starts inside the file.
func (a *Archive) blockUsable(i uint32) bool {
	if uint64(i) >= uint64(len(a.blocks)) {
		return false
	}
	b := &a.blocks[i]
	if b.flags&FlagExists == 0 || b.fsize&0x80000000 != 0 {
		return false
	}
	return a.dataOffset(b.pos) < a.size
}

// startSlot is the hash table entry where the probe for name starts: its
// table-index hash, masked when the table's size is a power of two and
// reduced modulo the size otherwise.
func (a *Archive) startSlot(name string) uint32 {
	start := mpqcrypt.Hash(name, mpqcrypt.TableIndex)
	if bits.OnesCount32(a.hashSize) == 1 {
		return start & (a.hashSize - 1)
	}
	return start % a.hashSize
}

// lookup finds the hash entry for name as Storm's probe does: from the
// name's slot on, wrapping around, until a free entry, the first
// locale-neutral entry whose name hashes match, or else the first
// matching entry of any locale. Entries past the end of a clipped table
// are skipped: they hold noise that matches nothing and is never free. It
// returns -1 when there is none. It visits only the entries that carry
// the name's hashes, so a table built to make probes long costs nothing.
func (a *Archive) lookup(name string) int {
	if a.hashSize == 0 || len(a.hashes) == 0 {
		return -1
	}
	g, ok := a.groupOf[nameKey(mpqcrypt.Hash(name, mpqcrypt.NameA), mpqcrypt.Hash(name, mpqcrypt.NameB))]
	if !ok {
		return -1
	}
	start := a.startSlot(name)
	// The probe visits [start, end1) and then, when it meets no free entry
	// there, wraps to [0, end2).
	n := int32(len(a.hashes))
	var s, end1, end2 int32
	switch {
	case start >= uint32(n):
		// A slot in the clipped part: the probe starts over at 0.
		end1 = n
		if f := a.nextFree[0]; f >= 0 {
			end1 = f
		}
		end2 = 0
	case a.nextFree[start] >= 0:
		s = int32(start)
		end1, end2 = a.nextFree[s], 0
	default:
		s = int32(start)
		end1, end2 = n, s
		if f := a.nextFree[0]; f >= 0 && f < s {
			end2 = f
		}
	}
	idx := a.group(g)
	at, _ := slices.BinarySearch(idx, s)
	first := -1
	visit := func(from []int32, end int32) int {
		for _, i := range from {
			if i >= end {
				break
			}
			if first < 0 {
				first = int(i)
			}
			if a.hashes[i].locale == 0 {
				return int(i)
			}
		}
		return -1
	}
	if i := visit(idx[at:], end1); i >= 0 {
		return i
	}
	if end1 == n {
		if i := visit(idx[:at], end2); i >= 0 {
			return i
		}
	}
	return first
}
