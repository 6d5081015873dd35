package mpq

import "github.com/mdxrender/mdxrender/internal/mpqcrypt"

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
	key := mpqcrypt.Hash(plainName(name), mpqcrypt.FileKey)
	if flags&FlagFixKey != 0 {
		key = (key + uint32(pos)) ^ size
	}
	return key
}
