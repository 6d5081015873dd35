package mdxrender

import (
	"context"
	"fmt"
	"image"
	"path/filepath"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// BatchRenderer is the batch.Renderer that draws models with this
// package, as mdxrender batch, check and sheet do. Its decoded textures
// are shared by all models of the batch within cacheBytes (0: the texture
// package's default); jobs is the number of models the batch renders at
// once, which decides how many raster bands one model draws at once (it
// never changes the pictures).
func BatchRenderer(cacheBytes int64, jobs int) batch.Renderer {
	r := &batchRenderer{cache: texture.NewCache(cacheBytes), bandWorkers: 1}
	if jobs == 1 {
		r.bandWorkers = 0
	}
	return r
}

type batchRenderer struct {
	cache *texture.Cache
	// bandWorkers is View.Workers: 1 when models render in parallel (the
	// pool already fills the CPUs), 0 (all CPUs) when one model renders at
	// a time.
	bandWorkers int
}

type batchModel struct {
	r    *batchRenderer
	m    *Model
	job  *batch.Job
	info batch.ModelInfo
}

func (r *batchRenderer) Open(ctx context.Context, job *batch.Job, data []byte) (batch.Model, error) {
	if int64(len(data)) > model.MaxFileSize {
		return nil, fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", job.Input.Path, len(data), model.MaxFileSize)
	}
	f, err := model.DecodeFile(data, job.Input.Path)
	if err != nil {
		return nil, err
	}
	var roots []texture.Source
	for _, d := range job.TextureRoots {
		roots = append(roots, texture.Folder(d))
	}
	m := newModel(f, job.Input.Path, []texture.Source{texture.Folder(filepath.Dir(job.Input.Path))}, &Options{Textures: roots, Cache: r.cache})
	bm := &batchModel{r: r, m: m, job: job}
	for _, s := range m.Sequences {
		bm.info.Sequences = append(bm.info.Sequences, batch.SequenceInfo{
			Name: s.Name, Start: s.Interval[0], End: s.Interval[1], Looping: !s.NonLooping(),
		})
	}
	// The files the pictures read are part of the cache key.
	var teams []Team
	for _, tc := range job.Teams {
		team, err := texture.ParseTeam(tc)
		if err != nil {
			return nil, err
		}
		teams = append(teams, team)
	}
	for _, d := range m.Dependencies(teams) {
		bm.info.Dependencies = append(bm.info.Dependencies, d.String())
	}
	return bm, nil
}

func (bm *batchModel) Info() batch.ModelInfo { return bm.info }

// Render draws the frames of req with one camera (Model.RenderFrames), so
// a sheet or an animation does not jump and nothing leaves the picture.
func (bm *batchModel) Render(ctx context.Context, req batch.Request) ([]*image.NRGBA, []batch.Warning, error) {
	bg, err := render.ParseBackground(req.Options.Background)
	if err != nil {
		return nil, nil, err
	}
	team, err := texture.ParseTeam(req.Team)
	if err != nil {
		return nil, nil, err
	}
	v := View{
		Width: req.View.Size, Height: req.View.Size, SSAA: req.Options.SSAA,
		Pitch: req.View.Pitch, Camera: req.View.Camera,
		Background: bg, Team: team,
		Workers: bm.r.bandWorkers,
		Particles: render.Particles{
			Off: !req.Options.Particles, Seed: uint32(req.Options.Seed), StepMs: req.Options.StepMs,
			Preroll: render.PrerollAuto,
		},
	}
	switch {
	case req.Options.Seed == 0:
		v.Particles.Seed = render.ZeroSeed
	}
	switch p := req.Options.PrerollMs; {
	case p == 0:
		v.Particles.Preroll = render.NoPreroll
	case p > 0:
		v.Particles.Preroll = render.Preroll(p)
	}
	var warns []batch.Warning
	frames := make([]Frame, len(req.Frames))
	for i, f := range req.Frames {
		frames[i] = Frame{Sequence: f.Sequence, Time: bm.frameTime(f), Yaw: f.Yaw}
	}
	imgs, ws, err := bm.m.RenderFrames(ctx, v, frames)
	for _, w := range ws {
		warns = append(warns, batch.Warning{Code: string(w.Code), Message: w.Message})
	}
	if err != nil {
		return nil, warns, err
	}
	return imgs, warns, nil
}

// frameTime is f's time in ms after the start of its sequence (0 for the
// bind pose).
func (bm *batchModel) frameTime(f batch.Frame) float64 {
	if f.Sequence >= 0 && f.Sequence < len(bm.m.Sequences) {
		return float64(f.Time) - float64(bm.m.Sequences[f.Sequence].Interval[0])
	}
	return 0
}
