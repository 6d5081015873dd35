package texture

import (
	"image"
	"math"
	"testing"
)

func texOf(w, h int, pix ...uint8) *Texture {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	copy(img.Pix, pix)
	return &Texture{Levels: []*image.NRGBA{img}}
}

func near(a, b [4]float32) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-4 {
			return false
		}
	}
	return true
}

func TestSampleBilinear(t *testing.T) {
	// 2×1: black then white, both opaque.
	tex := texOf(2, 1, 0, 0, 0, 255, 255, 255, 255, 255)
	cases := []struct {
		u, v float32
		want float32
	}{
		{0.25, 0.5, 0},   // centre of texel 0
		{0.75, 0.5, 1},   // centre of texel 1
		{0.5, 0.5, 0.5},  // between them
		{0.375, 0, 0.25}, // v does not matter for one row
		{0, 0.5, 0},      // clamp at the left edge
		{1.5, 0.5, 1},    // clamp beyond
	}
	for _, c := range cases {
		got := tex.Sample(c.u, c.v, 0)
		if !near(got, [4]float32{c.want, c.want, c.want, 1}) {
			t.Errorf("clamp (%v,%v): got %v, want %v", c.u, c.v, got, c.want)
		}
	}
	// Repeat along u: at u = 0 the left edge blends with the last texel.
	rep := tex.WithWrap(WrapWidth)
	if got := rep.Sample(0, 0.5, 0); !near(got, [4]float32{0.5, 0.5, 0.5, 1}) {
		t.Errorf("repeat u=0: got %v", got)
	}
	if got := rep.Sample(2.25, 0.5, 0); !near(got, [4]float32{0, 0, 0, 1}) {
		t.Errorf("repeat u=2.25: got %v", got)
	}
	if tex.Wrap != 0 {
		t.Error("WithWrap changed the original")
	}
}

func TestSampleOrientation(t *testing.T) {
	// 1×2: row 0 red, row 1 blue. v = 0 is row 0 (no flip).
	tex := texOf(1, 2, 255, 0, 0, 255, 0, 0, 255, 255)
	if got := tex.Sample(0.5, 0.25, 0); !near(got, [4]float32{1, 0, 0, 1}) {
		t.Errorf("v=0.25: got %v, want red", got)
	}
	rep := tex.WithWrap(WrapHeight)
	if got := rep.Sample(0.5, 1.0, 0); !near(got, [4]float32{0.5, 0, 0.5, 1}) {
		t.Errorf("repeat v=1: got %v", got)
	}
}

func TestSamplePremultipliedFiltering(t *testing.T) {
	// Opaque white next to fully transparent red: halfway, the colour must
	// stay white (the transparent texel's red must not bleed in).
	tex := texOf(2, 1, 255, 255, 255, 255, 255, 0, 0, 0)
	got := tex.Sample(0.5, 0.5, 0)
	if !near(got, [4]float32{1, 1, 1, 0.5}) {
		t.Errorf("straight: got %v, want white at alpha 0.5", got)
	}
	pm := tex.SamplePremultiplied(0.5, 0.5, 0)
	if !near(pm, [4]float32{0.5, 0.5, 0.5, 0.5}) {
		t.Errorf("premultiplied: got %v", pm)
	}
	if got := tex.Sample(0.75, 0.5, 0); got != [4]float32{} {
		t.Errorf("transparent texel: got %v, want zero", got)
	}
}

func TestSampleTrilinear(t *testing.T) {
	// Level 0 2×2 black, level 1 1×1 white.
	tex := texOf(2, 2, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255)
	tex.Levels = append(tex.Levels, texOf(1, 1, 255, 255, 255, 255).Levels[0])
	for _, c := range []struct{ lod, want float32 }{{-1, 0}, {0, 0}, {0.25, 0.25}, {1, 1}, {5, 1}, {float32(math.NaN()), 0}} {
		if got := tex.Sample(0.3, 0.6, c.lod); !near(got, [4]float32{c.want, c.want, c.want, 1}) {
			t.Errorf("lod %v: got %v, want %v", c.lod, got, c.want)
		}
	}
	// Non-finite coordinates do not panic.
	for _, u := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e30} {
		_ = tex.WithWrap(WrapWidth|WrapHeight).Sample(u, u, 0.5)
		_ = tex.Sample(u, -u, 0.5)
	}
	if lod := tex.LOD(0.5, 0, 0, 0.5); lod != 0 { // 2-texel image, half per pixel: 1 texel
		t.Errorf("LOD: got %v, want 0", lod)
	}
}
