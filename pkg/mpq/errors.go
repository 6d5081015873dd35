package mpq

import (
	"errors"
	"fmt"

	"github.com/mdxrender/mdxrender/internal/clip"
)

// archiveShown and nameShown are how an archive's path and a name inside
// it appear in messages: control characters escaped, and a name from the
// archive (or from a model naming a texture) clipped, so that a hostile
// name of a megabyte makes a line, not a megabyte of error.
func archiveShown(s string) string { return clip.Display(s, 4096) }
func nameShown(s string) string    { return clip.Display(s, clip.MaxQuote) }

// FormatError reports an archive, or a file inside one, that is not a valid
// MPQ or is damaged: a table that points past the end of the file, a sector
// that does not decompress, and the like.
type FormatError struct {
	Archive string // the archive's name as given to Open or NewReader
	File    string // the file inside the archive, or "" for the archive itself
	Offset  int64  // byte offset in the archive file where the problem was found, or -1
	Reason  string
}

func (e *FormatError) Error() string {
	where := archiveShown(e.Archive)
	if e.File != "" {
		where += ": " + nameShown(e.File)
	}
	if e.Offset >= 0 {
		return fmt.Sprintf("mpq: %s: at offset %#x: %s", where, e.Offset, e.Reason)
	}
	return fmt.Sprintf("mpq: %s: %s", where, e.Reason)
}

// UnsupportedError reports a valid-looking archive or file that uses a
// feature this package does not implement, such as a compression method
// (Huffman, ADPCM, LZMA) that Warcraft III archives use only for sound, or
// never.
type UnsupportedError struct {
	Archive string
	File    string
	What    string // what is not supported, e.g. "compression method Huffman+ADPCM mono (0x41)"
}

// inFile is what err says went wrong inside the file name, without the
// archive's and the file's names, which a warning about that file gives
// already.
func inFile(err error, name string) string {
	var fe *FormatError
	var ue *UnsupportedError
	switch {
	case errors.As(err, &fe) && (fe.File == "" || fe.File == name):
		if fe.Offset >= 0 {
			return fmt.Sprintf("at offset %#x: %s", fe.Offset, fe.Reason)
		}
		return fe.Reason
	case errors.As(err, &ue) && (ue.File == "" || ue.File == name):
		return "unsupported " + ue.What
	}
	return err.Error()
}

func (e *UnsupportedError) Error() string {
	where := archiveShown(e.Archive)
	if e.File != "" {
		where += ": " + nameShown(e.File)
	}
	return fmt.Sprintf("mpq: %s: unsupported %s", where, e.What)
}
