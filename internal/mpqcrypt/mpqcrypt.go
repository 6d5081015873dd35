// Package mpqcrypt is the MPQ format's one-way name hash and block cipher
// (docs/archives.md): one copy for the archive reader, pkg/mpq, and for the
// builder of test and hostile archives, internal/hostile.
package mpqcrypt

import "encoding/binary"

// table is the 0x500-entry table behind the name hashes and the cipher. It
// is a pure function of a fixed seed, so it is computed once rather than
// stored.
var table = func() (t [0x500]uint32) {
	seed := uint32(0x00100001)
	next := func() uint32 {
		seed = (seed*125 + 3) % 0x2AAAAB
		return seed
	}
	for i := 0; i < 0x100; i++ {
		for j := i; j < 0x500; j += 0x100 {
			hi := next() & 0xFFFF
			lo := next() & 0xFFFF
			t[j] = hi<<16 | lo
		}
	}
	return t
}()

// The four uses of Hash, selecting a quarter of the table each.
const (
	TableIndex = 0x000 // start slot in the hash table
	NameA      = 0x100 // first check value stored in the hash entry
	NameB      = 0x200 // second check value
	FileKey    = 0x300 // encryption key
)

// Keys of the two encrypted tables: Hash("(hash table)", FileKey) and
// Hash("(block table)", FileKey).
const (
	HashTableKey  = 0xC3AF3770
	BlockTableKey = 0xEC83B3A3
)

// upperASCII folds a byte the way Storm does before hashing: ASCII letters
// to upper case, '/' to '\' (StormLib treats the two as the same separator,
// and so does the game when it builds a path), everything else unchanged.
func upperASCII(c byte) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return c - 'a' + 'A'
	case c == '/':
		return '\\'
	}
	return c
}

// Hash is Storm's one-way string hash; kind is one of TableIndex, NameA,
// NameB and FileKey.
func Hash(s string, kind uint32) uint32 { return More(Start, s, kind).Sum() }

// State is the hash part way through a string: hashing a name after a
// prefix goes on from the prefix's state, without joining the two.
type State struct{ seed1, seed2 uint32 }

// Start is the state before the first byte.
var Start = State{0x7FED7FED, 0xEEEEEEEE}

// Sum is the hash of what was hashed so far.
func (h State) Sum() uint32 { return h.seed1 }

// More goes on hashing from h over s.
func More[S ~string | ~[]byte](h State, s S, kind uint32) State {
	for i := 0; i < len(s); i++ {
		c := uint32(upperASCII(s[i]))
		h.seed1 = table[kind+c] ^ (h.seed1 + h.seed2)
		h.seed2 = c + h.seed1 + h.seed2 + h.seed2<<5 + 3
	}
	return h
}

// Decrypt decrypts b in place with key. Only whole little-endian uint32
// words are encrypted; the 0-3 trailing bytes are stored as they are.
func Decrypt(b []byte, key uint32) {
	seed := uint32(0xEEEEEEEE)
	for i := 0; i+4 <= len(b); i += 4 {
		seed += table[0x400+(key&0xFF)]
		v := binary.LittleEndian.Uint32(b[i:]) ^ (key + seed)
		key = (^key<<0x15 + 0x11111111) | key>>0x0B
		seed = v + seed + seed<<5 + 3
		binary.LittleEndian.PutUint32(b[i:], v)
	}
}

// Encrypt is Decrypt's inverse; the reader never writes, but tests build
// encrypted inputs with it.
func Encrypt(b []byte, key uint32) {
	seed := uint32(0xEEEEEEEE)
	for i := 0; i+4 <= len(b); i += 4 {
		seed += table[0x400+(key&0xFF)]
		v := binary.LittleEndian.Uint32(b[i:])
		binary.LittleEndian.PutUint32(b[i:], v^(key+seed))
		key = (^key<<0x15 + 0x11111111) | key>>0x0B
		seed = v + seed + seed<<5 + 3
	}
}

// KeyFromSectorTable recovers the key of an encrypted, sectored file
// whose name is unknown. The first word of its sector offset table is known
// in advance (the table's own length, tableLen), which pins the key down to
// at most 256 candidates; the second word must then be a plausible end of
// the first sector. It returns the file key (the table itself is encrypted
// with key-1) and whether one was found.
func KeyFromSectorTable(enc []byte, tableLen, sectorSize uint32) (uint32, bool) {
	if len(enc) < 8 {
		return 0, false
	}
	e0 := binary.LittleEndian.Uint32(enc)
	e1 := binary.LittleEndian.Uint32(enc[4:])
	want := e0 ^ tableLen
	for b := uint32(0); b < 0x100; b++ {
		// e0 = tableLen ^ (key + 0xEEEEEEEE + table[0x400+key&0xFF])
		key := want - 0xEEEEEEEE - table[0x400+b]
		if key&0xFF != b {
			continue
		}
		var w [8]byte
		binary.LittleEndian.PutUint32(w[:], e0)
		binary.LittleEndian.PutUint32(w[4:], e1)
		Decrypt(w[:], key)
		d0 := binary.LittleEndian.Uint32(w[:])
		d1 := binary.LittleEndian.Uint32(w[4:])
		if d0 == tableLen && d1 > d0 && d1-d0 <= sectorSize {
			return key + 1, true
		}
	}
	return 0, false
}
