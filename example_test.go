package mdxrender_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// A model file to a PNG: open, render with the defaults changed where
// wanted, write.
func Example() {
	m, err := mdxrender.Open("testdata/models/team_color.mdl", nil)
	if err != nil {
		log.Fatal(err)
	}
	img, warnings, err := m.Render(mdxrender.View{Yaw: 30, Pitch: 20, Team: texture.Player(1)})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "mdxrender-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := mdxrender.WritePNG(filepath.Join(dir, "team_color.png"), img); err != nil {
		log.Fatal(err)
	}
	fmt.Println(img.Bounds().Size(), len(warnings))
	// Output: (256,256) 0
}

// A sprite sheet of two sequences seen from four directions, trimmed,
// with the metadata Phaser and PixiJS (TexturePacker), Phaser's Aseprite
// reader and Godot 4 load, and where the unit stands in each frame.
func ExampleModel_Sheet() {
	m, err := mdxrender.Open("testdata/models/billboards.mdl", nil)
	if err != nil {
		log.Fatal(err)
	}
	v := mdxrender.View{Width: 64}
	s, _, err := m.Sheet(context.Background(), v, mdxrender.SheetOptions{
		Sequences: []render.Sequence{render.SequenceNamed("Stand"), render.SequenceNamed("Attack")},
		Frames:    4,
		Yaws:      []float64{0, 90, 180, 270},
	})
	if err != nil {
		log.Fatal(err)
	}
	tp, err := s.Layout.TexturePackerJSON("billboards-sheet.png", "example")
	if err != nil {
		log.Fatal(err)
	}
	ase, err := s.Layout.AsepriteJSON(0, "billboards-sheet.png", "example")
	if err != nil {
		log.Fatal(err)
	}
	tres, err := s.Layout.GodotSpriteFrames([]string{"billboards-sheet.png"})
	if err != nil {
		log.Fatal(err)
	}
	c := s.Layout.Cells[0]
	fmt.Println(len(s.Pages), len(s.Layout.Cells), len(tp) > 0, len(ase) > 0, len(tres) > 0)
	fmt.Printf("%s: %v of the %dx%d frame, pivot (%.0f, %.0f)\n", c.Name, c.Source, s.Layout.FrameW, s.Layout.FrameH, c.Pivot[0], c.Pivot[1])
	// Output:
	// 1 32 true true true
	// Stand_000_000: (3,26)-(61,38) of the 64x64 frame, pivot (32, 46)
}

// Files from strangers: the default Limits already bound every step; a
// service lowers what it can afford and gives each render a deadline.
// Over a budget, the error names it (a picture too large is refused
// before anything is allocated).
func ExampleLimits() {
	o := &mdxrender.Options{Limits: mdxrender.Limits{
		ReadBytes:    16 << 20, // the model file and its textures together
		RenderPixels: 512 * 512,
	}}
	m, err := mdxrender.Open("testdata/models/team_color.mdl", o)
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	img, _, err := m.RenderContext(ctx, mdxrender.View{Width: 512})
	fmt.Println(img.Bounds().Size(), err)

	_, _, err = m.RenderContext(ctx, mdxrender.View{Width: 512, SSAA: 2})
	var be *budget.Error
	fmt.Println(errors.As(err, &be), be.Limit, be.Value)
	// Output:
	// (512,512) <nil>
	// true render_pixels 1048576
}
