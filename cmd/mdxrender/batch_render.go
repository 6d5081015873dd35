package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"path/filepath"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/particles"
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
	frames := make([]render.Frame, len(req.Frames))
	for i, f := range req.Frames {
		frames[i] = render.Frame{Sequence: f.Sequence, Time: mm.frameTime(f), Yaw: f.Yaw}
	}
	// One animator for all frames: the particle simulation of a sequence
	// and view steps forward from frame to frame instead of restarting.
	imgs, ws, err := render.NewAnimator(mm.m, mm.path).RenderFrames(ctx, opt, frames)
	for _, w := range ws {
		warns = append(warns, batch.Warning{Code: "render", Message: w.Message})
	}
	if err != nil {
		return nil, warns, err
	}
	return imgs, warns, nil
}

// frameTime is f's time in ms after the start of its sequence (0 for the
// bind pose).
func (mm *mdxModel) frameTime(f batch.Frame) float64 {
	if f.Sequence >= 0 && f.Sequence < len(mm.m.Sequences) {
		return float64(f.Time) - float64(mm.m.Sequences[f.Sequence].Interval[0])
	}
	return 0
}
