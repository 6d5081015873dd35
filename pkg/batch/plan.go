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
	"slices"
	"sort"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mpq"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// Input is one model file found by expanding Options.Inputs.
type Input struct {
	// FS holds the file as Name for an input of Inputs.Trees or inside an
	// archive; nil for a file on disk.
	FS   fs.FS `json:"-"`
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

// base returns the folder relative paths are resolved against.
func (o *Options) base() string {
	if o.Base == "" {
		return "."
	}
	return o.Base
}

func resolve(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// ExpandInputs finds all model files the options name, sorted by Key,
// with duplicates (the same file named twice) removed. The archives among
// the inputs are opened to list their models and closed again: Run reads
// the inputs inside them through archives it opens itself.
func (o *Options) ExpandInputs() ([]Input, error) {
	var arch archives
	defer arch.close()
	set, _, err := o.expandInputs(&arch)
	if err != nil {
		return nil, err
	}
	defer set.close()
	ins := make([]Input, 0, set.len())
	err = set.each(func(_ int, in Input) bool {
		ins = append(ins, in)
		return true
	})
	return ins, err
}

// expandInputs is ExpandInputs with the warnings about what folders held
// that could not be taken (special files, dangling links, link loops); the
// archives it opens are added to arch. The inputs are in a set, sorted,
// which the caller closes.
func (o *Options) expandInputs(arch *archives) (*inputSet, []string, error) {
	base := o.base()
	out, err := newInputSet()
	if err != nil {
		return nil, nil, err
	}
	var errs []error
	var warns []string
	warn := func(s string) { warns = append(warns, s) }
	root := ""
	top := "" // the folder being walked; "" for explicit files
	add := func(p, rel string) {
		t := top
		if t == "" {
			// A file named on its own: the options' Base (the working
			// folder without one) when the file is below it.
			t = filepath.Dir(p)
			if r, err := filepath.Rel(abs(base), abs(p)); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				t = base
			}
		}
		in := Input{Path: p, Key: filepath.ToSlash(filepath.Clean(p)), Rel: filepath.ToSlash(rel), Root: root, Top: t}
		if top != "" {
			in.Inner = filepath.ToSlash(rel)
		}
		out.add(in)
	}
	// Explicit files and list entries are named relative to the deepest
	// folder holding all of them, so outputs keep their layout without the
	// common part of the paths.
	var loose []string
	for _, f := range o.Inputs.Files {
		p := resolve(base, f)
		st, statErr := os.Stat(p)
		if statErr == nil && st.IsDir() {
			// A map extracted into a folder keeps its name (X.w3x).
			errs = append(errs, fmt.Errorf("inputs.files: %s is a folder: list it under inputs.dirs", p))
			continue
		}
		if archiveInput(p) {
			ins, err := o.openArchiveInput(p, arch, warn)
			if err != nil {
				errs = append(errs, fmt.Errorf("inputs.files: %w", err))
			}
			for _, in := range ins {
				out.add(in)
			}
			continue
		}
		if statErr != nil {
			errs = append(errs, fmt.Errorf("inputs.files: %w", statErr))
			continue
		}
		loose = append(loose, p)
	}
	if o.Inputs.List != "" {
		lp := resolve(base, o.Inputs.List)
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
					ins, err := o.openArchiveInput(p, arch, warn)
					if err != nil {
						errs = append(errs, fmt.Errorf("%s:%d: %w", lp, line, err))
					}
					for _, in := range ins {
						out.add(in)
					}
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
	for _, d := range o.Inputs.Dirs {
		dir := resolve(base, d)
		root, top = filepath.Base(abs(dir)), dir
		if err := walkFiles(dir, o.hasExt, add, warn); err != nil {
			errs = append(errs, fmt.Errorf("inputs.dirs: %w", err))
		}
	}
	for _, tr := range o.Inputs.Trees {
		err := fs.WalkDir(tr.FS, ".", func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() || !o.hasExt(p) {
				return nil
			}
			key := tr.Name + ":" + p
			out.add(Input{FS: tr.FS, Name: p, Path: key, Key: key, Rel: p, Root: tr.Name})
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("inputs: %s: %w", tr.Name, err))
		}
	}
	for _, g := range o.Inputs.Globs {
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
		out.close()
		return nil, warns, errors.Join(errs...)
	}
	if err := out.sort(); err != nil {
		out.close()
		return nil, warns, err
	}
	return out, warns, nil
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

func (o *Options) hasExt(p string) bool {
	for _, e := range o.Inputs.Extensions {
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
	// Render are the model's picture options, overrides applied; View is
	// them as the renderer takes them.
	Render RenderOptions
	// View is what every picture of the job draws (size, supersampling,
	// background, particles); the views, teams and frames fill in the
	// rest.
	View render.View
	// TextureRoots are folders, maps and archives searched for textures
	// after the model's own folder and map, then GameData (a folder: a
	// game install or extracted game files; "" for none).
	TextureRoots []string
	GameData     string
	// NoMapRoot leaves the root of the model's map out of the search.
	NoMapRoot bool
	Views     []ViewSpec
	// Teams are the team colours to render; at least one.
	Teams     []Team
	Sequences Sequences
	Sheet     SheetOptions
	Formats   []Format
	// Limits bound what reading, decoding and drawing the model may cost.
	Limits budget.Limits
	// Icons, when the batch makes icons (FormatIcons), say how and under
	// which name.
	Icons *JobIcons
}

// Plan expands the inputs, keeps this run's shard, applies per-model
// overrides and returns the jobs sorted by input key. Two inputs that would
// write the same file are an error. As with ExpandInputs, the archives
// among the inputs are closed again.
func (o *Options) Plan() ([]Job, error) {
	var arch archives
	defer arch.close()
	p, err := o.plan(&arch)
	if err != nil {
		return nil, err
	}
	defer p.set.close()
	var jobs []Job
	err = p.set.each(func(_ int, in Input) bool {
		if j, skip := p.jobFor(o, in); !skip && o.Shard.Contains(in.Key) {
			jobs = append(jobs, j)
		}
		return true
	})
	return jobs, err
}

// planned is a run's plan: its inputs, in order (a Run makes each job as
// it comes to it, jobFor, and leaves out those skipped or in other
// shards), the input keys of every shard's jobs when Prune needs them,
// and the warnings about folder entries not taken.
type planned struct {
	set      *inputSet
	all      map[string]bool
	warnings []string
	// icons are the icon names of every shard's models, when the run
	// makes icons.
	icons *iconPlan
}

// jobFor is o.jobFor with the job's icons, when the run makes them.
func (p *planned) jobFor(o *Options, in Input) (Job, bool) {
	j, skip := o.jobFor(in)
	if !skip {
		p.icons.attach(&j)
	}
	return j, skip
}

// plan expands the inputs and checks that no two write the same file;
// the caller closes the plan's set.
func (o *Options) plan(arch *archives) (*planned, error) {
	set, warns, err := o.expandInputs(arch)
	if err != nil {
		return nil, err
	}
	p := &planned{set: set, warnings: warns}
	// Names are checked over every shard's jobs: a collision must not
	// depend on how the inputs fall into shards.
	if err := o.checkNames(set); err != nil {
		set.close()
		return nil, err
	}
	if p.icons, err = o.planIcons(set); err != nil {
		set.close()
		return nil, err
	}
	if o.Prune {
		p.all = map[string]bool{}
		err = set.each(func(_ int, in Input) bool {
			if _, skip := o.jobFor(in); !skip {
				p.all[in.Key] = true
			}
			return true
		})
		if err != nil {
			set.close()
			return nil, err
		}
	}
	return p, nil
}

// keep reports whether a run of these options renders the input: it is
// not skipped and it is in the run's shard.
func (o *Options) keep(in Input) bool {
	if !o.Shard.Contains(in.Key) {
		return false // no job made for another shard's input
	}
	_, skip := o.jobFor(in)
	return !skip
}

func (o *Options) jobFor(in Input) (Job, bool) {
	j := Job{
		Input:     in,
		Render:    o.Render,
		Teams:     o.Teams,
		Sequences: o.Sequences,
		Sheet:     o.Sheet,
		Formats:   append([]Format(nil), o.Output.Formats...),
		Limits:    o.Limits,
		NoMapRoot: o.NoMapRoot,
	}
	for _, r := range o.TextureRoots {
		j.TextureRoots = append(j.TextureRoots, resolve(o.base(), r))
	}
	if o.GameData != "" {
		j.GameData = resolve(o.base(), o.GameData)
	}
	var only []string
	for _, ov := range o.Overrides {
		if !MatchPath(ov.Match, in.Rel) && !MatchPath(ov.Match, in.Key) {
			continue
		}
		if ov.Skip {
			return j, true
		}
		j.Render.patch(ov.Render)
		if ov.Sequences != nil {
			j.Sequences = *ov.Sequences
		}
		if len(ov.Teams) > 0 {
			j.Teams = ov.Teams
		}
		if len(ov.Views) > 0 {
			only = ov.Views
		}
		var roots []string
		for _, r := range ov.TextureRoots {
			roots = append(roots, resolve(o.base(), r))
		}
		j.TextureRoots = append(roots, j.TextureRoots...)
	}
	if len(j.Teams) == 0 {
		j.Teams = []Team{j.Render.Team}
	}
	j.Views = o.views(j.Render, only)
	j.View = j.Render.view()
	return j, false
}

// view turns render options into what the renderer takes.
func (r RenderOptions) view() render.View {
	v := render.View{Width: r.Size.W, Height: r.Size.H, SSAA: r.SSAA, Background: forms.BackgroundColor(r.Background)}
	v.Particles = render.Particles{Off: !r.Particles, Seed: forms.ViewSeed(r.Seed), StepMs: r.StepMs, Preroll: forms.ViewPreroll(r.PrerollMs)}
	v.Margin, v.Zoom = forms.ViewMargin(r.Margin), r.Zoom
	v.MissingTextures = r.MissingTextures
	return v
}

// patch applies an override's render options.
func (r *RenderOptions) patch(p RenderPatch) {
	set(&r.Size, p.Size)
	set(&r.SSAA, p.SSAA)
	set(&r.Background, p.Background)
	set(&r.Yaw, p.Yaw)
	set(&r.Pitch, p.Pitch)
	set(&r.Camera, p.Camera)
	set(&r.Team, p.Team)
	set(&r.Time, p.Time)
	set(&r.Particles, p.Particles)
	set(&r.Seed, p.Seed)
	set(&r.StepMs, p.StepMs)
	set(&r.PrerollMs, p.PrerollMs)
	set(&r.Margin, p.Margin)
	set(&r.Zoom, p.Zoom)
}

// set sets *dst to *v, unless v is nil.
func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func (o *Options) views(r RenderOptions, only []string) []ViewSpec {
	if len(o.Views) == 0 {
		return []ViewSpec{{Name: "default", Yaw: r.Yaw, Pitch: r.Pitch, Size: r.Size, Camera: r.Camera}}
	}
	names := make([]string, 0, len(o.Views))
	for n := range o.Views {
		if len(only) == 0 || slices.Contains(only, n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []ViewSpec
	for _, n := range names {
		v := o.Views[n]
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
