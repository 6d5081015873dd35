package batch

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mpq"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Input is one model file found by expanding Config.Inputs.
type Input struct {
	// FS holds the file as Name for an input of Inputs.Trees or inside an
	// archive; nil for a file on disk.
	FS   fs.FS
	Name string
	// Entry is the archive entry of an input inside an archive, which is
	// read through it: the archive may spell its name otherwise than Name
	// (see openArchiveInput).
	Entry *mpq.File `json:"-"`
	// Path opens a file on disk; for a tree's file it names it in
	// messages ("tree:path/in/tree").
	Path string
	// Key is the cleaned slash path the config named it by (relative paths
	// relative to the config file's folder). It decides the shard, so it
	// must be the same on every machine of a sharded run.
	Key string
	// Rel is the path below the folder or glob root that found it (the base
	// name for explicit files); output names and override globs use it.
	// Where two roots hold the same relative path, it starts with the
	// root's name (see Root), so that their outputs do not collide.
	Rel string
	// Root names the folder, glob root or tree the input was found in (the
	// common folder of explicit files): output.name's {root}.
	Root string
	// Top is the folder the configuration named that holds a file on
	// disk: its inputs.dirs folder, its glob's fixed part, or, for a file
	// named on its own, its own folder. The search for the map a model is
	// part of looks no higher (the texture search never reads above what
	// the user named).
	Top string
	// Inner, for a file found by walking Top, is its slash path there:
	// the file is read through an os.Root opened on Top, so that no link,
	// even one made after the walk, leads the read outside the folder
	// the user named. "" for a file named on its own, read by its path.
	Inner string
}

// Shard is share Index of Count.
type Shard struct{ Index, Count int }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ShardCountEnv names the variable holding the shard count for a Kubernetes
// Indexed Job, which sets JOB_COMPLETION_INDEX but not the count.
const ShardCountEnv = "MDXR_SHARD_COUNT"

// ShardFromEnv returns the shard given by JOB_COMPLETION_INDEX and
// MDXR_SHARD_COUNT, ok=false if either is unset.
func ShardFromEnv(lookup func(string) (string, bool)) (Shard, bool, error) {
	i, ok1 := lookup("JOB_COMPLETION_INDEX")
	n, ok2 := lookup(ShardCountEnv)
	if !ok1 || !ok2 {
		return Shard{}, false, nil
	}
	si, sn, err := forms.Shard(i + "/" + n)
	if err != nil {
		return Shard{}, false, fmt.Errorf("JOB_COMPLETION_INDEX=%s %s=%s: %w", i, ShardCountEnv, n, err)
	}
	return Shard{si, sn}, true, nil
}

// Contains reports whether the input with this key belongs to the shard. The
// hash is FNV-1a of the key, so every key lands in exactly one shard
// whatever the order or machine.
func (s Shard) Contains(key string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()%uint64(s.Count) == uint64(s.Index)
}

// base returns the folder relative config paths are resolved against.
func (c *Config) base() string {
	if c.File == "" {
		return "."
	}
	return filepath.Dir(c.File)
}

