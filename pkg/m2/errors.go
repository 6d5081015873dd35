package m2

import (
	"errors"
	"fmt"
)

// FormatError reports a malformed M2 file: the block being read (e.g.
// "vertices", "view 0 submesh 3"), the byte offset and what was wrong.
type FormatError struct {
	Offset int64
	Block  string
	Reason string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("m2: %s at offset %#x: %s", e.Block, e.Offset, e.Reason)
}

// UnsupportedVersionError reports an MD20 file whose version is outside
// 256–263.
type UnsupportedVersionError struct {
	Version uint32
}

func (e *UnsupportedVersionError) Error() string {
	if e.Version >= 264 {
		return fmt.Sprintf("m2: unsupported M2 version %d (only 256-263; Wrath and later keep their views in .skin files)", e.Version)
	}
	return fmt.Sprintf("m2: unsupported M2 version %d (only 256-263)", e.Version)
}

// ErrNotM2 is returned when the input does not start with "MD20".
var ErrNotM2 = errors.New("m2: not an M2 file (no MD20 magic)")

// IsM2 reports whether b starts with the M2 magic "MD20" (any version).
func IsM2(b []byte) bool { return len(b) >= 4 && string(b[:4]) == "MD20" }
