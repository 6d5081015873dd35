package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"strconv"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/pose"
	"github.com/mdxrender/mdxrender/pkg/raster"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// mdxRenderer adapts pkg/render to batch.Renderer.
type mdxRenderer struct {
	cache *texture.Cache
	// bandWorkers is render.Options.Workers: 1 when models render in
	// parallel (the pool already fills the CPUs), 0 (all CPUs) when one
	// model renders at a time, as in the sheet command.
	bandWorkers int
}

// newMDXRenderer returns a renderer whose decoded-texture cache holds at
// most cacheMB MiB (batch config texture_cache_mb), shared by all workers;
// jobs is the number of models rendered at once.
func newMDXRenderer(cacheMB, jobs int) *mdxRenderer {
	r := &mdxRenderer{cache: texture.NewCache(int64(cacheMB) << 20), bandWorkers: 1}
	if jobs == 1 {
		r.bandWorkers = 0
	}
	return r
}

type mdxModel struct {
	r    *mdxRenderer
	m    *mdx.Model
	path string
	job  *batch.Job
	info batch.ModelInfo
}

func (r *mdxRenderer) Open(ctx context.Context, job *batch.Job, data []byte) (batch.Model, error) {
	if max := int64(mdx.DefaultQuotas.MaxFileSize); int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", job.Input.Path, len(data), max)
	}
	m, err := model.Decode(data, job.Input.Path)
	if err != nil {
		return nil, err
	}
	mm := &mdxModel{r: r, m: m, path: job.Input.Path, job: job}
	for _, s := range m.Sequences {
		mm.info.Sequences = append(mm.info.Sequences, batch.SequenceInfo{
			Name: s.Name, Start: s.Interval[0], End: s.Interval[1], Looping: !s.NonLooping(),
		})
	}
	// The files the textures resolve to are part of the cache key. The
	// renderer resolves them again itself; a Resolver only lists folders.
	res := &texture.Resolver{Roots: job.TextureRoots}
	dir := filepath.Dir(job.Input.Path)
	seen := map[string]bool{}
	for _, t := range m.Textures {
		paths := []string{t.Path}
		if t.Path == "" { // replaceable: one file per team colour rendered
			paths = nil
			if mdx.IsWoWVersion(m.Version) {
				continue // WoW ids name no file (pkg/render draws them white)
			}
			for _, tc := range job.Teams {
				team, _ := batch.TeamIndex(tc)
				if p, ok := texture.ReplaceablePath(t.ReplaceableID, max(team, 0), m.Version > 800); ok {
					paths = append(paths, p)
				}
			}
		}
		for _, p := range paths {
			if f, _, err := res.Find(dir, p); err == nil && !seen[f] {
				seen[f] = true
				mm.info.Dependencies = append(mm.info.Dependencies, f)
			}
		}
	}
	// Particles: PRE2 replaceable textures (not in TEXS) and the models
	// PREM emitters spawn change the pictures too.
	if !mdx.IsWoWVersion(m.Version) {
		for _, e := range m.ParticleEmitters2 {
			if e.ReplaceableID == 0 {
				continue
			}
			for _, tc := range job.Teams {
				team, _ := batch.TeamIndex(tc)
				if p, ok := texture.ReplaceablePath(e.ReplaceableID, max(team, 0), m.Version > 800); ok {
					if f, _, err := res.Find(dir, p); err == nil && !seen[f] {
						seen[f] = true
						mm.info.Dependencies = append(mm.info.Dependencies, f)
					}
				}
			}
		}
		load := particles.FileModelLoader(res, dir)
		for _, e := range m.ParticleEmitters {
			if e.Path == "" {
				continue
			}
			if _, f, _ := load(e.Path); f != "" && !seen[f] { // a file that fails to decode still matters
				seen[f] = true
				mm.info.Dependencies = append(mm.info.Dependencies, f)
			}
		}
	}
	return mm, nil
}

func (mm *mdxModel) Info() batch.ModelInfo { return mm.info }

