package mdxrender

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
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
