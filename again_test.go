package mdxrender_test

import (
	"bytes"
	"testing"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// A Model rendered again gives the picture it gave the first time, when
// its textures were decoded level by level as the picture needed them:
// the second render finds every level ready and leaves the levels of
// detail unbounded (raster.SettledSampler). A new Model whose first
// picture was larger (finer levels decoded first) gives it too.
func TestRenderAgainSamePicture(t *testing.T) {
	p := unitModel(t)
	v := mdxrender.View{Width: 128, SSAA: 1, Yaw: 30, Pitch: 20, Particles: render.Particles{Off: true}}
	render := func(m *mdxrender.Model, v mdxrender.View) []byte {
		t.Helper()
		img, _, err := m.Render(v)
		if err != nil {
			t.Fatal(err)
		}
		return img.Pix
	}
	m, err := mdxrender.Open(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := render(m, v)
	for i := range 2 {
		if !bytes.Equal(render(m, v), first) {
			t.Fatalf("render %d of an opened model differs from the first", i+2)
		}
	}
	big := v
	big.Width = 512
	m2, err := mdxrender.Open(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	render(m2, big)
	if !bytes.Equal(render(m2, v), first) {
		t.Fatal("after a larger picture, the model's picture differs")
	}
}
