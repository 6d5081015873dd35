package mpq

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
)

// Signatures at the start of the structures the header search looks at.
const (
	idMPQ      = 0x1A51504D // "MPQ\x1A": the archive header
	idUserData = 0x1B51504D // "MPQ\x1B": user data pointing at the header
	idHM3W     = 0x57334D48 // "HM3W": Warcraft III map header
)

// Header sizes of the four format versions.
const (
	headerSizeV1 = 0x20
	headerSizeV2 = 0x2C
	headerSizeV3 = 0x44
	headerSizeV4 = 0xD0
)

// headerSearchLimit is how far into a file the header is looked for. It is
// StormLib's limit; a header further in would not be found by the game
// either.
const headerSearchLimit = 0x08000000

// Header describes an archive's MPQ header as this reader interpreted it.
// Offsets are absolute positions in the archive file.
type Header struct {
	// Offset is where the "MPQ\x1A" header was found: 0 for a plain .mpq,
	// 512 behind a map's HM3W header, elsewhere in protected maps.
	Offset int64
	// Map is true when the file starts with a Warcraft III "HM3W" map
	// header. Such archives are read as the game reads them: format 1
	// whatever the header claims, user data ignored, and the SINGLE_UNIT and
	// PATCH_FILE block flags (unknown to Warcraft III) cleared.
	Map bool
	// StoredFormat and StoredHeaderSize are the header's own words;
	// Format is the version the tables were read as, as stored: 0 means
	// format 1 (see Version).
	StoredFormat     uint16
	StoredHeaderSize uint32
	Format           uint16
	// Malformed reports header fields that disagreed with the format and
	// were overridden (protected maps do this on purpose).
	Malformed bool
	// ArchiveSize is the header's archive size field (64-bit where the
	// format has one). Warcraft III ignores it and so does this reader.
	ArchiveSize uint64
	// SectorSize is the size of one file sector (512 << shift).
	SectorSizeShift uint16
	SectorSize      uint32
	// Table positions and the entry counts the header declares (the counts
	// masked to 28 bits as Storm does).
	HashTableOffset    int64
	HashTableEntries   uint32
	BlockTableOffset   int64
	BlockTableEntries  uint32
	HiBlockTableOffset int64 // 0 when absent
	// HashEntriesRead and BlockEntriesRead count the entries actually in
	// the file: fewer than declared when a format-1 table runs past its end.
	HashEntriesRead  uint32
	BlockEntriesRead uint32
	// UserDataOffset is where an "MPQ\x1B" user data block that led to the
	// header sits, or -1.
	UserDataOffset int64
}

// Version is the format version the tables were read as, counted the way
// the format's documents count it: 1 (Warcraft III, StarCraft) to 4.
func (h Header) Version() int { return int(h.Format) + 1 }

// rawHeader holds the header words as stored (little endian, format 4 layout
// where fields exist).
type rawHeader struct {
	id, headerSize, archiveSize uint32
	format, sectorShift         uint16
	hashPos, blockPos           uint32
	hashSize, blockSize         uint32
	hiBlockPos64                uint64
	hashPosHi, blockPosHi       uint16
	archiveSize64               uint64
	betPos64, hetPos64          uint64
	hashSize64, blockSize64     uint64
	hiBlockSize64               uint64
	hetSize64, betSize64        uint64
	rawChunkSize                uint32
	md5Header                   [16]byte
}

// parseRawHeader decodes b (up to headerSizeV4 bytes, zero-padded by the
// caller) into a rawHeader.
func parseRawHeader(b []byte) rawHeader {
	le := binary.LittleEndian
	var h rawHeader
	h.id = le.Uint32(b[0:])
	h.headerSize = le.Uint32(b[4:])
	h.archiveSize = le.Uint32(b[8:])
	h.format = le.Uint16(b[12:])
	h.sectorShift = le.Uint16(b[14:])
	h.hashPos = le.Uint32(b[16:])
	h.blockPos = le.Uint32(b[20:])
	h.hashSize = le.Uint32(b[24:])
	h.blockSize = le.Uint32(b[28:])
	h.hiBlockPos64 = le.Uint64(b[32:])
	h.hashPosHi = le.Uint16(b[40:])
	h.blockPosHi = le.Uint16(b[42:])
	h.archiveSize64 = le.Uint64(b[44:])
	h.betPos64 = le.Uint64(b[52:])
	h.hetPos64 = le.Uint64(b[60:])
	h.hashSize64 = le.Uint64(b[68:])
	h.blockSize64 = le.Uint64(b[76:])
	h.hiBlockSize64 = le.Uint64(b[84:])
	h.hetSize64 = le.Uint64(b[92:])
	h.betSize64 = le.Uint64(b[100:])
	h.rawChunkSize = le.Uint32(b[108:])
	copy(h.md5Header[:], b[0xC0:0xD0])
	return h
}

