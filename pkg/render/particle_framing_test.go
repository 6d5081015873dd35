package render

import (
	"context"
	"image"
	"image/color"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// emitterOnlyModel is an effect without geometry whose emitter sits far
// from the origin, at (400, 0, 100): the default fit box (a 100-unit box at
// the origin) does not even contain it.
func emitterOnlyModel() *mdx.Model {
	m := fixtureBase("emitter_only")
	e := pre2("Glow")
	e.Speed, e.Latitude, e.LifeSpan, e.EmissionRate = 30, 180, 1, 30
	e.SegmentScaling = mdx.Vec3{6, 6, 6}
	addPRE2(m, e, 0, mdx.Vec3{400, 0, 100})
	return m
}

// litBounds returns the bounds of the pixels that differ from bg.
func litBounds(img *image.NRGBA, bg color.NRGBA) image.Rectangle {
	var r image.Rectangle
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if img.NRGBAAt(x, y) != bg {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return r
}

// A model that draws no geometry is framed on its visible particles, not
// on the reference harness's default box: the whole effect is in the
// picture, with a margin, and fills a good part of it.
func TestEmitterOnlyFramedOnParticles(t *testing.T) {
	m := emitterOnlyModel()
	path := filepath.Join(modelsDir, "emitter_only.mdl") // textures resolve from testdata/models
	bg := color.NRGBA{0, 0, 0, 255}
	opt := View{Width: 96, Yaw: 30, Pitch: 20, Time: Ms(500), Background: &bg, Particles: Particles{Seed: 6}}
	img, _, err := renderAt(m, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	lit := litBounds(img, bg)
	if lit.Empty() {
		t.Fatal("nothing drawn: the camera is not on the particles")
	}
	if !lit.In(img.Rect.Inset(1)) {
		t.Errorf("particles reach the border (%v in %v): the framing cuts them", lit, img.Rect)
	}
	if lit.Dx() < 96/3 && lit.Dy() < 96/3 {
		t.Errorf("particles cover only %v of the 96x96 picture: framed on something bigger than them", lit)
	}

	lo, hi, ok, err := NewAnimator(m, path, besideModel(path, nil)).particleBounds(context.Background(), opt)
	if err != nil || !ok {
		t.Fatalf("particleBounds: ok %v, %v", ok, err)
	}
	for i, c := range [3]float64{400, 0, 100} {
		if !(lo[i] < c && c < hi[i]) {
			t.Errorf("particle box %v-%v does not contain the emitter at (400, 0, 100)", lo, hi)
			break
		}
	}

	// Without particles there is nothing to frame or draw.
	opt.Particles.Off = true
	bare, _, err := renderAt(m, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !litBounds(bare, bg).Empty() {
		t.Error("the model has no geometry, yet something was drawn without particles")
	}
	if _, _, ok, _ := NewAnimator(m, path, besideModel(path, nil)).particleBounds(context.Background(), opt); ok {
		t.Error("particleBounds with particles off reports a box")
	}
}
