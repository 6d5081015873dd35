package mpqcrypt

import (
	"bytes"
	"testing"
)

func TestCryptConstants(t *testing.T) {
	// The table keys are the file-key hashes of these names.
	if k := Hash("(hash table)", FileKey); k != HashTableKey {
		t.Errorf("(hash table) key %#x", k)
	}
	if k := Hash("(block table)", FileKey); k != BlockTableKey {
		t.Errorf("(block table) key %#x", k)
	}
	// Case and separator do not change a hash.
	if Hash("Units\\Human\\Footman.mdx", NameA) != Hash("units/human/FOOTMAN.MDX", NameA) {
		t.Error("hash depends on case or separator")
	}
	// Decrypt undoes encrypt, and trailing bytes are left alone.
	b := []byte("0123456789abcdefXYZ")
	c := append([]byte(nil), b...)
	Encrypt(c, 0x12345678)
	if bytes.Equal(c[:16], b[:16]) || !bytes.Equal(c[16:], b[16:]) {
		t.Errorf("encrypted %q", c)
	}
	Decrypt(c, 0x12345678)
	if !bytes.Equal(c, b) {
		t.Errorf("round trip gave %q", c)
	}
}