// Render draws each frame with pkg/render. A request of several frames gets
// one camera framed on the union of the posed geometry of all its frames,
// so a sheet or an animation does not jump and nothing leaves the frame; a
// single frame is framed on its posed vertices as the render command does.
func (mm *mdxModel) Render(ctx context.Context, req batch.Request) ([]*image.NRGBA, []batch.Warning, error) {
	bg, err := batch.ParseBackground(req.Options.Background)
	if err != nil {
		return nil, nil, err
	}
	opt := render.Options{
		Width: req.View.Size, Height: req.View.Size, SSAA: req.Options.SSAA,
		Pitch: req.View.Pitch, Camera: req.View.Camera,
		TextureRoots: mm.job.TextureRoots, Cache: mm.r.cache,
		Workers:   mm.r.bandWorkers, // never changes the output
		Particles: req.Options.Particles, Seed: uint32(req.Options.Seed),
		StepMs: req.Options.StepMs, PrerollMs: req.Options.PrerollMs,
	}
	if bg[3] != 0 {
		opt.Background = &color.NRGBA{bg[0], bg[1], bg[2], bg[3]}
	}
	var warns []batch.Warning
	team, _ := batch.TeamIndex(req.Team)
	if team < 0 {
		warns = append(warns, batch.Warning{Code: "team-colour", Message: fmt.Sprintf("custom team colour %s is not supported by the renderer yet; using red", req.Team)})
		team = 0
	}
	opt.Team = team
	if len(req.Frames) > 1 && req.View.Camera == "" {
		target, dist, r, ok := mm.unionFraming(req)
		if !ok {
			// No geometry in any frame: an emitter-only effect is framed
			// on the union of its particles over the frames instead.
			if target, dist, r, ok, err = mm.particleFraming(req, opt); err != nil {
				return nil, warns, err
			}
		}
		if ok {
			opt.Target, opt.Distance = &target, dist
			// raster's default clip planes, for the union's radius (the
			// defaults would follow each frame's own box)
			opt.Near, opt.Far = dist/100, dist+4*r+10
		} else {
			opt.Fit = render.FitExtent
		}
	}
	seen := map[string]bool{}
	out := make([]*image.NRGBA, 0, len(req.Frames))
	// One animator for all frames: the particle simulation of a sequence
	// and view steps forward from frame to frame instead of restarting.
	anim := render.NewAnimator(mm.m, mm.path)
	for _, f := range req.Frames {
		if err := ctx.Err(); err != nil {
			return nil, warns, err
		}
		mm.setFrame(&opt, f)
		img, ws, err := anim.Render(opt)
		for _, w := range ws {
			if !seen[w.Message] {
				seen[w.Message] = true
				warns = append(warns, batch.Warning{Code: "render", Message: w.Message})
			}
		}
		if err != nil {
			return nil, warns, err
		}
		out = append(out, img)
	}
	return out, warns, nil
}

// unionFraming poses every frame of req and returns the centre of the union
// of the vertices drawn in each frame (geosets hidden by geoset or layer
// alpha in a frame do not count for it), the camera distance pkg/raster's framing rule
// (default field of view and margin) gives for that box, and the box's
// radius. ok is false when
// nothing is drawn or the model cannot be posed; the caller then falls back
// to the declared extent.
//
// This belongs in pkg/render (an option to frame a set of poses); it lives
// here until render offers it, using only pose and raster's exported rules.
func (mm *mdxModel) unionFraming(req batch.Request) (target [3]float64, dist, radius float64, ok bool) {
	p, err := pose.New(mm.m)
	if err != nil {
		return target, 0, 0, false
	}
	first := true
	var lo, hi [3]float64
	pitch := math.Max(-raster.MaxPitch, math.Min(raster.MaxPitch, req.View.Pitch)) * math.Pi / 180
	for _, f := range req.Frames {
		t := mm.frameTime(f)
		// billboards face the camera, so pose with this frame's view
		y := f.Yaw * math.Pi / 180
		dir := [3]float64{math.Cos(pitch) * math.Cos(y), math.Cos(pitch) * math.Sin(y), math.Sin(pitch)}
		p.Update(pose.ClockAt(mm.m, f.Sequence, t), pose.View{Rotation: pose.LookRotation(dir, [3]float64{}, [3]float64{0, 0, 1})})
		for gi := range mm.m.Geosets {
			if g := &mm.m.Geosets[gi]; g.LOD != 0 && g.LOD != math.MaxUint32 {
				continue // the renderer draws LOD 0 (or -1) only
			}
			if !drawnNow(mm.m, p, gi) {
				continue // hidden in this frame: framing it would only shrink the model
			}
			pos, _ := p.Vertices(gi)
			for _, v := range pos {
				x, y, z := float64(v[0]), float64(v[1]), float64(v[2])
				if math.IsNaN(x+y+z) || math.IsInf(x+y+z, 0) {
					continue
				}
				if first {
					lo, hi, first = [3]float64{x, y, z}, [3]float64{x, y, z}, false
					continue
				}
				lo = [3]float64{math.Min(lo[0], x), math.Min(lo[1], y), math.Min(lo[2], z)}
				hi = [3]float64{math.Max(hi[0], x), math.Max(hi[1], y), math.Max(hi[2], z)}
			}
		}
	}
	if first {
		return target, 0, 0, false
	}
	return boxFraming(lo, hi)
}

