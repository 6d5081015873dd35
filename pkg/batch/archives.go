package batch

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mdxrender/mdxrender/internal/archivepath"
	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/mpq"
)

// An archive named as an input — a packed map (.w3x, .w3m) or an .mpq —
// stands for every model in it, and "map.w3x:path/in/map.mdx" for one of
// them. Their input keys are "map.w3x:path/in/map.mdx" (the archive's key
// as a file's, then the path inside), so shards and caches tell them from
// loose files; output names use the path inside the archive.
//
// An archive's names are a stranger's. A name with empty or "." elements
// or a leading separator ("units\\\foot.mdx", "\units\foot.mdx") is made
// plain (archivepath.Clean) and the model is rendered under that name,
// unless another model of the archive already has it; a name with a ".."
// element, a drive letter or a NUL byte is not taken. Every model left
// out is listed in the manifest's Skipped, with the reason.

// maxEntryName bounds an archive entry's name in a message.
const maxEntryName = 200

// archiveInput reports whether a loose input names an archive or a file
// inside one.
func archiveInput(p string) bool {
	if _, _, ok := archivepath.Split(p); ok {
		return true
	}
	return archivepath.IsArchive(p)
}

// openArchiveInput opens the archive an input names and returns its
// inputs: every model in it, or the one file named inside it; warn is
// told of each model left out. The archive is added to arch, which
// closes it.
func (o *Options) openArchiveInput(p string, arch *archives, warn func(string)) ([]Input, error) {
	name, inner, one := archivepath.Split(p)
	if !one {
		name = p
	}
	a, err := mpq.Open(name, o.Limits)
	if err != nil {
		return nil, err
	}
	*arch = append(*arch, a)
	key := filepath.ToSlash(filepath.Clean(name))
	if one {
		if _, err := a.Stat(inner); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		in := Input{FS: a, Name: inner, Path: archivepath.Join(name, inner), Key: archivepath.Join(key, inner), Rel: inner}
		if f, ok := a.Lookup(inner); ok {
			in.Entry = f
		}
		return []Input{in}, nil
	}
	type entry struct {
		f     *mpq.File
		rel   string
		plain bool // the archive spells it as rel
	}
	var ents []entry
	for _, f := range a.Files() {
		if f.Name == "" {
			continue // no name to give its outputs
		}
		slashed := strings.ReplaceAll(f.Name, `\`, "/")
		if !o.hasExt(strings.TrimRight(slashed, "/")) {
			continue
		}
		if g, ok := a.Lookup(f.Name); ok && g.HashIndex != f.HashIndex {
			continue // a locale variant: the model is the one Lookup picks
		}
		rel, err := archivepath.Clean(f.Name)
		if err != nil {
			warn(fmt.Sprintf("%s: %v; skipped", archivepath.Join(name, clip.Display(f.Name, maxEntryName)), err))
			continue
		}
		ents = append(ents, entry{f, rel, rel == slashed})
	}
	// A name the archive spells plainly keeps its outputs; one made plain
	// gets its plain name only if no other model has it.
	sort.SliceStable(ents, func(i, j int) bool { return ents[i].plain && !ents[j].plain })
	owner := map[string]string{} // upper-case name: names are case-blind in an archive
	var out []Input
	for _, e := range ents {
		k := strings.ToUpper(e.rel)
		if prev, taken := owner[k]; taken {
			warn(fmt.Sprintf("%s: made plain, its name is %s, which %s has already; skipped",
				archivepath.Join(name, clip.Display(e.f.Name, maxEntryName)), clip.Display(e.rel, maxEntryName), clip.Display(prev, maxEntryName)))
			continue
		}
		owner[k] = e.f.Name
		out = append(out, Input{FS: a, Name: e.rel, Entry: e.f, Path: archivepath.Join(name, e.rel), Key: archivepath.Join(key, e.rel), Rel: e.rel})
	}
	return out, nil
}

// archives are the archives opened for the inputs.
type archives []*mpq.Archive

func (a *archives) close() {
	for _, x := range *a {
		x.Close()
	}
	*a = nil
}

// entryFS holds one archive entry under the name the batch gives it, so
// that it reads as any input does (model.ReadFS) whatever the archive's
// own spelling of its name.
type entryFS struct {
	f    *mpq.File
	name string
}

func (e entryFS) Stat(name string) (fs.FileInfo, error) {
	if name != e.name {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return entryInfo(e), nil
}

func (e entryFS) Open(name string) (fs.File, error) {
	if name != e.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	rc, err := e.f.Open()
	if err != nil {
		return nil, err
	}
	return entryFile{rc, entryInfo(e)}, nil
}

type entryFile struct {
	io.ReadCloser
	info entryInfo
}

func (f entryFile) Stat() (fs.FileInfo, error) { return f.info, nil }

// entryInfo describes an archive entry as a read-only regular file.
type entryInfo entryFS

func (i entryInfo) Name() string       { return path.Base(i.name) }
func (i entryInfo) Size() int64        { return i.f.Size }
func (i entryInfo) Mode() fs.FileMode  { return 0o444 }
func (i entryInfo) ModTime() time.Time { return time.Time{} }
func (i entryInfo) IsDir() bool        { return false }
func (i entryInfo) Sys() any           { return nil }
