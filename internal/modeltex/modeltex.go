// Package modeltex says where a model's own textures are looked for —
// its folder, then the root of the map it is part of — and builds the
// texture lookup of a model from them and the caller's sources, for the
// front door (mdxrender.Open) and the batch alike, so that both find the
// same textures for the same file.
package modeltex

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/mdxrender/mdxrender/internal/archivepath"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mpq"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Textures is the texture lookup of a model whose own places are local:
// sources first (a reskin wins), then local, then fallback (the game's
// data), decoded into cache within lim.
func Textures(local, sources, fallback []texture.Source, cache *texture.Cache, lim budget.Limits) render.Textures {
	res := &texture.Resolver{Sources: sources, Fallback: fallback, Cache: cache, Options: texture.OptionsWithin(lim)}
	return render.Textures{Local: local, Resolver: res}
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

// Local are the places a model's own textures are looked for: its
// folder dir, then the root of the map it is part of, found no higher
// than top (mapRoot).
func Local(dir, top string) []texture.Source {
	local := []texture.Source{texture.Folder(dir)}
	if root, ok := mapRoot(dir, top); ok {
		if abs, _ := filepath.Abs(dir); abs != root {
			local = append(local, texture.Folder(root))
		}
	}
	return local
}

// LocalFS are the places a model inside a file system looks for its
// textures: its folder there, then the root of the map it is part of:
// an archive's root (a packed map's, or an MPQ's whose paths are the
// game's), or a folder of the tree that is an unpacked map.
func LocalFS(name string, fsys fs.FS, inner string) []texture.Source {
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