// boxFraming returns the centre of the box lo-hi, the camera distance
// pkg/raster's framing rule (default field of view and margin) gives for
// it, and its radius; ok is false for a degenerate box.
func boxFraming(lo, hi [3]float64) (target [3]float64, dist, radius float64, ok bool) {
	r := math.Sqrt((hi[0]-lo[0])*(hi[0]-lo[0])+(hi[1]-lo[1])*(hi[1]-lo[1])+(hi[2]-lo[2])*(hi[2]-lo[2])) / 2
	if !(r > 1e-6) || math.IsInf(r, 0) {
		return target, 0, 0, false
	}
	target = [3]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2}
	return target, raster.DefaultMargin * r / math.Sin(raster.DefaultFov*math.Pi/360), r, true
}

// frameTime is f's time in ms after the start of its sequence (0 for the
// bind pose).
func (mm *mdxModel) frameTime(f batch.Frame) float64 {
	if f.Sequence >= 0 && f.Sequence < len(mm.m.Sequences) {
		return float64(f.Time) - float64(mm.m.Sequences[f.Sequence].Interval[0])
	}
	return 0
}

// setFrame points opt at frame f: its yaw, sequence and time.
func (mm *mdxModel) setFrame(opt *render.Options, f batch.Frame) {
	opt.Yaw, opt.Sequence, opt.Time = f.Yaw, strconv.Itoa(f.Sequence), mm.frameTime(f)
}

// particleFraming runs the particle simulation through the frames of req
// (with its own Animator, so the drawing pass starts afresh) and frames the
// union of the particles visible in each, as pkg/render frames one still
// of a model without geometry; ok is false when no frame has any.
func (mm *mdxModel) particleFraming(req batch.Request, opt render.Options) (target [3]float64, dist, radius float64, ok bool, err error) {
	if !opt.Particles {
		return target, 0, 0, false, nil
	}
	anim := render.NewAnimator(mm.m, mm.path)
	var lo, hi [3]float64
	for _, f := range req.Frames {
		mm.setFrame(&opt, f)
		a, b, got, err := anim.ParticleBounds(opt)
		if err != nil {
			return target, 0, 0, false, err
		}
		if !got {
			continue
		}
		if !ok {
			lo, hi, ok = a, b, true
			continue
		}
		for i := range lo {
			lo[i], hi[i] = math.Min(lo[i], a[i]), math.Max(hi[i], b[i])
		}
	}
	if !ok {
		return target, 0, 0, false, nil
	}
	target, dist, radius, ok = boxFraming(lo, hi)
	return target, dist, radius, ok, nil
}

// drawnNow reports whether the renderer draws geoset gi at p's current
// clock: some layer of its material passes raster.Visible with the geoset's
// and the layer's animated alpha.
func drawnNow(m *mdx.Model, p *pose.Pose, gi int) bool {
	g := &m.Geosets[gi]
	if int(g.MaterialID) >= len(m.Materials) {
		return false
	}
	a := p.GeosetColor(gi)[3]
	for li := range m.Materials[g.MaterialID].Layers {
		if raster.Visible(a, p.LayerAlpha(&m.Materials[g.MaterialID].Layers[li])) {
			return true
		}
	}
	return false
}
