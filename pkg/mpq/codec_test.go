package mpq

import (
	"encoding/binary"
	"testing"

	"github.com/mdxrender/mdxrender/internal/mpqcrypt"
)

func TestKeyRecovery(t *testing.T) {
	table := make([]byte, 12)
	binary.LittleEndian.PutUint32(table, 12)
	binary.LittleEndian.PutUint32(table[4:], 12+3000)
	binary.LittleEndian.PutUint32(table[8:], 12+3100)
	key := fileKey("secret.txt", 0, 0, 0)
	mpqcrypt.Encrypt(table, key-1)
	got, ok := mpqcrypt.KeyFromSectorTable(table, 12, 4096)
	if !ok || got != key {
		t.Errorf("recovered %#x (%v), want %#x", got, ok, key)
	}
}

func TestExplode(t *testing.T) {
	// The example stream from the format's public description (as corrected
	// in Mark Adler's blast.c).
	dst := make([]byte, 13)
	n, err := explode(dst, []byte{0x00, 0x04, 0x82, 0x24, 0x25, 0x8f, 0x80, 0x7f})
	if err != nil || string(dst[:n]) != "AIAIAIAIAIAIA" {
		t.Errorf("got %q, %v", dst[:n], err)
	}
	// Output beyond the buffer is dropped, the stream still has to end.
	small := make([]byte, 5)
	if n, err := explode(small, []byte{0x00, 0x04, 0x82, 0x24, 0x25, 0x8f, 0x80, 0x7f}); err != nil || string(small[:n]) != "AIAIA" {
		t.Errorf("into 5 bytes: %q, %v", small[:n], err)
	}
	if _, err := explode(dst, []byte{0x00, 0x04, 0x82, 0x24, 0x25, 0x8f}); err == nil {
		t.Error("a stream without its end code decoded")
	}
	for _, bad := range [][]byte{{0x02, 0x04, 0, 0, 0}, {0x00, 0x07, 0, 0, 0}, {0x00, 0x04}} {
		if _, err := explode(dst, bad); err == nil {
			t.Errorf("%x decoded", bad)
		}
	}
}

func TestSparse(t *testing.T) {
	// size 10; 2 literal bytes; 5 zeros; 3 literal bytes.
	src := []byte{0, 0, 0, 10, 0x81, 'a', 'b', 0x02, 0x82, 'c', 'd', 'e'}
	dst := make([]byte, 10)
	n, err := unSparse(dst, src)
	if err != nil || n != 10 || string(dst) != "ab\x00\x00\x00\x00\x00cde" {
		t.Errorf("got %q (%d), %v", dst, n, err)
	}
	if _, err := unSparse(make([]byte, 5), src); err == nil {
		t.Error("a sparse stream larger than its sector decoded")
	}
}

func TestCompressionNames(t *testing.T) {
	for c, want := range map[Compression]string{
		CompressionZlib: "zlib", CompressionHuffman | CompressionADPCMMono: "huffman+adpcm-mono",
		Stored: "stored", Imploded: "implode", CompressionLZMA: "lzma", 0x04: "unknown(0x04)",
		CompressionPKWare | CompressionZlib: "pkware+zlib",
	} {
		if c.String() != want {
			t.Errorf("%#x: %q, want %q", uint16(c), c.String(), want)
		}
	}
}
