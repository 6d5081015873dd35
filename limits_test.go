package mdxrender

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
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
	var qe *mdx.QuotaError
	if _, err := Open(grid, &Options{Limits: Limits{MaxVertices: 299}}); !errors.As(err, &qe) || !strings.Contains(err.Error(), "grid.mdl") {
		t.Errorf("MaxVertices: got %v, want a *mdx.QuotaError naming the file", err)
	}
	var tl *model.TooLargeError
	if _, err := Open(grid, &Options{Limits: Limits{MaxFileSize: 100}}); !errors.As(err, &tl) || tl.Limit != 100 {
		t.Errorf("MaxFileSize: got %v, want a *model.TooLargeError", err)
	}
	if _, err := OpenFS(os.DirFS(dir), "grid.mdl", &Options{Limits: Limits{MaxTriangles: 9}}); !errors.As(err, &qe) {
		t.Errorf("OpenFS MaxTriangles: %v", err)
	}
	if _, err := LoadFileLimits(grid, Limits{MaxVertices: 299}); !errors.As(err, &qe) {
		t.Errorf("LoadFileLimits: %v", err)
	}

	m, err := Open(quad, &Options{Limits: Limits{MaxTexturePixels: 1000, MaxRenderPixels: 100 * 100}})
	if err != nil {
		t.Fatal(err)
	}
	_, warns, err := m.Render(View{Width: 64})
	if err != nil {
		t.Fatal(err)
	}
	bad := false
	for _, w := range warns {
		bad = bad || (w.Code == BadTexture && strings.Contains(w.Message, "MaxPixels"))
	}
	if !bad {
		t.Errorf("MaxTexturePixels did not reach the texture decoder: %v", warns)
	}
	var be *BudgetError
	if _, _, err := m.Render(View{Width: 101}); !errors.As(err, &be) || be.Budget != "MaxRenderPixels" {
		t.Errorf("MaxRenderPixels: got %v", err)
	}
	if _, _, err := m.RenderFrames(t.Context(), View{Width: 101}, []Frame{{}, {Time: 10}}); !errors.As(err, &be) {
		t.Errorf("RenderFrames MaxRenderPixels: got %v", err)
	}
}

func TestDefaultLimits(t *testing.T) {
	d := DefaultLimits()
	if d.MaxFileSize != 128<<20 || d.MaxRenderPixels != 4096*4096 || d.MaxOverdraw != 512 || d.MaxVertices != 1<<20 || d.MaxParticles != 10_000 {
		t.Errorf("%+v", d)
	}
	if (Limits{}).WithDefaults() != d {
		t.Error("the zero Limits is not the defaults")
	}
}

// TestDecodeContext: the batch stops waiting for a decode when its
// context ends, and gets the decode's own result otherwise.
func TestDecodeContext(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := func() (*model.File, error) { <-release; return nil, errors.New("late") }
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := decodeContext(ctx, slow); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Errorf("got %v after %v", err, time.Since(start))
	}
	want := &model.File{Size: 7}
	if f, err := decodeContext(t.Context(), func() (*model.File, error) { return want, nil }); f != want || err != nil {
		t.Errorf("got %v %v", f, err)
	}
}
