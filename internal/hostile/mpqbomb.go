package hostile

import (
	"bytes"
	"compress/zlib"
)

// MPQZeros is a block of size zero bytes stored as zlib sectors of
// 512 << shift bytes: every full sector is the same few bytes, so a
// large shift makes a large file of a small block (16 MiB sectors, shift
// 15, cost about 16 KiB each).
func MPQZeros(shift uint16, size uint32) MPQBlock {
	sector := uint32(512) << shift
	full := zlibZeros(int(min(size, sector)))
	var secs [][]byte
	for left := size; left > 0; left -= min(left, sector) {
		if left >= sector {
			secs = append(secs, full)
		} else {
			secs = append(secs, zlibZeros(int(left)))
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
func zlibZeros(n int) []byte {
	var b bytes.Buffer
	b.WriteByte(mpqZlib)
	w, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	w.Write(make([]byte, n))
	w.Close()
	return b.Bytes()
}
