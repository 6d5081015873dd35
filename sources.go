package mdxrender

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mdxrender/mdxrender/internal/archivepath"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mpq"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Sources are texture sources opened from paths — folders, maps and MPQ
// archives — in the order they are searched. Close closes the archives
// among them; the sources must not be used afterwards.
type Sources struct {
	List     []texture.Source
	archives []*mpq.Archive
}

// OpenSources opens each path as a texture source: a folder on disk, or
// an archive (a packed map .w3x/.w3m, or an .mpq). A folder whose name
// ends in .w3x or .w3m is an unpacked map and is searched as a folder.
func OpenSources(paths ...string) (*Sources, error) {
	s := &Sources{}
	for _, p := range paths {
		if err := s.add(p); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

func (s *Sources) add(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("texture source: %w", err)
	}
	if st.IsDir() {
		s.List = append(s.List, texture.Folder(p))
		return nil
	}
	a, err := mpq.Open(p, budget.Limits{})
	if err != nil {
		return fmt.Errorf("texture source: %w", err)
	}
	s.archives = append(s.archives, a)
	s.List = append(s.List, texture.FSSource(p, a, ""))
	return nil
}

// Append adds the sources of t after s's and returns s; closing s closes
// both.
func (s *Sources) Append(t *Sources) *Sources {
	s.List = append(s.List, t.List...)
	s.archives = append(s.archives, t.archives...)
	return s
}

// Close closes the archives.
func (s *Sources) Close() error {
	var errs []error
	for _, a := range s.archives {
		errs = append(errs, a.Close())
	}
	s.archives = nil
	return errors.Join(errs...)
}

// gameArchives are the archives of a classic Warcraft III install (up to
// 1.31), in the order the game looks into them: the patch first, then the
// expansion's localised and common data, then the original game's.
var gameArchives = []string{"War3Patch.mpq", "War3xLocal.mpq", "War3x.mpq", "War3.mpq"}

// OpenGameData opens the game's own files, where models find the stock
// textures they name (Textures\, ReplaceableTextures\, Units\...): dir is
// either a classic install, whose MPQs are searched in the game's order
// (War3Patch, War3xLocal, War3x, War3; those present), or a folder of
// files extracted from the game laid out as the game lays them out (the
// way Reforged's CASC data is extracted today), searched as a folder; a
// war3.w3mod folder inside it is searched too.
func OpenGameData(dir string) (*Sources, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("game data: %w", err)
	}
	names := map[string]string{} // lower case → as spelled
	for _, e := range ents {
		names[strings.ToLower(e.Name())] = e.Name()
	}
	var paths []string
	for _, g := range gameArchives {
		if n, ok := names[strings.ToLower(g)]; ok {
			paths = append(paths, filepath.Join(dir, n))
		}
	}
	if len(paths) == 0 {
		paths = []string{dir}
		if n, ok := names["war3.w3mod"]; ok {
			paths = append(paths, filepath.Join(dir, n))
		}
	}
	return OpenSources(paths...)
}

// OpenFile opens the file at path — on disk, or inside an archive as
// "map.w3x:path/inside" — for reading as a texture.File (File.ReadFile,
// File.Decode). Close the returned io.Closer when done. A symbolic link
// given as path is followed wherever it leads (the caller named it), and
// the File is then named by its target; the file is still refused, by
// File.ReadFile, unless it is a regular file.
func OpenFile(path string) (texture.File, io.Closer, error) {
	arch, inner, ok := archivepath.Split(path)
	if !ok {
		abs, err := filepath.Abs(path)
		if err != nil {
			return texture.File{}, nil, err
		}
		// A Folder source does not follow a link out of its folder.
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		return texture.File{Source: texture.Folder(filepath.Dir(abs)), Name: filepath.Base(abs)}, io.NopCloser(nil), nil
	}
	a, err := mpq.Open(arch, budget.Limits{})
	if err != nil {
		return texture.File{}, nil, err
	}
	return texture.File{Source: texture.FSSource(arch, a, ""), Name: inner}, a, nil
}

// modelExts are the file name endings of model files.
var modelExts = [...]string{".mdx", ".mdl", ".m2"}

// ModelExts returns the file name endings of model files, ".mdx", ".mdl"
// and ".m2", by which archive listings and a batch's inputs pick models.
func ModelExts() []string { return slices.Clone(modelExts[:]) }

// ArchiveModels lists the model files (by ModelExts) an archive holds, as
// "archive:path/inside" paths Open reads, in the archive's name order.
func ArchiveModels(archive string) ([]string, error) {
	a, err := mpq.Open(archive, budget.Limits{})
	if err != nil {
		return nil, err
	}
	defer a.Close()
	var out []string
	err = fs.WalkDir(a, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !slices.ContainsFunc(modelExts[:], func(x string) bool { return strings.EqualFold(path.Ext(name), x) }) {
			return err
		}
		out = append(out, archivepath.Join(archive, name))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", archive, err)
	}
	return out, nil
}

// IsArchive reports whether path names an archive by its extension: a
// packed map (.w3x, .w3m) or an MPQ (.mpq).
func IsArchive(path string) bool { return archivepath.IsArchive(path) }
