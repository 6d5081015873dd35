package mpq

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// Test archives built in memory, for inputs smpq will not write: lying
// sizes, broken sector tables, unknown compression bytes.

// rawFile is one block of a built archive: body is stored as it is (the
// caller encodes sectors), fsize and flags go into the block table.
type rawFile struct {
	name  string
	body  []byte
	fsize uint32
	flags uint32
	block int // block index the hash entry points at; -1 = its own block
}

// buildMPQ lays out a format-1 archive: header, file bodies, hash table,
// block table. hashEntries must be a power of two >= len(files).
func buildMPQ(t testing.TB, shift uint16, hashEntries uint32, files []rawFile) []byte {
	t.Helper()
	var body bytes.Buffer
	body.Write(make([]byte, headerSizeV1))
	type blk struct{ pos, csize, fsize, flags uint32 }
	var blocks []blk
	for _, f := range files {
		blocks = append(blocks, blk{uint32(body.Len()), uint32(len(f.body)), f.fsize, f.flags})
		body.Write(f.body)
	}
	hash := make([]uint32, hashEntries*4)
	for i := range hash {
		hash[i] = 0xFFFFFFFF
	}
	for i, f := range files {
		b := uint32(i)
		if f.block >= 0 && f.block != i {
			b = uint32(f.block)
		}
		slot := hashString(f.name, hashTableIndex) & (hashEntries - 1)
		for hash[slot*4+3] != 0xFFFFFFFF {
			slot = (slot + 1) & (hashEntries - 1)
		}
		hash[slot*4] = hashString(f.name, hashNameA)
		hash[slot*4+1] = hashString(f.name, hashNameB)
		hash[slot*4+2] = 0
		hash[slot*4+3] = b
	}
	hashPos := uint32(body.Len())
	hb := make([]byte, len(hash)*4)
	for i, v := range hash {
		binary.LittleEndian.PutUint32(hb[i*4:], v)
	}
	encryptBlock(hb, hashTableKey)
	body.Write(hb)
	blockPos := uint32(body.Len())
	bb := make([]byte, len(blocks)*16)
	for i, b := range blocks {
		binary.LittleEndian.PutUint32(bb[i*16:], b.pos)
		binary.LittleEndian.PutUint32(bb[i*16+4:], b.csize)
		binary.LittleEndian.PutUint32(bb[i*16+8:], b.fsize)
		binary.LittleEndian.PutUint32(bb[i*16+12:], b.flags)
	}
	encryptBlock(bb, blockTableKey)
	body.Write(bb)
	out := body.Bytes()
	h := out[:headerSizeV1]
	binary.LittleEndian.PutUint32(h[0:], idMPQ)
	binary.LittleEndian.PutUint32(h[4:], headerSizeV1)
	binary.LittleEndian.PutUint32(h[8:], uint32(len(out)))
	binary.LittleEndian.PutUint16(h[12:], 0)
	binary.LittleEndian.PutUint16(h[14:], shift)
	binary.LittleEndian.PutUint32(h[16:], hashPos)
	binary.LittleEndian.PutUint32(h[20:], blockPos)
	binary.LittleEndian.PutUint32(h[24:], hashEntries)
	binary.LittleEndian.PutUint32(h[28:], uint32(len(blocks)))
	return out
}

// sectoredBody encodes sectors (each already compressed, with its method
// byte) behind a sector offset table.
func sectoredBody(sectors [][]byte) []byte {
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

// zlibSector compresses data with Storm's zlib method byte in front.
func zlibSector(data []byte) []byte {
	var b bytes.Buffer
	b.WriteByte(byte(CompressionZlib))
	w, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func openBytes(t testing.TB, b []byte) (*Archive, error) {
	t.Helper()
	return NewReader(bytes.NewReader(b), int64(len(b)), "test.mpq", budget.Limits{})
}
