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

// mapRoot returns the root of the unpacked map that folder dir lies in,
// as far as top, the folder the user named (a batch's input folder, or
// the folder of a model named on its own), lets it look: the nearest
// folder from dir up to top whose name ends in .w3x or .w3m or that holds
// war3map.w3i; failing that, a folder whose name ends in .w3x or .w3m
// among those the user wrote in top's own path
// ("maps/Hero.w3x/war3mapImported"), known by its name alone. Nothing
// above top is ever opened or statted: a model in a folder of uploads
// must not make the search read the folders that hold the uploads.
// Models inside a map name their textures from the map's root
// (war3mapImported\ models name Textures\x.blp kept at the root), as the
// game reads them.
func mapRoot(dir, top string) (string, bool) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	t, err := filepath.Abs(top)
	if err != nil {
		return "", false
	}
	for {
		if isMapName(d) {
			return d, true
		}
		if st, err := os.Stat(filepath.Join(d, "war3map.w3i")); err == nil && st.Mode().IsRegular() {
			return d, true
		}
		if d == t {
			break
		}
		up := filepath.Dir(d)
		if up == d || !strings.HasPrefix(d, t+string(filepath.Separator)) {
			return "", false // dir is not below top: look no further
		}
		d = up
	}
	// The folders the user wrote above top, by name only.
	for p := filepath.Clean(top); ; {
		up := filepath.Dir(p)
		if up == p || up == "." {
			return "", false
		}
		if p = up; isMapName(p) {
			abs, err := filepath.Abs(p)
			return abs, err == nil
		}
	}
}

// isMapName reports whether the folder p is an unpacked map by its name.
func isMapName(p string) bool {
	return archivepath.IsArchive(p) && !strings.EqualFold(filepath.Ext(p), ".mpq")
}

// localSources are the places a model's own textures are looked for: its
// folder dir, then the root of the map it is part of, found no higher
// than top (mapRoot).
func localSources(dir, top string) []texture.Source {
	local := []texture.Source{texture.Folder(dir)}
	if root, ok := mapRoot(dir, top); ok {
		if abs, _ := filepath.Abs(dir); abs != root {
			local = append(local, texture.Folder(root))
		}
	}
	return local
}

// fsLocal are the places a model inside a file system looks for its
// textures: its folder there, then the root of the map it is part of:
// an archive's root (a packed map's, or an MPQ's whose paths are the
// game's), or a folder of the tree that is an unpacked map.
func fsLocal(name string, fsys fs.FS, inner string) []texture.Source {
	dir := path.Dir(inner)
	local := []texture.Source{texture.FSSource(name, fsys, dir)}
	root, ok := "", false
	if _, isArchive := fsys.(*mpq.Archive); isArchive {
		root, ok = ".", true
	} else {
		root, ok = fsMapRoot(fsys, dir)
	}
	if ok && root != dir {
		local = append(local, texture.FSSource(name, fsys, root))
	}
	return local
}

// fsMapRoot is mapRoot inside a file system.
func fsMapRoot(fsys fs.FS, dir string) (string, bool) {
	for d := dir; ; d = path.Dir(d) {
		if archivepath.IsArchive(d) && !strings.EqualFold(path.Ext(d), ".mpq") {
			return d, true
		}
		if st, err := fs.Stat(fsys, path.Join(d, "war3map.w3i")); err == nil && st.Mode().IsRegular() {
			return d, true
		}
		if d == "." {
			return "", false
		}
	}
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

// ModelExts are the file name endings of model files, as batch inputs
// and archive listings pick models.
var ModelExts = []string{".mdx", ".mdl", ".m2"}

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
		if err != nil || e.IsDir() || !slices.ContainsFunc(ModelExts, func(x string) bool { return strings.EqualFold(path.Ext(name), x) }) {
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
