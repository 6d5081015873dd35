package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender/internal/archivepath"
	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mpq"
)

func newArchiveCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "archive",
		Short: "List and extract MPQ archives (.mpq, packed .w3m/.w3x maps)",
		Long: `Read Blizzard MPQ archives: the game's War3*.mpq files and packed maps.
Names come from the archive's (listfile), the map's war3map.imp and the
standard map file names; an entry no name is known for is shown and
extracted as FileNNNNNNNN.ext, where NNNNNNNN is its block index and ext is
guessed from its first bytes (as StormLib names them).`,
	}
	cmd.AddCommand(newArchiveLsCmd(), newArchiveExtractCmd())
	return cmd
}

func newArchiveLsCmd() *cobra.Command {
	var (
		asJSON bool
		lf     limitFlags
	)
	cmd := &cobra.Command{
		Use:   "ls ARCHIVE",
		Short: "List the files in an archive: name, sizes, flags, compression, locale",
		Long: `List every file entry of an MPQ archive in block table order: its size,
its stored (compressed) size, its block flags, how its sectors are stored
(zlib, pkware, implode, bzip2, stored, ...) and its locale (0 = neutral).
Problems found while opening (clipped tables, overridden header fields,
entries pointing nowhere) are printed on stderr as warnings.

With --json the output is one object: "archive", "header" (offset, format,
sector size, table sizes), "warnings" and "files", each file with "name",
"named" (false for a FileNNNNNNNN name), "block", "locale", "size",
"compressed_size", "flags", "compression" and, when its sectors cannot be
examined, "error". Names are printed as the archive spells them, except
that the text listing escapes control characters and bytes that are not
UTF-8 (as \x1b) and clips a name past 200 bytes, and the JSON clips a name
past 4096 bytes and then says so with "name_clipped": true (JSON itself
replaces bytes that are not UTF-8 with U+FFFD). Warnings and errors are
escaped and clipped in both. Keys are only ever added, never renamed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lim, err := lf.limits()
			if err != nil {
				return usageError{err}
			}
			a, err := mpq.Open(args[0], lim)
			if err != nil {
				return limitHint(err)
			}
			defer a.Close()
			if asJSON {
				return writeListingJSON(cmd.OutOrStdout(), args[0], a)
			}
			for _, w := range archiveHead(args[0], a).Warnings {
				// The message is escaped by archiveHead already.
				fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: warning: %s: %s: %s\n", clip.Display(args[0], maxMessage), ArchiveProblem, w)
			}
			// The listing is written as it is made, its columns aligned a
			// thousand lines at a time: an archive of hundreds of
			// thousands of entries must not be held in memory to be shown.
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "SIZE\tSTORED\tLOCALE\tFLAGS\tCOMPRESSION\tNAME")
			n := 0
			err = archiveEntries(a, func(f archiveEntry) error {
				// Sectors of one file may be stored differently; a file
				// whose sectors cannot be examined shows "?".
				comp := strings.Join(f.Compression, ",")
				if f.Error != "" {
					comp = "?"
				}
				var flags []string
				for _, fl := range f.Flags {
					if fl != "exists" {
						flags = append(flags, fl)
					}
				}
				fmt.Fprintf(tw, "%d\t%d\t%#x\t%s\t%s\t%s\n", f.Size, f.CompressedSize, f.Locale, strings.Join(flags, ","), comp, clip.Display(f.Name, maxName))
				if n++; n%1000 == 0 {
					return tw.Flush()
				}
				return nil
			})
			if err == nil {
				err = tw.Flush()
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d files\n", n)
			return nil
		},
	}
	addShared(cmd.Flags(), "archive ls", "json", &asJSON)
	lf.register(cmd.Flags(), "archive ls")
	return cmd
}

// archiveReport is the --json output of archive ls.
type archiveReport struct {
	Archive  string         `json:"archive"`
	Header   archiveHeader  `json:"header"`
	Warnings []string       `json:"warnings"`
	Files    []archiveEntry `json:"files"`
}

type archiveHeader struct {
	Offset            int64  `json:"offset"`
	Format            int    `json:"format"`
	Map               bool   `json:"map"`
	SectorSize        uint32 `json:"sector_size"`
	HashTableEntries  uint32 `json:"hash_table_entries"`
	BlockTableEntries uint32 `json:"block_table_entries"`
	BlockEntriesRead  uint32 `json:"block_entries_read"`
}

type archiveEntry struct {
	Name string `json:"name"`
	// NameClipped says that Name is the start of a longer name.
	NameClipped    bool     `json:"name_clipped,omitempty"`
	Named          bool     `json:"named"`
	Block          int      `json:"block"`
	Locale         uint16   `json:"locale"`
	Size           int64    `json:"size"`
	CompressedSize int64    `json:"compressed_size"`
	Flags          []string `json:"flags"`
	Compression    []string `json:"compression"`
	Error          string   `json:"error,omitempty"`
}

// archiveHead describes the archive but for its files.
func archiveHead(path string, a *mpq.Archive) archiveReport {
	h := a.Header()
	rep := archiveReport{
		Archive: path,
		Header: archiveHeader{
			Offset: h.Offset, Format: h.Version(), Map: h.Map, SectorSize: h.SectorSize,
			HashTableEntries: h.HashTableEntries, BlockTableEntries: h.BlockTableEntries, BlockEntriesRead: h.BlockEntriesRead,
		},
		Warnings: []string{},
		Files:    []archiveEntry{},
	}
	for _, w := range a.Warnings() {
		rep.Warnings = append(rep.Warnings, clip.Display(w, maxMessage))
	}
	return rep
}

// archiveEntries describes the archive's files to each, one at a time, as
// they are made, so that a listing of hundreds of thousands of entries is
// never held whole; it stops at each's first error and returns it.
func archiveEntries(a *mpq.Archive, each func(archiveEntry) error) error {
	for _, f := range a.Files() {
		e := archiveEntry{
			Name: entryName(f), Named: f.Name != "", Block: f.BlockIndex, Locale: f.Locale,
			Size: f.Size, CompressedSize: f.CompressedSize, Flags: mpq.FlagNames(f.Flags), Compression: []string{},
		}
		if len(e.Name) > maxJSONName {
			e.Name, e.NameClipped = clip.String(e.Name, maxJSONName), true
		}
		cs, err := f.Compressions()
		for _, c := range cs {
			e.Compression = append(e.Compression, c.String())
		}
		if err != nil {
			e.Error = clip.Display(err.Error(), maxMessage)
		}
		if err := each(e); err != nil {
			return err
		}
	}
	return nil
}

// writeListingJSON writes archive ls --json as json.MarshalIndent writes
// the whole report, its files written one by one as they are made.
func writeListingJSON(w io.Writer, path string, a *mpq.Archive) error {
	head, err := json.MarshalIndent(archiveHead(path, a), "", "  ")
	if err != nil {
		return err
	}
	// The report without files ends in `"files": []` and "}": its files go
	// between the brackets.
	const tail = "[]\n}"
	if !bytes.HasSuffix(head, []byte(tail)) {
		return fmt.Errorf("archive ls: unexpected JSON layout")
	}
	bw := bufio.NewWriter(w)
	bw.Write(head[:len(head)-len(tail)])
	bw.WriteString("[")
	n := 0
	err = archiveEntries(a, func(e archiveEntry) error {
		b, err := json.MarshalIndent(e, "    ", "  ")
		if err != nil {
			return err
		}
		if n > 0 {
			bw.WriteString(",")
		}
		n++
		bw.WriteString("\n    ")
		_, err = bw.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	if n > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

// maxJSONName bounds a name in archive ls --json, which is otherwise
// given whole: no real name comes near it.
const maxJSONName = 4096

// entryName is a file's name, or StormLib's FileNNNNNNNN.ext for an entry
// whose name is unknown.
func entryName(f *mpq.File) string {
	if f.Name != "" {
		return f.Name
	}
	return fmt.Sprintf("File%08d.%s", f.BlockIndex, sniffExt(f))
}

// sniffExt guesses an extension from a file's first bytes. Head decodes
// only those, so a listing of many unnamed entries costs little whatever
// their sectors hold.
func sniffExt(f *mpq.File) string {
	head, err := f.Head(16)
	if err != nil {
		return "xxx"
	}
	b := string(head)
	for _, m := range []struct{ magic, ext string }{
		{"MDLX", "mdx"}, {"BLP1", "blp"}, {"BLP2", "blp"}, {"BLP0", "blp"}, {"RIFF", "wav"},
		{"MD20", "m2"}, {"MD21", "m2"}, {"DDS ", "dds"}, {"\x89PNG", "png"}, {"ID3", "mp3"},
		{"W3do", "doo"}, {"W3E!", "w3e"}, {"MPQ\x1a", "mpq"}, {"MZ", "exe"},
	} {
		if strings.HasPrefix(b, m.magic) {
			return m.ext
		}
	}
	return "xxx"
}

func newArchiveExtractCmd() *cobra.Command {
	var (
		outDir string
		lf     limitFlags
	)
	cmd := &cobra.Command{
		Use:   "extract ARCHIVE [NAME...] -o DIR",
		Short: "Extract files from an archive into a folder",
		Long: `Write files of an MPQ archive into DIR: every file when no NAME is given,
else the named ones (found by the hash of the name, so a file no listfile
mentions can still be named; case and '/' versus '\' do not matter).

Archive paths are made safe before anything is written: '\' becomes '/',
empty and "." elements are dropped, and a name with a ".." element or a
drive letter is refused. Nothing is written through a symbolic link inside
DIR: a file whose folder inside DIR is a link (wherever it leads) is
refused, naming the link; a link in the place of a file is replaced by the
file. Of several locale variants of one name only the one the game would
pick (neutral first) is written. Each file is written to a temporary file
beside its target and renamed into place, so an interrupted run leaves no
half-written file.

What one extraction writes is bounded by --limit extract_bytes=N (default
1Gi; N may end in k, M, G or Ki, Mi, Gi): a file whose declared size does
not fit in what is left is refused before it is read, and one that grows
past it while written is stopped and removed. A file that cannot be read
or is refused is reported on stderr (the first 20, then how many more)
and the others are still extracted; the exit status is then 1.`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if outDir == "" {
				return usageErrorf("-o DIR is required: the folder the files are written into")
			}
			lim, err := lf.limits()
			if err != nil {
				return usageError{err}
			}
			max := lim.Get(budget.ExtractBytes)
			a, err := mpq.Open(args[0], lim)
			if err != nil {
				return err
			}
			defer a.Close()
			// An archive of a million entries must not make a million lines
			// of messages: past maxFailures, failures are only counted.
			stderr := cmd.ErrOrStderr()
			failed := 0
			fail := func(msg string) {
				if failed < maxFailures {
					fmt.Fprintf(stderr, "mdxrender: archive extract: %s\n", clip.Display(msg, maxMessage))
				}
				failed++
			}
			var files []*mpq.File
			if len(args) > 1 {
				for _, name := range args[1:] {
					f, ok := a.Lookup(name)
					if !ok {
						fail(fmt.Sprintf("%s: %s: not in the archive", args[0], name))
						continue
					}
					files = append(files, f)
				}
			} else {
				files = extractAll(a)
			}
			out, err := atomicfile.Create(outDir)
			if err != nil {
				return fmt.Errorf("archive extract: %w", err)
			}
			defer out.Close()
			x := extractor{archive: args[0], files: out.Group(), max: max}
			written := 0
			for _, f := range files {
				name := entryName(f)
				rel, err := archivepath.Clean(name)
				if err == nil {
					err = x.write(cmd.Context(), f, name, rel)
				}
				if err != nil {
					fail(describeArchiveErr(args[0], name, err))
					continue
				}
				written++
			}
			if err := x.files.Sync(); err != nil {
				return fmt.Errorf("archive extract: flushing to disk: %w", err)
			}
			if failed > maxFailures {
				fmt.Fprintf(stderr, "mdxrender: archive extract: %s: %d more files were not extracted (their messages left out)\n", clip.Display(args[0], maxMessage), failed-maxFailures)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "extracted %d files (%d bytes) to %s\n", written, x.used, outDir)
			if failed > 0 {
				return exitCodeError{code: 1}
			}
			return nil
		},
	}
	addShared(cmd.Flags(), "archive extract", "output", &outDir)
	lf.register(cmd.Flags(), "archive extract")
	return cmd
}

// ArchiveProblem is the code of archive ls's warnings about what it read
// around (clipped tables, overridden header fields, entries pointing
// nowhere).
const ArchiveProblem = "archive"

// maxFailures is how many failed files archive extract reports one by
// one.
const maxFailures = 20

// maxName bounds an archive entry's name in a listing: a hostile
// archive's names can be megabytes long.
const maxName = 200

// describeArchiveErr names the archive and file unless the error already
// does (the reader's own errors and budget refusals do), and says how to
// raise a limit that refused the file.
func describeArchiveErr(archive, name string, err error) string {
	var fe *mpq.FormatError
	var ue *mpq.UnsupportedError
	var be *budget.Error
	switch {
	case errors.As(err, &be):
		return limitHint(err).Error()
	case errors.As(err, &fe) || errors.As(err, &ue):
		return err.Error()
	}
	return fmt.Sprintf("%s: %s: %s", archive, name, describe(err))
}

// extractAll picks the entries to write when no names are given: every
// entry, but of a name's locale variants only the one Lookup picks.
func extractAll(a *mpq.Archive) []*mpq.File {
	var out []*mpq.File
	for _, f := range a.Files() {
		if f.Name != "" {
			if g, ok := a.Lookup(f.Name); ok && g.HashIndex != f.HashIndex {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// wholeFileLimit is the size up to which a file is read in one piece
// before it is written; larger ones are streamed a sector at a time.
const wholeFileLimit = 16 << 20

// extractor writes files into the output folder, each whole or not at
// all, so an interrupted run never leaves a half-written file under the
// final name; they are flushed to disk together at the end. It counts
// what it writes against max.
type extractor struct {
	archive   string
	files     *atomicfile.Group
	max, used int64
}

// write writes the file f, named name in the archive, as rel (a slash
// path) in the output folder: refused before it is read if its declared
// size does not fit in what is left of the budget, stopped (and its
// temporary file removed) if it grows past that while written.
func (x *extractor) write(ctx context.Context, f *mpq.File, name, rel string) error {
	if f.Size > x.max-x.used {
		return x.over(name, x.used+f.Size)
	}
	var src io.Reader
	if f.Size <= wholeFileLimit {
		b, err := f.ReadAll()
		if err != nil {
			return err
		}
		src = bytes.NewReader(b)
	} else {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		src = rc
	}
	return x.put(ctx, name, rel, src)
}

// put writes what src holds as rel, counting it against the budget while
// it is written.
func (x *extractor) put(ctx context.Context, name, rel string, src io.Reader) error {
	var n int64
	err := x.files.Write(ctx, rel, func(w io.Writer) error {
		var err error
		n, err = copyWithin(w, src, x.max-x.used)
		if err == errNoRoom {
			return x.over(name, x.used+n+1)
		}
		return err
	})
	if err != nil {
		return err
	}
	x.used += n
	return nil
}

// over is the refusal of the file name, which would make the extraction
// write total bytes.
func (x *extractor) over(name string, total int64) error {
	return &budget.Error{File: archivepath.Join(x.archive, name), Limit: budget.ExtractBytes, Max: x.max, Value: total,
		Used: x.used, What: "extracting it"}
}

// errNoRoom says that a source had more than the room copyWithin was given.
var errNoRoom = errors.New("more than the room left")

// copyWithin copies src to w if it holds at most room bytes, and returns
// errNoRoom, having copied room bytes, if it holds more.
func copyWithin(w io.Writer, src io.Reader, room int64) (int64, error) {
	n, err := io.Copy(w, io.LimitReader(src, room))
	if err != nil {
		return n, err
	}
	var one [1]byte
	if k, _ := io.ReadFull(src, one[:]); k > 0 {
		return n, errNoRoom
	}
	return n, nil
}
