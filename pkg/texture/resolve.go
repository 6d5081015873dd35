package texture

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// Warning describes a texture a render went on without: the path the
// model asked for, where it was looked for and what went wrong. The
// library returns warnings; the CLI prints them.
type Warning struct {
	Kind     WarningKind
	Path     string   // as stored in the model ("" for a replaceable id)
	Searched []string // files tried, in order
	Reason   string
	// Err is the error behind Reason, when there is one (a
	// *budget.Error for OverBudget).
	Err error
}

// WarningKind says what went wrong with a texture.
type WarningKind uint8

// Kinds of texture warnings.
const (
	// NotFound: no file, a path refused, or no path at all; drawn white.
	NotFound WarningKind = iota
	// Damaged: the file was found but cannot be decoded (drawn white), or
	// only some of its mip levels can.
	Damaged
	// NoTeamColor: the team has no colour of its own; another is used.
	NoTeamColor
	// Substituted: the named file is absent and the same name as .dds or
	// .blp was used (a Reforged model naming a .tif the game stores as
	// .dds, say); Reason says which file.
	Substituted
	// OverBudget: reading or decoding the file would pass one of the
	// model's limits (Err is the *budget.Error); drawn white.
	OverBudget
)

// A model's path is its author's: String quotes at most 200 bytes of it
// and of each place looked in, and names at most eight places, so that a
// hostile path of a megabyte makes a message of a few kilobytes.
func (w Warning) String() string {
	s := fmt.Sprintf("texture %s: %s", clip.Quote(w.Path), w.Reason)
	if len(w.Searched) > 0 {
		const most = 8
		var tried []string
		for i, p := range w.Searched {
			if i == most {
				tried = append(tried, fmt.Sprintf("and %d more", len(w.Searched)-most))
				break
			}
			tried = append(tried, clip.String(p, clip.MaxQuote))
		}
		s += " (looked for " + strings.Join(tried, ", ") + ")"
	}
	return s
}

// Request names one texture of a model.
type Request struct {
	// Local are searched after the Resolver's sources (before them with
	// LocalFirst): the model's own folder and, for a model inside a map,
	// the map's root.
	Local []Source
	// Path is the TEXS file name, e.g. `Textures\Footman.blp`.
	Path string
	// ReplaceableID is the TEXS replaceable id, used when Path is empty.
	ReplaceableID uint32
	// HD is true for Reforged models (version > 800), which look for .dds
	// replaceable textures first.
	HD bool
	// Team is the team colour replaceable ids 1 (team colour) and 2 (team
	// glow) stand for.
	Team Team
	// Meter is charged what reading and decoding the texture costs (nil:
	// each file is held to the default limits on its own). A model's
	// requests share one, so that its textures together stay within its
	// limits.
	Meter *budget.Meter
}

// Resolver finds and loads the textures models refer to. Sources are
// searched first, in order, then the model's own sources (Request.Local),
// then Fallback: a texture folder given to a program is where a modder
// puts a reskin, so it must win over the file shipped beside the model
// (the reference harness searches in this order too), while the game's own
// files (Fallback) only fill in what neither has, as the game lets a map's
// files replace its own. LocalFirst searches the model's sources before
// Sources, for a shared library that should only fill in what a model
// lacks. Each source is tried as <path> then <basename>, with
// case-insensitive matching and extension substitution:
// where the named file (.blp, .dds, .tga, .tif, .png or .jpg) is absent,
// the same name with .dds, then .blp, then .tga, .png and .jpg stands in.
// Load reports a .dds or .blp standing in for another name (a Reforged
// .tif, say) in a Substituted warning; converted libraries (.tga, .png,
// .jpg for .blp) are accepted silently.
//
// A path from a model never leads outside a source: absolute paths, drive
// letters and ".." components are refused, and Folder sources do not
// follow symbolic links out of their folder. A Resolver may be used from
// several goroutines once configured. It remembers folder listings for its
// lifetime, in Listings (shared by the Resolvers that are given the same
// one: a batch over thousands of models reads each folder once), so
// files added later are seen by a new Resolver with new Listings.
type Resolver struct {
	// Sources are searched before a request's own, in order: texture
	// folders, maps and archives.
	Sources []Source
	// LocalFirst searches the request's Local sources before Sources.
	LocalFirst bool
	// Fallback is searched last, after the request's own sources: the
	// game's data.
	Fallback []Source
	// Cache, when set, shares decoded textures between loads.
	Cache *Cache
	// Options bound decoding.
	Options Options
	// Listings holds the folder listings lookups read; nil means the
	// Resolver's own.
	Listings *Listings
	// Listed, when set, is told of each folder a lookup reads the names
	// of (from Listings or afresh), with the Source it is in and its path
	// inside Source.FS: what was found, or not, depends on those folders
	// alone, so a caller that notes them can tell later that a lookup
	// would still find the same files without doing it again. It may be
	// called from several goroutines at once.
	Listed func(src Source, dir string)

	once sync.Once
	own  *Listings
}

type dirKey struct {
	fs  any
	dir string
}

