// Package mdx reads and writes Warcraft III models: the binary MDX format
// (versions 800, 900, 1000, 1100 and 1200) and, in the mdl*.go files, the MDL text
// format. Both map onto the same plain Go structs (Model and the types it
// holds), which mirror the chunks of the MDX file one for one. The MDX
// dialect of the early World of Warcraft clients (versions 1300, 1400 and
// 1500, see dialect.go) decodes into the same types, with its few extra
// fields; M2 files live in package m2, which converts into these types too.
//
// Decoding works straight from a byte slice: every count and inclusive size is
// checked against the bytes that remain before anything is allocated, and a
// malformed file yields a *FormatError naming the chunk and byte offset.
// Decode, then Encode, of an unmodified model gives back the original bytes:
// the decoder remembers file-level details the public types do not show
// (chunk order, unknown chunks and track tags, bytes after the NUL of
// fixed-size strings, padding inside records) in unexported fields. A Model
// built from scratch has none of that and encodes in the canonical chunk order
// (VERS, MODL, SEQS, GLBS, MTLS, TEXS, TXAN, GEOS, GEOA, BONE, LITE, HELP,
// ATCH, PIVT, PREM, PRE2, CORN, RIBB, CAMS, EVTS, CLID, FAFX, BPOS, SNDS).
//
// Values are kept exactly as the MDX stores them. In particular static colours
// are in the MDX component order; the MDL text format writes static colours
// reversed, and the MDL code does that swap. Animated values whose node or
// material also has a static value are represented twice: the static field
// (e.g. Layer.Alpha) and an optional track (Layer.AlphaTrack); a nil track
// means the tag is absent from the file.
package mdx
