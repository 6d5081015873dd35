package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"strconv"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/mdx"
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
	m, err := mdx.DecodeAny(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", job.Input.Path, err)
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
	return mm, nil
}

func (mm *mdxModel) Info() batch.ModelInfo { return mm.info }

// Render draws each frame with pkg/render. A request of several frames is
// framed on a declared extent (the sequence's for one sequence, the
// model's for several), which is the same for every frame, so a sheet or an
// animation does not jump; a single frame is framed on its posed vertices
// as the render command does.
func (mm *mdxModel) Render(ctx context.Context, req batch.Request) ([]*image.NRGBA, []batch.Warning, error) {
	bg, err := batch.ParseBackground(req.Options.Background)
	if err != nil {
		return nil, nil, err
	}
	opt := render.Options{
		Width: req.View.Size, Height: req.View.Size, SSAA: req.Options.SSAA,
		Pitch: req.View.Pitch, Camera: req.View.Camera,
		TextureRoots: mm.job.TextureRoots, Cache: mm.r.cache,
		Workers: mm.r.bandWorkers, // never changes the output
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
	if len(req.Frames) > 1 {
		// Until pkg/render can frame the union of several poses, use a
		// declared extent: it does not change from frame to frame.
		opt.Fit = render.FitSequence
		for _, f := range req.Frames {
			if f.Sequence != req.Frames[0].Sequence || f.Sequence < 0 {
				opt.Fit = render.FitExtent
			}
		}
	}
	seen := map[string]bool{}
	out := make([]*image.NRGBA, 0, len(req.Frames))
	for _, f := range req.Frames {
		if err := ctx.Err(); err != nil {
			return nil, warns, err
		}
		opt.Yaw = f.Yaw
		opt.Sequence = strconv.Itoa(f.Sequence)
		opt.Time = 0
		if f.Sequence >= 0 && f.Sequence < len(mm.m.Sequences) {
			opt.Time = float64(f.Time) - float64(mm.m.Sequences[f.Sequence].Interval[0])
		}
		img, ws, err := render.Render(mm.m, mm.path, opt)
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
