package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mpq"
	"github.com/spf13/cobra"
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
	var asJSON bool
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
examined, "error". Keys are only ever added, never renamed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := mpq.Open(args[0], budget.Limits{})
			if err != nil {
				return err
			}
			defer a.Close()
			rep := archiveListing(args[0], a)
			if asJSON {
				b, err := json.MarshalIndent(rep, "", "  ")
				if err != nil {
					return err
				}
				_, err = cmd.OutOrStdout().Write(append(b, '\n'))
				return err
			}
			for _, w := range rep.Warnings {
				fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: warning: %s: %s\n", args[0], w)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "SIZE\tSTORED\tLOCALE\tFLAGS\tCOMPRESSION\tNAME")
			for _, f := range rep.Files {
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
				fmt.Fprintf(tw, "%d\t%d\t%#x\t%s\t%s\t%s\n", f.Size, f.CompressedSize, f.Locale, strings.Join(flags, ","), comp, f.Name)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d files\n", len(rep.Files))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of text")
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
	Name           string   `json:"name"`
	Named          bool     `json:"named"`
	Block          int      `json:"block"`
	Locale         uint16   `json:"locale"`
	Size           int64    `json:"size"`
	CompressedSize int64    `json:"compressed_size"`
	Flags          []string `json:"flags"`
	Compression    []string `json:"compression"`
	Error          string   `json:"error,omitempty"`
}

func archiveListing(path string, a *mpq.Archive) archiveReport {
	h := a.Header()
	rep := archiveReport{
		Archive: path,
		Header: archiveHeader{
			Offset: h.Offset, Format: h.Version(), Map: h.Map, SectorSize: h.SectorSize,
			HashTableEntries: h.HashTableEntries, BlockTableEntries: h.BlockTableEntries, BlockEntriesRead: h.BlockEntriesRead,
		},
		Warnings: a.Warnings(),
		Files:    []archiveEntry{},
	}
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	for _, f := range a.Files() {
		e := archiveEntry{
			Name: entryName(f), Named: f.Name != "", Block: f.BlockIndex, Locale: f.Locale,
			Size: f.Size, CompressedSize: f.CompressedSize, Flags: mpq.FlagNames(f.Flags), Compression: []string{},
		}
		cs, err := f.Compressions()
		for _, c := range cs {
			e.Compression = append(e.Compression, c.String())
		}
		if err != nil {
			e.Error = err.Error()
		}
		rep.Files = append(rep.Files, e)
	}
	return rep
}

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
	var outDir string
	cmd := &cobra.Command{
		Use:   "extract ARCHIVE [NAME...] -o DIR",
		Short: "Extract files from an archive into a folder",
		Long: `Write files of an MPQ archive into DIR: every file when no NAME is given,
else the named ones (found by the hash of the name, so a file no listfile
mentions can still be named; case and '/' versus '\' do not matter).

Archive paths are made safe before anything is written: '\' becomes '/',
empty and "." elements are dropped, and a name with a ".." element or a
drive letter is refused. Of several locale variants of one name only the one
the game would pick (neutral first) is written. Each file is written to a
temporary file beside its target and renamed into place, so an interrupted
run leaves no half-written file. A file that cannot be read is reported on
stderr and the others are still extracted; the exit status is then 1.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if outDir == "" {
				return errors.New("archive extract: -o DIR is required")
			}
			a, err := mpq.Open(args[0], budget.Limits{})
			if err != nil {
				return err
			}
			defer a.Close()
			var files []*mpq.File
			failed := 0
			if len(args) > 1 {
				for _, name := range args[1:] {
					f, ok := a.Lookup(name)
					if !ok {
						fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: %s: %s: not in the archive\n", args[0], name)
						failed++
						continue
					}
					files = append(files, f)
				}
			} else {
				files = extractAll(a)
			}
			written := 0
			var x extractor
			for _, f := range files {
				name := entryName(f)
				rel, err := safeArchivePath(name)
				if err == nil {
					err = x.write(f, filepath.Join(outDir, rel))
				}
				if err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "mdxrender: %s\n", describeArchiveErr(args[0], name, err))
					failed++
					continue
				}
				written++
			}
			if err := x.files.Sync(); err != nil {
				return fmt.Errorf("archive extract: flushing to disk: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "extracted %d files to %s\n", written, outDir)
			if failed > 0 {
				return exitCodeError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&outDir, "output", "o", "", "folder to write into (created if missing)")
	return cmd
}

// describeArchiveErr names the archive and file unless the error already
// does (the reader's own errors do).
func describeArchiveErr(archive, name string, err error) string {
	var fe *mpq.FormatError
	var ue *mpq.UnsupportedError
	var be *budget.Error
	if errors.As(err, &fe) || errors.As(err, &ue) || errors.As(err, &be) {
		return err.Error()
	}
	return fmt.Sprintf("%s: %s: %v", archive, name, err)
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

// safeArchivePath turns an archive name into a relative path that stays
// inside the output folder.
func safeArchivePath(name string) (string, error) {
	var elems []string
	for _, e := range strings.Split(strings.ReplaceAll(name, "\\", "/"), "/") {
		switch {
		case e == "" || e == ".":
			continue
		case e == "..":
			return "", fmt.Errorf("refusing a path that climbs out of the output folder")
		case strings.ContainsRune(e, 0) || len(e) >= 2 && e[1] == ':':
			return "", fmt.Errorf("refusing a path with a drive letter or NUL byte")
		}
		elems = append(elems, e)
	}
	if len(elems) == 0 {
		return "", fmt.Errorf("empty path")
	}
	return filepath.Join(elems...), nil
}

// wholeFileLimit is the size up to which a file is read in one piece
// before it is written; larger ones are streamed a sector at a time.
const wholeFileLimit = 16 << 20

// extractor writes files under a folder, each whole or not at all, so an
// interrupted run never leaves a half-written file under the final name;
// they are flushed to disk together at the end.
type extractor struct {
	made  map[string]bool // folders already created
	files atomicfile.Group
}

func (x *extractor) write(f *mpq.File, path string) error {
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
	dir := filepath.Dir(path)
	if !x.made[dir] {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if x.made == nil {
			x.made = map[string]bool{}
		}
		x.made[dir] = true
	}
	return x.files.Write(context.Background(), path, func(w io.Writer) error {
		_, err := io.Copy(w, src)
		return err
	})
}
