package hostile

import (
	"bytes"
	"encoding/binary"

	"github.com/mdxrender/mdxrender/internal/mpqcrypt"
)

// MPQ block flags and the zlib sector method byte, as the format defines
// them.
const (
	mpqFlagCompress   = 0x00000200
	mpqFlagSingleUnit = 0x01000000
	mpqFlagExists     = 0x80000000
	mpqZlib           = 0x02
)

// MPQBlock is one block of data in an archive built by MPQ: Data is what
// the file holds once decoded. With Sectors, it is compressed one sector
// at a time with zlib (a sector that does not shrink is stored as it is,
// as Storm does); Raw, when set, is stored as the block's bytes instead,
// with Size as the declared file size and Flags as the block flags (for
// sectors the caller encodes: bzip2, lying sizes).
type MPQBlock struct {
	Data    []byte
	Sectors bool
	Raw     []byte
	Size    uint32
	Flags   uint32
}

// MPQName is a name in an archive's hash table and the block it stands
// for; several names may stand for one block.
type MPQName struct {
	Name  string
	Block int
}

// MPQ lays out a format-1 archive: a 32-byte header, the blocks, the hash
// table (its size the next power of two holding twice the names, at least
// 16) and the block table, both encrypted as the format requires. shift
// is the sector size shift (sectors of 512 << shift bytes). The names are
// not listed anywhere unless a block holds a (listfile) naming them.
func MPQ(shift uint16, blocks []MPQBlock, names []MPQName) []byte {
	var body bytes.Buffer
	body.Write(make([]byte, 32))
	sector := 512 << shift
	type entry struct{ pos, csize, fsize, flags uint32 }
	table := make([]entry, len(blocks))
	for i, b := range blocks {
		pos := uint32(body.Len())
		switch {
		case b.Raw != nil:
			body.Write(b.Raw)
			table[i] = entry{pos, uint32(len(b.Raw)), b.Size, b.Flags}
		case b.Sectors:
			enc := zlibSectors(b.Data, sector)
			body.Write(enc)
			table[i] = entry{pos, uint32(len(enc)), uint32(len(b.Data)), mpqFlagExists | mpqFlagCompress}
		default:
			body.Write(b.Data)
			table[i] = entry{pos, uint32(len(b.Data)), uint32(len(b.Data)), mpqFlagExists}
		}
	}
	hashEntries := uint32(16)
	for hashEntries < 2*uint32(len(names)) {
		hashEntries *= 2
	}
	hash := make([]uint32, hashEntries*4)
	for i := range hash {
		hash[i] = 0xFFFFFFFF
	}
	for _, n := range names {
		slot := mpqcrypt.Hash(n.Name, mpqcrypt.TableIndex) & (hashEntries - 1)
		for hash[slot*4+3] != 0xFFFFFFFF {
			slot = (slot + 1) & (hashEntries - 1)
		}
		hash[slot*4] = mpqcrypt.Hash(n.Name, mpqcrypt.NameA)
		hash[slot*4+1] = mpqcrypt.Hash(n.Name, mpqcrypt.NameB)
		hash[slot*4+2] = 0
		hash[slot*4+3] = uint32(n.Block)
	}
	hashPos := uint32(body.Len())
	hb := make([]byte, len(hash)*4)
	for i, v := range hash {
		binary.LittleEndian.PutUint32(hb[i*4:], v)
	}
	mpqcrypt.Encrypt(hb, mpqcrypt.HashTableKey)
	body.Write(hb)
	blockPos := uint32(body.Len())
	bb := make([]byte, len(table)*16)
	for i, e := range table {
		binary.LittleEndian.PutUint32(bb[i*16:], e.pos)
		binary.LittleEndian.PutUint32(bb[i*16+4:], e.csize)
		binary.LittleEndian.PutUint32(bb[i*16+8:], e.fsize)
		binary.LittleEndian.PutUint32(bb[i*16+12:], e.flags)
	}
	mpqcrypt.Encrypt(bb, mpqcrypt.BlockTableKey)
	body.Write(bb)
	out := body.Bytes()
	h := out[:32]
	copy(h, "MPQ\x1a")
	binary.LittleEndian.PutUint32(h[4:], 32)
	binary.LittleEndian.PutUint32(h[8:], uint32(len(out)))
	binary.LittleEndian.PutUint16(h[12:], 0)
	binary.LittleEndian.PutUint16(h[14:], shift)
	binary.LittleEndian.PutUint32(h[16:], hashPos)
	binary.LittleEndian.PutUint32(h[20:], blockPos)
	binary.LittleEndian.PutUint32(h[24:], hashEntries)
	binary.LittleEndian.PutUint32(h[28:], uint32(len(table)))
	return out
}

// MPQFiles is MPQ for the common case: each name its own block, stored
// with zlib sectors, plus a (listfile) naming them all.
func MPQFiles(files map[string][]byte, order []string) []byte {
	var blocks []MPQBlock
	var names []MPQName
	var list bytes.Buffer
	for _, n := range order {
		names = append(names, MPQName{n, len(blocks)})
		blocks = append(blocks, MPQBlock{Data: files[n], Sectors: true})
		list.WriteString(n + "\r\n")
	}
	names = append(names, MPQName{"(listfile)", len(blocks)})
	blocks = append(blocks, MPQBlock{Data: list.Bytes(), Sectors: true})
	return MPQ(3, blocks, names)
}

// zlibSectors encodes data as a compressed MPQ file of sectors of the
// given size: the sector offset table, then each sector with zlib's
// method byte, or stored when compressing does not shrink it.
func zlibSectors(data []byte, sector int) []byte {
	n := (len(data) + sector - 1) / sector
	var secs [][]byte
	for i := range n {
		chunk := data[i*sector : min((i+1)*sector, len(data))]
		if z := ZlibSector(chunk); len(z) < len(chunk) {
			secs = append(secs, z)
		} else {
			secs = append(secs, chunk)
		}
	}
	return SectorTable(secs)
}

// SectorTable puts encoded sectors (each with its method byte, or stored)
// behind a sector offset table, as a compressed multi-sector MPQ file
// stores them.
func SectorTable(sectors [][]byte) []byte {
	table := make([]byte, (len(sectors)+1)*4)
	off := uint32(len(table))
	var data []byte
	for i, s := range sectors {
		binary.LittleEndian.PutUint32(table[i*4:], off)
		off += uint32(len(s))
		data = append(data, s...)
	}
	binary.LittleEndian.PutUint32(table[len(sectors)*4:], off)
	return append(table, data...)
}