// tableLayout is what the table loader needs from the header: absolute
// positions, declared entry counts and, where the format says so, the size
// the table occupies in the file (smaller than entries*16 when compressed).
type tableLayout struct {
	hashPos, blockPos, hiBlockPos int64
	hashEntries, blockEntries     uint32
	hashStored, blockStored       uint64 // 0 = not known (the table is stored whole)
	v1Offsets                     bool   // 32-bit wrapping offsets (format 1)
}

// findHeader searches for the archive header the way Storm and StormLib do
// and interprets it. It returns errNoHeader (wrapped into a FormatError by
// the caller) when there is none.
func (a *Archive) findHeader() (Header, tableLayout, error) {
	size := a.size
	var start [16]byte
	isMap := false
	if size > 16 {
		if _, err := a.r.ReadAt(start[:], 0); err != nil {
			return Header{}, tableLayout{}, a.formatErr(0, "reading the first bytes: %v", err)
		}
		isMap = binary.LittleEndian.Uint32(start[0:]) == idHM3W && binary.LittleEndian.Uint32(start[4:]) == 0
	}
	limit := size
	if limit > headerSearchLimit {
		limit = headerSearchLimit
	}
	var buf [headerSizeV4]byte
	read := func(off int64) []byte {
		clear(buf[:])
		n := int64(len(buf))
		if size-off < n {
			n = size - off
		}
		if n <= 0 {
			return nil
		}
		if _, err := a.r.ReadAt(buf[:n], off); err != nil {
			return nil
		}
		return buf[:]
	}
	for off := int64(0); off < limit; off += 512 {
		b := read(off)
		if b == nil {
			break
		}
		hdrOff := off
		udOff := int64(-1)
		id := binary.LittleEndian.Uint32(b)
		// Warcraft III does not look at user data, and map protectors plant
		// "MPQ\x1B" decoys for tools that do; only non-map archives follow
		// a user data block to its header.
		if !isMap && id == idUserData {
			udSize := binary.LittleEndian.Uint32(b[4:])
			udHeaderOffs := binary.LittleEndian.Uint32(b[8:])
			udHeaderSize := binary.LittleEndian.Uint32(b[12:])
			target := off + int64(udHeaderOffs)
			if udHeaderSize <= udSize && udSize <= udHeaderOffs && target+headerSizeV1 < size {
				if b = read(target); b == nil {
					break
				}
				hdrOff, udOff = target, off
				id = binary.LittleEndian.Uint32(b)
			}
		}
		// Storm requires the header size to be at least 32 bytes; a larger
		// or garbage value is accepted (protectors write text there).
		if id != idMPQ || binary.LittleEndian.Uint32(b[4:]) < headerSizeV1 {
			continue
		}
		h, lay, fake, err := a.interpretHeader(parseRawHeader(b), hdrOff, isMap)
		if fake {
			continue
		}
		h.UserDataOffset = udOff
		return h, lay, err
	}
	return Header{}, tableLayout{}, a.formatErr(-1, "no MPQ header found (looked at every 512-byte step in the first %d bytes)", limit)
}

