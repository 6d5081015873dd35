package batch

import (
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/mdxrender/mdxrender/internal/archivepath"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mpq"
)

// An archive named as an input — a packed map (.w3x, .w3m) or an .mpq —
// stands for every model in it, and "map.w3x:path/in/map.mdx" for one of
// them. Their input keys are "map.w3x:path/in/map.mdx" (the archive's key
// as a file's, then the path inside), so shards and caches tell them from
// loose files; output names use the path inside the archive.

// archiveInput reports whether a loose input names an archive or a file
// inside one.
func archiveInput(p string) bool {
	if _, _, ok := archivepath.Split(p); ok {
		return true
	}
	return archivepath.IsArchive(p)
}

// openArchiveInput opens the archive an input names and returns its
// inputs: every model in it, or the one file named inside it. The archive
// stays open until closeArchives.
func (c *Config) openArchiveInput(p string) ([]Input, error) {
	arch, inner, one := archivepath.Split(p)
	if !one {
		arch = p
	}
	a, err := mpq.Open(arch, budget.Limits{})
	if err != nil {
		return nil, err
	}
	c.archives = append(c.archives, a)
	key := filepath.ToSlash(filepath.Clean(arch))
	if one {
		if _, err := a.Stat(inner); err != nil {
			return nil, fmt.Errorf("%s: %w", arch, err)
		}
		return []Input{{FS: a, Name: inner, Path: archivepath.Join(arch, inner), Key: archivepath.Join(key, inner), Rel: inner}}, nil
	}
	var out []Input
	err = fs.WalkDir(a, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !c.hasExt(name) {
			return err
		}
		out = append(out, Input{FS: a, Name: name, Path: archivepath.Join(arch, name), Key: archivepath.Join(key, name), Rel: name})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arch, err)
	}
	return out, nil
}

// closeArchives closes the archives opened for the inputs.
func (c *Config) closeArchives() {
	for _, a := range c.archives {
		a.Close()
	}
	c.archives = nil
}