// substitutable are the extensions of texture names that other files
// may stand in for; textureExts are the extensions tried in their place,
// in order: Reforged stores as .dds what its models call .tif or .tga,
// classic data stores everything as .blp (docs/formats.md#finding-texture-files).
var (
	substitutable = []string{".blp", ".dds", ".tga", ".tif", ".tiff", ".png", ".jpg", ".jpeg"}
	textureExts   = []string{".dds", ".blp", ".tga", ".png", ".jpg"}
)

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

// sources returns the sources to search for a request, in order.
func (r *Resolver) sources(local []Source) []Source {
	out := make([]Source, 0, len(local)+len(r.Sources)+len(r.Fallback))
	if r.LocalFirst {
		out = append(out, local...)
	}
	out = append(out, r.Sources...)
	if !r.LocalFirst {
		out = append(out, local...)
	}
	return append(out, r.Fallback...)
}

// nameVariants lists the file names to try for a last component: itself,
// then, for a texture name, the same stem with each of textureExts.
func nameVariants(name string) []string {
	ext := strings.ToLower(path.Ext(name))
	out := []string{name}
	if !slices.Contains(substitutable, ext) {
		return out
	}
	stem := name[:len(name)-len(ext)]
	for _, alt := range textureExts {
		if alt != ext {
			out = append(out, stem+alt)
		}
	}
	return out
}

