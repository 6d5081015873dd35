package texture

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Warning describes a texture a render went on without: the path the
// model asked for, where it was looked for and what went wrong. The
// library returns warnings; the CLI prints them.
type Warning struct {
	Path     string   // as stored in the model ("" for a replaceable id)
	Searched []string // files tried, in order
	Reason   string
}

func (w Warning) String() string {
	s := fmt.Sprintf("texture %q: %s", w.Path, w.Reason)
	if len(w.Searched) > 0 {
		s += " (looked for " + strings.Join(w.Searched, ", ") + ")"
	}
	return s
}

// Request names one texture of a model.
type Request struct {
	// ModelDir is the folder of the model file; it is searched as a root.
	ModelDir string
	// Path is the TEXS file name, e.g. `Textures\Footman.blp`.
	Path string
	// ReplaceableID is the TEXS replaceable id, used when Path is empty.
	ReplaceableID uint32
	// HD is true for Reforged models (version > 800), which look for .dds
	// replaceable textures first.
	HD bool
}

// Resolver finds and loads the textures models refer to. The model's
// folder is searched first, so a texture shipped beside a model wins over a
// shared library of the same name; then the configured Roots in order.
// RootsFirst reverses this to the order of the reference harness
// (../shared/tools/peer/README.md), for pixel comparisons with it. Each
// root is tried as DIR/<path> then DIR/<basename>, with case-insensitive
// matching and extension substitution (.blp/.tga/.png/.dds/.jpg stand in
// for one another).
//
// A path never leads outside the roots: absolute paths, drive letters and
// ".." components are refused, and a symbolic link whose target lies
// outside the root it was found in is not followed. A Resolver may be used
// from several goroutines once configured. It remembers directory listings
// for its lifetime (a batch over thousands of models reads each folder
// once), so files added to the roots later are seen by a new Resolver.
type Resolver struct {
	Roots []string
	// RootsFirst searches Roots before the model's folder, as the
	// reference harness does.
	RootsFirst bool
	// Team is the player (0-23, or TeamNeutral) for team colour and glow.
	Team int
	// Cache, when set, shares decoded textures between loads.
	Cache *Cache
	// Options bound decoding.
	Options Options

	mu   sync.Mutex
	dirs map[string][]string // directory listings, for case-insensitive lookup
}

// textureExts are the extensions that stand in for one another.
var textureExts = []string{".blp", ".tga", ".png", ".dds", ".jpg"}

