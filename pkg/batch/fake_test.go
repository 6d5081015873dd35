package batch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// fakeRenderer "decodes" a tiny text format instead of MDX, so tests can
// describe models line by line:
//
//	seq NAME START END [once]   a sequence
//	tex PATH                    a texture dependency (relative to the model)
//	missing PATH                a missing texture: a warning
//	fail open|render            an error in that step
//	panic                       the renderer panics in Render
//	shift N                     changes the drawing (to make a regression)
//	emptybefore T               draws nothing before model time T (an effect)
//	hang                        Render waits for its context to end
//	stuck                       Render waits for the renderer's release, blind to its context
//	sleep MS                    Render takes MS milliseconds (to give a kill time to land)
//	longerr N                   Render fails with an N-byte message
//
// It draws a disc whose colour depends on the model, team and yaw and whose
// position depends on the time, so every frame is different and a change of
// any input changes pixels.
type fakeRenderer struct {
	opened  atomic.Int64
	renders atomic.Int64
	// onRender, if set, runs before each Render (tests cancel from it).
	onRender func(job *Job)
	// release ends the wait of a stuck model's Render.
	release chan struct{}
	mu      sync.Mutex
	// cameras records the model camera of every request, by input.
	cameras map[string][]string
}

type fakeModel struct {
	r     *fakeRenderer
	job   *Job
	info  ModelInfo
	seed  uint32
	fail  string
	panic bool
	shift int
	empty uint32
	hang  bool
	stuck bool
	sleep time.Duration
	long  int
}

func (f *fakeRenderer) Open(ctx context.Context, job *Job, data []byte, _ *budget.Meter) (Model, error) {
	f.opened.Add(1)
	h := fnv.New32a()
	h.Write(data)
	m := &fakeModel{r: f, job: job, seed: h.Sum32()}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		switch fs[0] {
		case "seq":
			a, _ := strconv.Atoi(fs[2])
			b, _ := strconv.Atoi(fs[3])
			m.info.Sequences = append(m.info.Sequences, SequenceInfo{Name: fs[1], Start: uint32(a), End: uint32(b), Looping: len(fs) < 5})
		case "tex":
			m.info.Dependencies = append(m.info.Dependencies, texture.File{Source: texture.Folder(filepath.Dir(job.Input.Path)), Name: fs[1]})
		case "missing":
			m.info.Warnings = append(m.info.Warnings, Warning{Code: "missing-texture", Message: fs[1] + " not found"})
		case "fail":
			m.fail = fs[1]
		case "panic":
			m.panic = true
		case "shift":
			m.shift, _ = strconv.Atoi(fs[1])
		case "emptybefore":
			v, _ := strconv.Atoi(fs[1])
			m.empty = uint32(v)
		case "hang":
			m.hang = true
		case "stuck":
			m.stuck = true
		case "sleep":
			ms, _ := strconv.Atoi(fs[1])
			m.sleep = time.Duration(ms) * time.Millisecond
		case "longerr":
			m.long, _ = strconv.Atoi(fs[1])
		}
	}
	if m.fail == "open" {
		return nil, fmt.Errorf("%s: chunk SEQS at offset 0x40: count 99999 exceeds the data", job.Input.Path)
	}
	return m, nil
}

func (m *fakeModel) Info() ModelInfo { return m.info }

func (m *fakeModel) Render(ctx context.Context, req Request) ([]render.Picture, []Warning, error) {
	m.r.renders.Add(1)
	if m.r.onRender != nil {
		m.r.onRender(m.job)
	}
	if m.hang {
		<-ctx.Done()
	}
	if m.stuck {
		<-m.r.release
	}
	time.Sleep(m.sleep)
	if m.long > 0 {
		return nil, nil, errors.New(strings.Repeat("x", m.long))
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if m.panic {
		panic("fake renderer bug")
	}
	if m.fail == "render" {
		return nil, nil, errors.New("geoset 2: vertex group 7 out of range")
	}
	m.r.mu.Lock()
	if m.r.cameras == nil {
		m.r.cameras = map[string][]string{}
	}
	m.r.cameras[m.job.Input.Rel] = append(m.r.cameras[m.job.Input.Rel], req.View.Camera)
	m.r.mu.Unlock()
	team, _ := req.View.Team.Player()
	var out []render.Picture
	for _, f := range req.Frames {
		n := req.View.Width
		img := image.NewNRGBA(image.Rect(0, 0, n, n))
		origin := [2]float64{float64(n) / 2, float64(n) * 0.8}
		c := color.NRGBA{uint8(m.seed), uint8(m.seed>>8) ^ uint8(team*40), uint8(int(f.Yaw)) ^ uint8(m.seed>>16), 255}
		at := uint32(f.Time) // the absolute model time, as the pictures were drawn before frames carried relative times
		if f.Sequence >= 0 {
			at += m.info.Sequences[f.Sequence].Start
		}
		if at < m.empty {
			out = append(out, render.Picture{Image: img, Origin: origin})
			continue
		}
		cx := n/4 + int(at/10)%(n/2) + m.shift
		cy := n / 2
		r := n / 5
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				dx, dy := x-cx, y-cy
				d := dx*dx + dy*dy
				switch {
				case d < r*r:
					img.SetNRGBA(x, y, c)
				case d < (r+2)*(r+2): // a translucent rim exercises alpha
					img.SetNRGBA(x, y, color.NRGBA{c.R, c.G, c.B, 100})
				}
			}
		}
		out = append(out, render.Picture{Image: img, Origin: origin})
	}
	var ws []Warning
	if req.View.Team == texture.Player(1) {
		ws = append(ws, Warning{Code: "team", Message: "blue team colour texture missing"})
	}
	return out, ws, nil
}

// fixture writes model files (name -> content) below dir.
func fixture(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// options returns the default options of a batch whose relative paths
// are relative to dir, as a configuration file's in dir would be, changed
// by edit. (Configuration files are read into Options by pkg/batchconfig,
// tested there.)
func options(dir string, edit func(o *Options)) *Options {
	o := DefaultOptions()
	o.Base = dir
	if edit != nil {
		edit(&o)
	}
	return &o
}

// ptr returns a pointer to v, for the optional fields of views and
// overrides.
func ptr[T any](v T) *T { return &v }

// team is the team colour of player n, named as a configuration would.
func team(name string, n int) Team { return Team{Name: name, Color: texture.Player(n)} }

// treeBytes reads every file below dir except manifests and caches (which
// hold timings) into a map, to compare runs.
func treeBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	eachFile(t, dir, func(rel string, b []byte) {
		name := path.Base(rel)
		if strings.HasPrefix(name, "manifest") || strings.HasPrefix(name, "journal") || name == "index.html" || strings.HasSuffix(name, ".xml") || strings.HasSuffix(name, ".md") {
			return
		}
		out[rel] = string(b)
	})
	return out
}

// eachFile calls fn with the slash path below dir and the bytes of every
// file there but the cache's.
func eachFile(t *testing.T, dir string, fn func(rel string, b []byte)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if e.Name() == CacheDir {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		fn(filepath.ToSlash(rel), b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