func resolve(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// ExpandInputs finds all model files the config names, sorted by Key, with
// duplicates (the same file named twice) removed.
func (c *Config) ExpandInputs() ([]Input, error) {
	ins, _, err := c.expandInputs()
	return ins, err
}

// expandInputs is ExpandInputs with the warnings about what folders held
// that could not be taken (special files, dangling links, link loops).
func (c *Config) expandInputs() ([]Input, []string, error) {
	base := c.base()
	var out []Input
	var errs []error
	var warns []string
	warn := func(s string) { warns = append(warns, s) }
	root := ""
	top := "" // the folder being walked; "" for explicit files
	add := func(p, rel string) {
		t := top
		if t == "" {
			// A file named on its own: the configuration's folder (the
			// current one without a file) when the file is below it.
			t = filepath.Dir(p)
			if r, err := filepath.Rel(abs(base), abs(p)); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				t = base
			}
		}
		in := Input{Path: p, Key: filepath.ToSlash(filepath.Clean(p)), Rel: filepath.ToSlash(rel), Root: root, Top: t}
		if top != "" {
			in.Inner = filepath.ToSlash(rel)
		}
		out = append(out, in)
	}
	// Explicit files and list entries are named relative to the deepest
	// folder holding all of them, so outputs keep their layout without the
	// common part of the paths.
	var loose []string
	for _, f := range c.Inputs.Files {
		p := resolve(base, f)
		if archiveInput(p) {
			ins, err := c.openArchiveInput(p, warn)
			if err != nil {
				errs = append(errs, fmt.Errorf("inputs.files: %w", err))
			}
			out = append(out, ins...)
			continue
		}
		if _, err := os.Stat(p); err != nil {
			errs = append(errs, fmt.Errorf("inputs.files: %w", err))
			continue
		}
		loose = append(loose, p)
	}
	if c.Inputs.List != "" {
		lp := resolve(base, c.Inputs.List)
		f, err := os.Open(lp)
		if err != nil {
			errs = append(errs, fmt.Errorf("inputs.list: %w", err))
		} else {
			sc := bufio.NewScanner(f)
			line := 0
			for sc.Scan() {
				line++
				s := strings.TrimSpace(sc.Text())
				if s == "" || strings.HasPrefix(s, "#") {
					continue
				}
				p := resolve(filepath.Dir(lp), s)
				if archiveInput(p) {
					ins, err := c.openArchiveInput(p, warn)
					if err != nil {
						errs = append(errs, fmt.Errorf("%s:%d: %w", lp, line, err))
					}
					out = append(out, ins...)
					continue
				}
				if _, err := os.Stat(p); err != nil {
					errs = append(errs, fmt.Errorf("%s:%d: %w", lp, line, err))
					continue
				}
				loose = append(loose, p)
			}
			if err := sc.Err(); err != nil {
				errs = append(errs, fmt.Errorf("inputs.list %s: %w", lp, err))
			}
			f.Close()
		}
	}
	common := commonDir(loose)
	root = filepath.Base(common)
	for _, p := range loose {
		rel, err := filepath.Rel(common, abs(p))
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = filepath.Base(p)
		}
		add(p, rel)
	}
	for _, d := range c.Inputs.Dirs {
		dir := resolve(base, d)
		root, top = filepath.Base(abs(dir)), dir
		if err := walkFiles(dir, c.hasExt, add, warn); err != nil {
			errs = append(errs, fmt.Errorf("inputs.dirs: %w", err))
		}
	}
	for _, tr := range c.Inputs.Trees {
		err := fs.WalkDir(tr.FS, ".", func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() || !c.hasExt(p) {
				return nil
			}
			key := tr.Name + ":" + p
			out = append(out, Input{FS: tr.FS, Name: p, Path: key, Key: key, Rel: p, Root: tr.Name})
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("inputs: %s: %w", tr.Name, err))
		}
	}
	for _, g := range c.Inputs.Globs {
		gs := filepath.ToSlash(g)
		segs := strings.Split(gs, "/")
		n := 0
		for n < len(segs) && !strings.ContainsAny(segs[n], "*?[") {
			n++
		}
		prefix := strings.Join(segs[:n], "/")
		rest := segs[n:]
		dir := resolve(base, filepath.FromSlash(prefix))
		root, top = filepath.Base(abs(dir)), dir
		if len(rest) == 0 { // no wildcard: a plain file
			if _, err := os.Stat(dir); err != nil {
				errs = append(errs, fmt.Errorf("inputs.globs: %w", err))
			} else {
				root, top = filepath.Base(filepath.Dir(abs(dir))), filepath.Dir(dir)
				add(dir, filepath.Base(dir))
			}
			continue
		}
		match := func(rel string) bool { return matchGlob(rest, strings.Split(rel, "/")) }
		if err := walkFiles(dir, match, add, warn); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("inputs.globs %s: %w", clip.Quote(g), err))
		}
	}
	if len(errs) > 0 {
		return nil, warns, errors.Join(errs...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	dedup := out[:0]
	for i, in := range out {
		if i > 0 && in.Key == out[i-1].Key {
			continue
		}
		dedup = append(dedup, in)
	}
	separateRoots(dedup)
	return dedup, warns, nil
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// commonDir returns the deepest folder containing all paths.
func commonDir(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	d := filepath.Dir(abs(paths[0]))
	for _, p := range paths[1:] {
		p = abs(p)
		for d != filepath.Dir(d) && !strings.HasPrefix(p, d+string(filepath.Separator)) {
			d = filepath.Dir(d)
		}
	}
	return d
}

func (c *Config) hasExt(p string) bool {
	for _, e := range c.Inputs.Extensions {
		if strings.EqualFold(filepath.Ext(p), e) {
			return true
		}
	}
	return false
}

// matchGlob matches slash-separated segments; "**" matches any number of
// segments, other segments use path.Match.
func matchGlob(pat, segs []string) bool {
	if len(pat) == 0 {
		return len(segs) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(segs); i++ {
			if matchGlob(pat[1:], segs[i:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	if ok, _ := path.Match(pat[0], segs[0]); !ok {
		return false
	}
	return matchGlob(pat[1:], segs[1:])
}

// MatchPath reports whether a slash path matches a glob with "**" support.
func MatchPath(glob, p string) bool {
	return matchGlob(strings.Split(glob, "/"), strings.Split(p, "/"))
}

// ViewSpec is a resolved camera.
type ViewSpec struct {
	Name   string
	Yaw    float64
	Pitch  float64
	Size   Size
	Camera string
}

// Job is one model with its resolved options.
type Job struct {
	Input Input
	// Render are the model's options as the configuration gives them
	// (validated); View and Still are them as the renderer takes them.
	Render RenderOptions
	// View is what every picture of the job draws (size, supersampling,
	// background, particles); the views, teams and frames fill in the
	// rest.
	View render.View
	// Still is where in its sequence the still (png) is taken.
	Still render.Time
	// TextureRoots are folders, maps and archives searched for textures
	// after the model's own folder and map, then GameData (a folder: a
	// game install or extracted game files; "" for none).
	TextureRoots []string
	GameData     string
	Views        []ViewSpec
	// Teams are the team colours to render; at least one.
	Teams     []Team
	Sequences Sequences
	Sheet     SheetOptions
	Formats   []string
	// Limits bound what reading, decoding and drawing the model may cost.
	Limits budget.Limits
}

// Team is a team colour to render: as the configuration names it (output
// names use that) and as it is drawn.
type Team struct {
	Name  string
	Color texture.Team
}

// Plan expands the inputs, keeps this run's shard, applies per-model
// overrides and returns the jobs sorted by input key. Two inputs that would
// write the same file are an error.
func (c *Config) Plan(sh Shard) ([]Job, error) {
	p, err := c.plan(sh)
	if err != nil {
		return nil, err
	}
	return p.jobs, nil
}

// planned is a run's plan: its jobs, the input keys of every shard's jobs
// (what --prune keeps) and the warnings about folder entries not taken.
type planned struct {
	jobs     []Job
	all      map[string]bool
	warnings []string
}

func (c *Config) plan(sh Shard) (*planned, error) {
	ins, warns, err := c.expandInputs()
	if err != nil {
		return nil, err
	}
	p := &planned{all: map[string]bool{}, warnings: warns}
	var every []Job
	for _, in := range ins {
		j, skip := c.jobFor(in)
		if skip {
			continue
		}
		p.all[in.Key] = true
		every = append(every, j)
		if sh.Contains(in.Key) {
			p.jobs = append(p.jobs, j)
		}
	}
	// Names are checked over every shard's jobs: a collision must not
	// depend on how the inputs fall into shards.
	if err := c.checkNames(every); err != nil {
		return nil, err
	}
	return p, nil
}

func (c *Config) jobFor(in Input) (Job, bool) {
	j := Job{
		Input:        in,
		Render:       c.Render,
		TextureRoots: nil,
		Teams:        teams(c.TeamColors),
		Sequences:    c.Sequences,
		Sheet:        c.Sheet,
		Formats:      append([]string(nil), c.Output.Formats...),
		Limits:       c.Limits.Limits(),
	}
	for _, r := range c.TextureRoots {
		j.TextureRoots = append(j.TextureRoots, resolve(c.base(), r))
	}
	if c.GameData != "" {
		j.GameData = resolve(c.base(), c.GameData)
	}
	var only []string
	for _, o := range c.Overrides {
		if !MatchPath(o.Match, in.Rel) && !MatchPath(o.Match, in.Key) {
			continue
		}
		if o.Skip {
			return j, true
		}
		c.patch(&j.Render, o.Render)
		if o.Sequences != nil && !c.pinned["sequences.select"] && !c.pinned["sequences.pattern"] {
			j.Sequences = *o.Sequences
		}
		if len(o.TeamColors) > 0 && !c.pinned["team_colors"] {
			j.Teams = teams(o.TeamColors)
		}
		if len(o.Views) > 0 {
			only = o.Views
		}
		var roots []string
		for _, r := range o.TextureRoots {
			roots = append(roots, resolve(c.base(), r))
		}
		j.TextureRoots = append(roots, j.TextureRoots...)
	}
	// A team colour given on the command line (or by a variable) beats the
	// file's list, as every other flag beats the file.
	if len(j.Teams) == 0 || c.pinned["render.team_color"] && !c.pinned["team_colors"] {
		j.Teams = teams([]string{j.Render.TeamColor})
	}
	j.Views = c.views(j.Render, only)
	j.View, j.Still = j.Render.view()
	return j, false
}

// teams reads validated team colours.
func teams(names []string) []Team {
	out := make([]Team, len(names))
	for i, n := range names {
		c, _ := forms.Team(n) // validated with the configuration
		out[i] = Team{Name: n, Color: c}
	}
	return out
}

// view turns validated render options into what the renderer takes.
func (r RenderOptions) view() (render.View, render.Time) {
	v := render.View{Width: r.Size.W, Height: r.Size.H, SSAA: r.SSAA}
	bg, _ := forms.Background(r.Background) // validated
	v.Background = forms.BackgroundColor(bg)
	v.Particles = render.Particles{Off: !r.Particles, Seed: uint32(r.Seed), StepMs: r.StepMs, Preroll: preroll(r.PrerollMs)}
	if r.Seed == 0 {
		v.Particles.Seed = render.ZeroSeed
	}
	v.Margin, v.Zoom = r.Margin, r.Zoom
	if r.Margin == 0 {
		v.Margin = render.NoMargin
	}
	still, _ := forms.StillTime(r.Time) // validated
	return v, still
}

// preroll reads render.preroll_ms: negative is one particle lifetime for
// looping sequences (auto), 0 none, more that many ms.
func preroll(ms float64) render.Preroll {
	switch {
	case ms < 0:
		return render.PrerollAuto
	case ms == 0:
		return render.NoPreroll
	}
	return render.Preroll(ms)
}

// patch applies an override, except to keys a flag or env variable set.
func (c *Config) patch(r *RenderOptions, p RenderPatch) {
	set := func(key string) bool { return !c.pinned["render."+key] }
	if p.Size != nil && set("size") {
		r.Size = *p.Size
	}
	if p.SSAA != nil && set("ssaa") {
		r.SSAA = *p.SSAA
	}
	if p.Background != nil && set("background") {
		r.Background = *p.Background
	}
	if p.Yaw != nil && set("yaw") {
		r.Yaw = *p.Yaw
	}
	if p.Pitch != nil && set("pitch") {
		r.Pitch = *p.Pitch
	}
	if p.Camera != nil && set("camera") {
		r.Camera = *p.Camera
	}
	if p.TeamColor != nil && set("team_color") {
		r.TeamColor = *p.TeamColor
	}
	if p.Time != nil && set("time") {
		r.Time = *p.Time
	}
	if p.Particles != nil && set("particles") {
		r.Particles = *p.Particles
	}
	if p.Seed != nil && set("seed") {
		r.Seed = *p.Seed
	}
	if p.StepMs != nil && set("step_ms") {
		r.StepMs = *p.StepMs
	}
	if p.PrerollMs != nil && set("preroll_ms") {
		r.PrerollMs = *p.PrerollMs
	}
	if p.Margin != nil && set("margin") {
		r.Margin = *p.Margin
	}
	if p.Zoom != nil && set("zoom") {
		r.Zoom = *p.Zoom
	}
}

func (c *Config) views(r RenderOptions, only []string) []ViewSpec {
	if len(c.Views) == 0 {
		return []ViewSpec{{Name: "default", Yaw: r.Yaw, Pitch: r.Pitch, Size: r.Size, Camera: r.Camera}}
	}
	names := make([]string, 0, len(c.Views))
	for n := range c.Views {
		if len(only) == 0 || contains(only, n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []ViewSpec
	for _, n := range names {
		v := c.Views[n]
		s := ViewSpec{Name: n, Yaw: r.Yaw, Pitch: r.Pitch, Size: r.Size, Camera: r.Camera}
		if v.Yaw != nil {
			s.Yaw = *v.Yaw
		}
		if v.Pitch != nil {
			s.Pitch = *v.Pitch
		}
		if !v.Size.IsZero() {
			s.Size = v.Size
		}
		if v.Camera != "" {
			s.Camera = v.Camera
		}
		out = append(out, s)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sanitizeName makes a sequence name safe inside a file name.
func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
