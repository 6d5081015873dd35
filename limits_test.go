package mdxrender

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// TestOptionsLimits: the front door's Limits reach reading the file,
// decoding the model and its textures, and drawing it.
func TestOptionsLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string { return writeTestFile(t, dir, name, b) }
	grid := write("grid.mdl", hostile.MDLGeometry(300, 10))
	quad := write("quad.mdl", hostile.MDLTextured("tex.png"))
	write("tex.png", hostile.PNG(64, 64, 8, hostile.PNGRGBA))

	if _, err := Open(grid, nil); err != nil {
		t.Fatalf("default limits: %v", err)
	}
	var be *budget.Error
	if _, err := Open(grid, &Options{Limits: Limits{Vertices: 299}}); !errors.As(err, &be) || be.Limit != budget.Vertices || !strings.Contains(err.Error(), "grid.mdl") {
		t.Errorf("Vertices: got %v, want a vertices *budget.Error naming the file", err)
	}
	if _, err := Open(grid, &Options{Limits: Limits{ReadBytes: 100}}); !errors.As(err, &be) || be.Limit != budget.ReadBytes || be.Max != 100 {
		t.Errorf("ReadBytes: got %v, want a read_bytes *budget.Error", err)
	}
	if _, err := OpenFS(os.DirFS(dir), "grid.mdl", &Options{Limits: Limits{Triangles: 9}}); !errors.As(err, &be) || be.Limit != budget.Triangles {
		t.Errorf("OpenFS Triangles: %v", err)
	}
	if _, err := LoadFileLimits(grid, Limits{Vertices: 299}); !errors.As(err, &be) {
		t.Errorf("LoadFileLimits: %v", err)
	}

	m, err := Open(quad, &Options{Limits: Limits{TexturePixels: 1000, RenderPixels: 100 * 100}})
	if err != nil {
		t.Fatal(err)
	}
	_, warns, err := m.Render(View{Width: 64})
	if err != nil {
		t.Fatal(err)
	}
	bad := false
	for _, w := range warns {
		bad = bad || (w.Code == render.OverBudget && strings.Contains(w.Message, "texture_pixels"))
	}
	if !bad {
		t.Errorf("TexturePixels did not reach the texture decoder: %v", warns)
	}
	if _, _, err := m.Render(View{Width: 101}); !errors.As(err, &be) || be.Limit != budget.RenderPixels {
		t.Errorf("RenderPixels: got %v", err)
	}
	if _, _, err := m.RenderFrames(t.Context(), View{Width: 101}, []Frame{{}, {Time: 10}}); !errors.As(err, &be) {
		t.Errorf("RenderFrames MaxRenderPixels: got %v", err)
	}
}

// TestDecodeContext: the batch stops waiting for a decode when its
// context ends, and gets the decode's own result otherwise. The decode
// here never ends by itself: only a decodeContext that stops waiting
// returns the context's error.
func TestDecodeContext(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	defer once.Do(func() { close(release) })
	// Hang guard: a decodeContext that kept waiting would return "late"
	// (and fail below) once this releases the decode; one that stops
	// waiting never meets it.
	guard := time.AfterFunc(5*time.Minute, func() { once.Do(func() { close(release) }) })
	defer guard.Stop()
	slow := func() (*model.File, error) { close(started); <-release; return nil, errors.New("late") }
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		<-started
		cancel()
	}()
	if _, err := decodeContext(ctx, slow); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	want := &model.File{Size: 7}
	if f, err := decodeContext(t.Context(), func() (*model.File, error) { return want, nil }); f != want || err != nil {
		t.Errorf("got %v %v", f, err)
	}
}
