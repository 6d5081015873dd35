package mpq

import "encoding/binary"

// cryptTable is the 0x500-entry table behind MPQ's name hashes and its
// stream cipher. It is a pure function of a fixed seed, so it is computed
// once rather than stored.
var cryptTable = func() (t [0x500]uint32) {
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

// The four uses of hashString, selecting a quarter of cryptTable each.
const (
	hashTableIndex = 0x000 // start slot in the hash table
	hashNameA      = 0x100 // first check value stored in the hash entry
	hashNameB      = 0x200 // second check value
	hashFileKey    = 0x300 // encryption key
)

// Keys of the two encrypted tables: hashString("(hash table)", hashFileKey)
// and hashString("(block table)", hashFileKey).
const (
	hashTableKey  = 0xC3AF3770
	blockTableKey = 0xEC83B3A3
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

// hashString is Storm's one-way string hash; kind is one of the hash*
// constants above.
func hashString(s string, kind uint32) uint32 { return hashMore(hashStart, s, kind).seed1 }

// hashState is the hash part way through a string: hashing a name after a
// prefix goes on from the prefix's state, without joining the two.
type hashState struct{ seed1, seed2 uint32 }

var hashStart = hashState{0x7FED7FED, 0xEEEEEEEE}

// hashMore goes on hashing from h over s.
func hashMore[S ~string | ~[]byte](h hashState, s S, kind uint32) hashState {
	for i := 0; i < len(s); i++ {
		c := uint32(upperASCII(s[i]))
		h.seed1 = cryptTable[kind+c] ^ (h.seed1 + h.seed2)
		h.seed2 = c + h.seed1 + h.seed2 + h.seed2<<5 + 3
	}
	return h
}

// decryptBlock decrypts b in place with key. Only whole little-endian
// uint32 words are encrypted; the 0-3 trailing bytes are stored as they are.
func decryptBlock(b []byte, key uint32) {
	seed := uint32(0xEEEEEEEE)
	for i := 0; i+4 <= len(b); i += 4 {
		seed += cryptTable[0x400+(key&0xFF)]
		v := binary.LittleEndian.Uint32(b[i:]) ^ (key + seed)
		key = (^key<<0x15 + 0x11111111) | key>>0x0B
		seed = v + seed + seed<<5 + 3
		binary.LittleEndian.PutUint32(b[i:], v)
	}
}

// encryptBlock is decryptBlock's inverse; the package only reads archives,
// but tests use it to build encrypted inputs.
func encryptBlock(b []byte, key uint32) {
	seed := uint32(0xEEEEEEEE)
	for i := 0; i+4 <= len(b); i += 4 {
		seed += cryptTable[0x400+(key&0xFF)]
		v := binary.LittleEndian.Uint32(b[i:])
		binary.LittleEndian.PutUint32(b[i:], v^(key+seed))
		key = (^key<<0x15 + 0x11111111) | key>>0x0B
		seed = v + seed + seed<<5 + 3
	}
}

// plainName is the part of an archive path after its last separator: the
// file key is derived from it alone, so a file keeps its key when the folder
// it sits in is renamed.
func plainName(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '\\' || name[i] == '/' {
			return name[i+1:]
		}
	}
	return name
}

// fileKey returns the key of a file stored encrypted under name at MPQ
// offset pos with size bytes. FIX_KEY files mix their position and size into
// the key so that the same file stored twice encrypts differently.
func fileKey(name string, pos uint64, size uint32, flags uint32) uint32 {
	key := hashString(plainName(name), hashFileKey)
	if flags&FlagFixKey != 0 {
		key = (key + uint32(pos)) ^ size
	}
	return key
}

// detectKeyFromSectorTable recovers the key of an encrypted, sectored file
// whose name is unknown. The first word of its sector offset table is known
// in advance (the table's own length, tableLen), which pins the key down to
// at most 256 candidates; the second word must then be a plausible end of
// the first sector. It returns the file key (the table itself is encrypted
// with key-1) and whether one was found.
func detectKeyFromSectorTable(enc []byte, tableLen, sectorSize uint32) (uint32, bool) {
	if len(enc) < 8 {
		return 0, false
	}
	e0 := binary.LittleEndian.Uint32(enc)
	e1 := binary.LittleEndian.Uint32(enc[4:])
	want := e0 ^ tableLen
	for b := uint32(0); b < 0x100; b++ {
		// e0 = tableLen ^ (key + 0xEEEEEEEE + cryptTable[0x400+key&0xFF])
		key := want - 0xEEEEEEEE - cryptTable[0x400+b]
		if key&0xFF != b {
			continue
		}
		var w [8]byte
		binary.LittleEndian.PutUint32(w[:], e0)
		binary.LittleEndian.PutUint32(w[4:], e1)
		decryptBlock(w[:], key)
		d0 := binary.LittleEndian.Uint32(w[:])
		d1 := binary.LittleEndian.Uint32(w[4:])
		if d0 == tableLen && d1 > d0 && d1-d0 <= sectorSize {
			return key + 1, true
		}
	}
	return 0, false
}