// splitModelPath turns a model's texture path into clean components,
// refusing anything that could leave a search root.
func splitModelPath(p string) ([]string, error) {
	s := strings.ReplaceAll(p, `\`, "/")
	switch {
	case s == "":
		return nil, errors.New("empty path")
	case strings.HasPrefix(s, "/"):
		return nil, errors.New("absolute path refused")
	case strings.Contains(s, ":"):
		return nil, errors.New("drive letter or stream name refused")
	case strings.ContainsRune(s, 0):
		return nil, errors.New("NUL byte in path refused")
	}
	var parts []string
	for _, c := range strings.Split(s, "/") {
		switch c {
		case "", ".":
			continue
		case "..":
			return nil, errors.New("\"..\" component refused")
		}
		parts = append(parts, c)
	}
	if len(parts) == 0 {
		return nil, errors.New("empty path")
	}
	return parts, nil
}

// roots returns the search roots for a model, in order.
func (r *Resolver) roots(modelDir string) []string {
	var out []string
	if modelDir != "" && !r.RootsFirst {
		out = append(out, modelDir)
	}
	out = append(out, r.Roots...)
	if modelDir != "" && r.RootsFirst {
		out = append(out, modelDir)
	}
	return out
}

// nameVariants lists the file names to try for a last component: itself,
// then the other texture extensions.
func nameVariants(name string) []string {
	ext := strings.ToLower(filepath.Ext(name))
	out := []string{name}
	for _, e := range textureExts {
		if e == ext {
			stem := name[:len(name)-len(ext)]
			for _, alt := range textureExts {
				if alt != ext {
					out = append(out, stem+alt)
				}
			}
			break
		}
	}
	return out
}

// Find returns the file a model path resolves to, and the candidate
// locations in the order they were tried (for warnings).
func (r *Resolver) Find(modelDir, path string) (string, []string, error) {
	parts, err := splitModelPath(path)
	if err != nil {
		return "", nil, err
	}
	var tried []string
	var symlinkErr error
	for _, root := range r.roots(modelDir) {
		forms := [][]string{parts}
		if len(parts) > 1 {
			forms = append(forms, parts[len(parts)-1:])
		}
		for _, form := range forms {
			tried = append(tried, filepath.Join(append([]string{root}, form...)...))
			found, ok := r.lookup(root, form)
			if !ok {
				continue
			}
			if err := confined(root, found); err != nil {
				symlinkErr = err
				continue
			}
			return found, tried, nil
		}
	}
	if symlinkErr != nil {
		return "", tried, symlinkErr
	}
	return "", tried, os.ErrNotExist
}

// lookup matches the components under root without regard to case (an
// exact match wins), trying extension variants for the file name.
func (r *Resolver) lookup(root string, parts []string) (string, bool) {
	dir := root
	for _, c := range parts[:len(parts)-1] {
		name, ok := r.match(dir, c, true)
		if !ok {
			return "", false
		}
		dir = filepath.Join(dir, name)
	}
	for _, v := range nameVariants(parts[len(parts)-1]) {
		if name, ok := r.match(dir, v, false); ok {
			return filepath.Join(dir, name), true
		}
	}
	return "", false
}

// match finds name in dir, exactly or else case-insensitively, as a
// directory or a regular file.
func (r *Resolver) match(dir, name string, wantDir bool) (string, bool) {
	names := r.list(dir)
	pick := ""
	for _, n := range names {
		if n == name {
			pick = n
			break
		}
		if pick == "" && strings.EqualFold(n, name) {
			pick = n
		}
	}
	if pick == "" {
		return "", false
	}
	st, err := os.Stat(filepath.Join(dir, pick))
	if err != nil || st.IsDir() != wantDir || (!wantDir && !st.Mode().IsRegular()) {
		return "", false
	}
	return pick, true
}

func (r *Resolver) list(dir string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if names, ok := r.dirs[dir]; ok {
		return names
	}
	var names []string
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			names = append(names, e.Name())
		}
	}
	if r.dirs == nil {
		r.dirs = map[string][]string{}
	}
	r.dirs[dir] = names
	return names
}

// confined checks that file, with symbolic links resolved, lies in root.
func confined(root, file string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	realFile, err := filepath.EvalSymlinks(file)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(realRoot, realFile)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("%s is a link to %s, outside %s: not followed", file, realFile, root)
	}
	return nil
}

// Load finds and decodes the texture a model asks for. It never fails:
// anything missing or unreadable becomes a stand-in texture (2×2 white; a
// generated colour or glow for team colour and glow without files) and,
// where the model's data was at fault, a warning.
func (r *Resolver) Load(req Request) (*Texture, []Warning) {
	path := req.Path
	if path == "" {
		switch req.ReplaceableID {
		case 0:
			return WhiteTexture(), []Warning{{Reason: "texture has neither a path nor a replaceable id"}}
		case 21: // cursor models: no texture by design
			return WhiteTexture(), nil
		}
		rp, ok := ReplaceablePath(req.ReplaceableID, r.Team, req.HD)
		if !ok {
			return WhiteTexture(), []Warning{{Reason: fmt.Sprintf("unknown replaceable id %d", req.ReplaceableID)}}
		}
		path = rp
	}
	file, tried, err := r.Find(req.ModelDir, path)
	if err != nil {
		if req.Path == "" && (req.ReplaceableID == ReplaceableTeamColor || req.ReplaceableID == ReplaceableTeamGlow) {
			return r.teamStandIn(req.ReplaceableID)
		}
		reason := "not found"
		if !errors.Is(err, os.ErrNotExist) {
			reason = err.Error()
		}
		return WhiteTexture(), []Warning{{Path: path, Searched: tried, Reason: reason}}
	}
	var tex *Texture
	if r.Cache != nil {
		tex, err = r.Cache.Load(file, &r.Options)
	} else {
		tex, err = DecodeFile(file, &r.Options)
	}
	if err != nil {
		return WhiteTexture(), []Warning{{Path: path, Reason: "cannot decode: " + err.Error()}}
	}
	var warns []Warning
	if tex.LevelErr != nil {
		warns = append(warns, Warning{Path: path, Reason: "mip chain cut short: " + tex.LevelErr.Error()})
	}
	return tex, warns
}

func (r *Resolver) teamStandIn(id uint32) (*Texture, []Warning) {
	rgb, ok := TeamColorRGB(r.Team)
	var warns []Warning
	if !ok {
		rgb = teamRGB[TeamNeutral]
		warns = append(warns, Warning{Reason: fmt.Sprintf("team %d has no built-in colour; using neutral", r.Team)})
	}
	if id == ReplaceableTeamGlow {
		return TeamGlowTexture(rgb), warns
	}
	return TeamColorTexture(rgb), warns
}