// substituted reports whether the file found for a model path is the
// game-format stand-in of the extension fallback: a .dds or .blp where
// the path names another extension. A .tga, .png or .jpg found in place
// of a .blp is a converted texture library, which the resolver has always
// accepted without comment.
func substituted(asked, found string) bool {
	a := strings.ToLower(path.Ext(strings.ReplaceAll(asked, `\`, "/")))
	f := strings.ToLower(path.Ext(found))
	return a != f && (f == ".dds" || f == ".blp")
}

// Find returns the file a model path resolves to, and the candidate
// locations in the order they were tried (for warnings). The error wraps
// fs.ErrNotExist when nothing matched.
func (r *Resolver) Find(local []Source, p string) (File, []string, error) {
	parts, err := splitModelPath(p)
	if err != nil {
		return File{}, nil, err
	}
	var tried []string
	var linkErr error
	for _, src := range r.sources(local) {
		forms := [][]string{parts}
		if len(parts) > 1 {
			forms = append(forms, parts[len(parts)-1:])
		}
		for _, form := range forms {
			tried = append(tried, src.display(src.join(form...)))
			found, err := r.lookup(src, form)
			if errors.Is(err, errOutside) {
				linkErr = err
			}
			if err != nil {
				continue
			}
			return File{Source: src, Name: found}, tried, nil
		}
	}
	if linkErr != nil {
		return File{}, tried, linkErr
	}
	return File{}, tried, fs.ErrNotExist
}

// lookup matches the components below src without regard to case (an
// exact match first), trying extension variants for the file name, and
// returns the path inside src.FS. A folder extracted from an archive on a
// case-sensitive disk can hold "Textures" and "textures" side by side
// (the archive's name lists spell them both ways), so every folder that
// matches is tried in turn.
func (r *Resolver) lookup(src Source, parts []string) (string, error) {
	return r.lookupIn(src, src.join(), parts)
}

func (r *Resolver) lookupIn(src Source, dir string, parts []string) (string, error) {
	var firstErr error
	note := func(err error) {
		if firstErr == nil || errors.Is(err, errOutside) {
			firstErr = err
		}
	}
	if len(parts) == 1 {
		for _, v := range nameVariants(parts[0]) {
			for _, name := range r.matches(src, dir, v) {
				if err := r.isKind(src, path.Join(dir, name), false); err != nil {
					note(err)
					continue
				}
				return path.Join(dir, name), nil
			}
		}
	} else {
		for _, name := range r.matches(src, dir, parts[0]) {
			sub := path.Join(dir, name)
			if err := r.isKind(src, sub, true); err != nil {
				note(err)
				continue
			}
			found, err := r.lookupIn(src, sub, parts[1:])
			if err == nil {
				return found, nil
			}
			note(err)
		}
	}
	if firstErr == nil {
		firstErr = fs.ErrNotExist
	}
	return "", firstErr
}

// matches lists the entries of dir named name: the exact spelling first,
// then the others that differ only in case, in listing order.
func (r *Resolver) matches(src Source, dir, name string) []string {
	if r.Listed != nil {
		r.Listed(src, dir)
	}
	return r.listings().list(src, dir).matches(name)
}

func (r *Resolver) listings() *Listings {
	if r.Listings != nil {
		return r.Listings
	}
	r.once.Do(func() { r.own = new(Listings) })
	return r.own
}

// isKind checks that p is a folder (wantDir) or a regular file.
func (r *Resolver) isKind(src Source, p string, wantDir bool) error {
	st, err := fs.Stat(src.FS, p)
	if err != nil {
		return err
	}
	if st.IsDir() != wantDir || (!wantDir && !st.Mode().IsRegular()) {
		return fs.ErrNotExist
	}
	return nil
}

// Load finds and decodes the texture a model asks for, with all of its
// levels. It never fails: anything missing or unreadable becomes a
// stand-in texture (2×2 white; a generated colour or glow for team colour
// and glow without files) and, where the model's data was at fault, a
// warning.
func (r *Resolver) Load(req Request) (*Texture, []Warning) {
	l, warns := r.LoadLazy(req)
	t, err := l.Texture(0, req.Meter)
	if err != nil {
		return WhiteTexture(), append(warns, DecodeWarning(req.Name(), err))
	}
	if t.LevelErr != nil && t.LevelErr != l.levelErr {
		warns = append(warns, Warning{Kind: Damaged, Path: req.Name(), Reason: "mip chain cut short: " + t.LevelErr.Error()})
	}
	return t, warns
}

// Name is the path warnings about the request name: Path, or the file a
// replaceable id stands for.
func (req Request) Name() string {
	if req.Path != "" {
		return req.Path
	}
	p, _ := ReplaceablePath(req.ReplaceableID, req.Team.player, req.HD)
	return p
}

// LoadLazy is Load without decoding: it finds the file, reads and checks
// it, and returns it as a Lazy whose levels are decoded when asked for
// (through the Resolver's Cache, when it has one). Levels found damaged
// by the checks are warned about here; a level that turns out damaged
// when decoded is reported by Lazy.Texture.
func (r *Resolver) LoadLazy(req Request) (*Lazy, []Warning) {
	path := req.Path
	if path == "" {
		switch req.ReplaceableID {
		case 0:
			return LazyOf(WhiteTexture()), []Warning{{Reason: "texture has neither a path nor a replaceable id"}}
		case 21: // cursor models: no texture by design
			return LazyOf(WhiteTexture()), nil
		}
		if _, player := req.Team.Player(); !player && (req.ReplaceableID == ReplaceableTeamColor || req.ReplaceableID == ReplaceableTeamGlow) {
			return lazyStandIn(teamStandIn(req.ReplaceableID, req.Team)) // no file has a custom colour
		}
		rp, ok := ReplaceablePath(req.ReplaceableID, req.Team.player, req.HD)
		if !ok {
			return LazyOf(WhiteTexture()), []Warning{{Reason: fmt.Sprintf("unknown replaceable id %d", req.ReplaceableID)}}
		}
		path = rp
	}
	file, tried, err := r.Find(req.Local, path)
	if err != nil {
		if req.Path == "" && (req.ReplaceableID == ReplaceableTeamColor || req.ReplaceableID == ReplaceableTeamGlow) {
			return lazyStandIn(teamStandIn(req.ReplaceableID, req.Team))
		}
		reason := "not found"
		if !errors.Is(err, fs.ErrNotExist) {
			reason = err.Error()
		}
		return LazyOf(WhiteTexture()), []Warning{{Path: path, Searched: tried, Reason: reason}}
	}
	var l *Lazy
	if r.Cache != nil {
		l, err = r.Cache.Open(file, &r.Options, req.Meter)
	} else {
		l, err = file.Open(&r.Options, req.Meter)
	}
	if err != nil {
		return LazyOf(WhiteTexture()), []Warning{DecodeWarning(path, err)}
	}
	var warns []Warning
	if req.Path != "" && substituted(req.Path, file.Name) {
		warns = append(warns, Warning{Kind: Substituted, Path: path, Reason: "not found; using " + file.String()})
	}
	if l.levelErr != nil {
		warns = append(warns, Warning{Kind: Damaged, Path: path, Reason: "mip chain cut short: " + l.levelErr.Error()})
	}
	return l, warns
}

// DecodeWarning is the warning about the texture path that could not be
// read or decoded for err: OverBudget when a limit refused it, Damaged
// otherwise.
func DecodeWarning(path string, err error) Warning {
	var be *budget.Error
	if errors.As(err, &be) {
		return Warning{Kind: OverBudget, Path: path, Reason: "not drawn: " + err.Error(), Err: err}
	}
	return Warning{Kind: Damaged, Path: path, Reason: "cannot decode: " + err.Error(), Err: err}
}

func lazyStandIn(t *Texture, ws []Warning) (*Lazy, []Warning) { return LazyOf(t), ws }

func teamStandIn(id uint32, team Team) (*Texture, []Warning) {
	rgb := team.RGB()
	var warns []Warning
	if p, player := team.Player(); player {
		if _, ok := TeamColorRGB(p); !ok {
			warns = append(warns, Warning{Kind: NoTeamColor, Reason: fmt.Sprintf("team %d has no built-in colour; using neutral", p)})
		}
	}
	if id == ReplaceableTeamGlow {
		return TeamGlowTexture(rgb), warns
	}
	return TeamColorTexture(rgb), warns
}

// ReadFile finds p as Find does and reads it (a spawned model, say),
// charging it to m and refusing anything but a regular file.
func (r *Resolver) ReadFile(local []Source, p string, m *budget.Meter) ([]byte, File, []string, error) {
	f, tried, err := r.Find(local, p)
	if err != nil {
		return nil, f, tried, err
	}
	b, err := f.Read(m)
	return b, f, tried, err
}
