package hostile

import (
	"bytes"
	"compress/zlib"
)

// MPQZeros is a block of size zero bytes stored as zlib sectors of
// 512 << shift bytes: every full sector is the same few bytes, so a
// large shift makes a large file of a small block (16 MiB sectors, shift
// 15, cost about 16 KiB each).
func MPQZeros(shift uint16, size uint32) MPQBlock { return MPQPadded(shift, nil, size) }

// MPQPadded is MPQZeros with head at the start: a small file (a texture)
// padded with zeros to size bytes, hundreds of megabytes in a few
// kilobytes of archive.
func MPQPadded(shift uint16, head []byte, size uint32) MPQBlock {
	sector := uint32(512) << shift
	full := zlibZeros(int(min(size, sector)))
	var secs [][]byte
	for left := size; left > 0; left -= min(left, sector) {
		switch n := min(left, sector); {
		case left == size && len(head) > 0:
			first := make([]byte, n)
			copy(first, head)
			secs = append(secs, ZlibSector(first))
		case n == sector:
			secs = append(secs, full)
		default:
			secs = append(secs, zlibZeros(int(n)))
		}
	}
	return MPQBlock{Raw: SectorTable(secs), Size: size, Flags: mpqFlagExists | mpqFlagCompress}
}

// MPQBomb is an archive of one block that stands for every one of names
// and a (listfile) naming them: bomb is its block, made with the same
// shift (MPQZeros), or any other block.
func MPQBomb(shift uint16, bomb MPQBlock, names []string) []byte {
	var list bytes.Buffer
	ns := make([]MPQName, 0, len(names)+1)
	for _, n := range names {
		ns = append(ns, MPQName{n, 0})
		list.WriteString(n + "\r\n")
	}
	ns = append(ns, MPQName{"(listfile)", 1})
	return MPQ(shift, []MPQBlock{bomb, {Data: list.Bytes(), Sectors: true}}, ns)
}

// zlibZeros is n zero bytes as one zlib-compressed sector.
func zlibZeros(n int) []byte { return ZlibSector(make([]byte, n)) }

// ZlibSector is data as one sector compressed with zlib, its method byte
// first.
func ZlibSector(data []byte) []byte {
	var b bytes.Buffer
	b.WriteByte(mpqZlib)
	w, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	w.Write(data)
	w.Close()
	return b.Bytes()
}
