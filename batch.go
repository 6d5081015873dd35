package mdxrender

import (
	"context"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/mdx"
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
	info batch.ModelInfo
}

func (r *batchRenderer) Open(ctx context.Context, job *batch.Job, data []byte) (batch.Model, error) {
	in := job.Input
	f, err := model.DecodeFile(data, in.Path)
	if err != nil {
		return nil, err
	}
	local := texture.Folder(filepath.Dir(in.Path))
	if in.FS != nil {
		local = texture.FSSource(in.Path, in.FS, path.Dir(in.Name))
	}
	var roots []texture.Source
	for _, d := range job.TextureRoots {
		roots = append(roots, texture.Folder(d))
	}
	m := newModel(f, in.Path, []texture.Source{local}, &Options{Textures: roots, Cache: r.cache})
	bm := &batchModel{r: r, m: m}
	for _, s := range m.Sequences {
		bm.info.Sequences = append(bm.info.Sequences, batch.SequenceInfo{
			Name: s.Name, Start: s.Interval[0], End: s.Interval[1], Looping: !s.NonLooping(),
		})
	}
	// The files the pictures read are part of the cache key.
	teams := make([]Team, len(job.Teams))
	for i, t := range job.Teams {
		teams[i] = t.Color
	}
	bm.info.Dependencies = m.Dependencies(teams)
	bm.info.Portrait = portraitCamera(path.Base(filepath.ToSlash(in.Path)), m.Model)
	return bm, nil
}

// portraitCamera names the camera a portrait model is drawn through: a
// model whose file name says it is a portrait (Warcraft III names them
// NAME_Portrait) and that has a camera. It is the camera whose name says
// "portrait", else the first; "" for other models.
func portraitCamera(name string, m *mdx.Model) string {
	if len(m.Cameras) == 0 || !strings.Contains(strings.ToLower(name), "portrait") {
		return ""
	}
	best := 0
	for i, c := range m.Cameras {
		if strings.Contains(strings.ToLower(c.Name), "portrait") {
			best = i
			break
		}
	}
	return strconv.Itoa(best)
}

func (bm *batchModel) Info() batch.ModelInfo { return bm.info }

// Render draws the frames of req with one camera (Model.RenderFrames), so
// a sheet or an animation does not jump and nothing leaves the picture,
// and says where the model's origin lands in each.
func (bm *batchModel) Render(ctx context.Context, req batch.Request) ([]render.Picture, []batch.Warning, error) {
	v := req.View
	v.Workers = bm.r.bandWorkers
	return bm.m.animator().RenderPictures(ctx, v, req.Frames)
}
