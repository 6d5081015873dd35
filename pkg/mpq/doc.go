// Package mpq reads MPQ archives, the container Blizzard's games keep their
// data in: Warcraft III's War3.mpq and its patches, and every packed map
// (.w3m/.w3x), which is an MPQ behind a 512-byte "HM3W" header.
//
// The reader is written for what real Warcraft III archives contain rather
// than for the format as specified: the header is searched for at every
// 512-byte step, hash and block tables that run past the end of the file are
// clipped, header fields that map protectors fill with garbage are ignored in
// the same places StormLib (the reference implementation) ignores them, and a
// file is found by the hash of its name even when no listfile mentions it.
// Where StormLib and a more forgiving reading would return different bytes,
// this package returns StormLib's; docs/archives.md lists those cases.
//
// An *Archive is an fs.FS: names are case-blind and '\' and '/' are the same
// separator, so a model's "Textures\Foo.blp" opens as "Textures/Foo.blp".
// Reading is safe from several goroutines: every read goes through
// io.ReaderAt and no file position is shared.
//
// Hostile input (protected maps, corrupt saves, fuzzed bytes) gets a
// *FormatError or *UnsupportedError and never a panic. No allocation is
// sized from a count the file could lie about without that count first being
// checked against the file's size or the read limit (the ReadBytes of the
// budget.Limits the archive is opened with): a whole-file read of a file
// declared larger than the limit is refused with a *budget.Error rather
// than allocated; Open streams such a file one sector at a time instead,
// and File.Head reads the start of a file for the cost of that start.
package mpq