// interpretHeader turns the stored header at off into positions and counts.
// fake reports a format-4 header whose MD5 does not match, which StormLib
// (and StarCraft II) skip to keep searching.
func (a *Archive) interpretHeader(r rawHeader, off int64, isMap bool) (h Header, lay tableLayout, fake bool, err error) {
	h = Header{
		Offset:           off,
		Map:              isMap,
		StoredFormat:     r.format,
		StoredHeaderSize: r.headerSize,
		Format:           r.format,
		ArchiveSize:      uint64(r.archiveSize),
	}
	// Warcraft III's Storm reads every archive as format 1, which map
	// protectors exploit by claiming format 2 with garbage high words.
	if isMap {
		h.Format = 0
	}
	switch h.Format {
	case 0:
	case 1:
		if r.headerSize != headerSizeV2 {
			h.Format = 0
		}
	case 2:
		// A format-3 header may be as short as a format-2 one; the extra
		// fields only count when present.
		if r.headerSize < headerSizeV2 {
			h.Format = 0
		} else if r.headerSize < headerSizeV3 {
			r.archiveSize64, r.betPos64, r.hetPos64 = uint64(r.archiveSize), 0, 0
		}
	case 3:
		if r.headerSize < headerSizeV4 {
			return h, lay, true, nil
		}
		sum := md5.Sum(a.headerBytes(off))
		if r.md5Header == ([16]byte{}) || !bytes.Equal(sum[:], r.md5Header[:]) {
			return h, lay, true, nil
		}
	default:
		h.Format = 0
	}
	if h.Format != r.format || (h.Format == 0 && r.headerSize != headerSizeV1) {
		h.Malformed = true
	}
	shift := r.sectorShift
	if h.Format == 0 {
		// Only the low byte is used by Storm.
		if shift&0xFF00 != 0 {
			h.Malformed = true
		}
		shift &= 0xFF
	}
	h.SectorSizeShift = shift
	if shift >= 23 {
		return h, lay, false, a.formatErr(off+14, "sector size shift %d overflows", shift)
	}
	h.SectorSize = 0x200 << shift

	lay.hashEntries = r.hashSize & 0x0FFFFFFF
	lay.blockEntries = r.blockSize & 0x0FFFFFFF
	h.HashTableEntries, h.BlockTableEntries = lay.hashEntries, lay.blockEntries
	if h.Format == 0 {
		// Format 1 offsets are 32-bit and wrap; protectors use that to put
		// tables "before" the header.
		lay.v1Offsets = true
		lay.hashPos = int64(uint32(off) + r.hashPos)
		lay.blockPos = int64(uint32(off) + r.blockPos)
	} else {
		h.ArchiveSize = r.archiveSize64
		if h.Format == 1 {
			h.ArchiveSize = uint64(r.archiveSize)
		}
		lay.hashPos = off + int64(uint64(r.hashPosHi)<<32|uint64(r.hashPos))
		lay.blockPos = off + int64(uint64(r.blockPosHi)<<32|uint64(r.blockPos))
		if r.hiBlockPos64 != 0 {
			if r.hiBlockPos64 > uint64(a.size) {
				return h, lay, false, a.formatErr(off+32, "hi-block table offset %#x is past the end of the file", r.hiBlockPos64)
			}
			lay.hiBlockPos = off + int64(r.hiBlockPos64)
		}
		if h.Format == 3 {
			lay.hashStored, lay.blockStored = r.hashSize64, r.blockSize64
		}
	}
	h.HashTableOffset, h.BlockTableOffset, h.HiBlockTableOffset = lay.hashPos, lay.blockPos, lay.hiBlockPos
	// A table may start at the very end of the file (it then reads as
	// zeros in format 1) but not beyond it.
	if (r.hashPos != 0 || r.hashPosHi != 0) && lay.hashPos > a.size {
		return h, lay, false, a.formatErr(off+16, "hash table offset %#x is past the end of the file (%d bytes)", lay.hashPos, a.size)
	}
	if (r.blockPos != 0 || r.blockPosHi != 0) && lay.blockPos > a.size {
		return h, lay, false, a.formatErr(off+20, "block table offset %#x is past the end of the file (%d bytes)", lay.blockPos, a.size)
	}
	if lay.hashPos < 0 || lay.blockPos < 0 {
		return h, lay, false, a.formatErr(off+16, "table offset overflows")
	}
	return h, lay, false, nil
}

// headerBytes returns the first 0xC0 bytes of a format-4 header, the part
// its MD5 covers.
func (a *Archive) headerBytes(off int64) []byte {
	b := make([]byte, 0xC0)
	if _, err := a.r.ReadAt(b, off); err != nil {
		return nil
	}
	return b
}
