package render

import (
	"context"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/raster"
)

// particleShot is a picture of a model with WoW emitters and the same
// picture, from the same camera, of the model without them, with where
// each emitter is in the picture.
type particleShot struct {
	on, off *image.NRGBA
	places  []image.Point       // each emitter's origin in front of the camera, projected
	place   map[int]image.Point // by emitter index
}

// shootParticles draws m as opt says, then draws it again without WoW
// particles from the camera the first picture chose.
func shootParticles(t *testing.T, m *mdx.Model, path string, opt View) (particleShot, []Warning) {
	t.Helper()
	var s particleShot
	on := NewAnimator(m, path, besideModel(path, nil))
	img, warns, err := on.Render(opt)
	if err != nil {
		t.Fatal(err)
	}
	s.on = img
	// Draw the frame again to read its camera and pose.
	o := opt
	r, err := on.newFrame(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.draw(); err != nil {
		t.Fatal(err)
	}
	cam := r.cam
	w, h := float64(img.Rect.Dx()), float64(img.Rect.Dy())
	vp := cam.ViewProjection(w / h)
	s.place = map[int]image.Point{}
	for i, e := range m.WoWParticleEmitters {
		p := r.p.World(int(e.Bone)).MulPosition(fauxgl.V(float64(e.Position[0]), float64(e.Position[1]), float64(e.Position[2])))
		c := raster.ClipPosition(vp, [3]float32{float32(p.X), float32(p.Y), float32(p.Z)})
		if c[3] <= 0 {
			continue // behind the camera
		}
		x, y := (float64(c[0]/c[3])+1)/2*w, (1-float64(c[1]/c[3]))/2*h
		s.place[i] = image.Pt(int(math.Round(x)), int(math.Round(y)))
		s.places = append(s.places, s.place[i])
	}
	// The same emitters emitting nothing keep the simulation, so the
	// geometry is posed at the simulation's clock (global sequences run
	// on through the pre-roll) as in the first picture.
	bare := *m
	bare.WoWParticleEmitters = append([]mdx.WoWParticleEmitter(nil), m.WoWParticleEmitters...)
	for i := range bare.WoWParticleEmitters {
		bare.WoWParticleEmitters[i].EmissionRate, bare.WoWParticleEmitters[i].EmissionRateTrack = 0, nil
	}
	bare.WoWRibbonEmitters = nil
	b := NewAnimator(&bare, path, besideModel(path, nil))
	o = opt
	rb, err := b.newFrame(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	rb.fixed = func(int, fauxgl.Vector, float64, float64) (raster.Camera, error) { return cam, nil }
	if s.off, err = rb.draw(); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("WOW_RENDER_DIR"); dir != "" { // for looking at them
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		golden.WritePNG(t, filepath.Join(dir, fmt.Sprintf("%s_%v.png", name, opt.Time)), s.on)
		golden.WritePNG(t, filepath.Join(dir, fmt.Sprintf("%s_%v_off.png", name, opt.Time)), s.off)
	}
	return s, warns
}

// particlePixels returns the pixels the emitters change (a channel off by
// more than 24), the share of them within radius of an emitter, their
// bounding box and their centroid.
func (s particleShot) particlePixels(radius float64) (n int, near float64, box image.Rectangle, centroid [2]float64) {
	in := 0
	r := s.on.Rect
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			a, b := s.on.NRGBAAt(x, y), s.off.NRGBAAt(x, y)
			if max(absDiff(a.R, b.R), absDiff(a.G, b.G), absDiff(a.B, b.B), absDiff(a.A, b.A)) <= 24 {
				continue
			}
			n++
			box = box.Union(image.Rect(x, y, x+1, y+1))
			centroid[0] += float64(x) + 0.5
			centroid[1] += float64(y) + 0.5
			for _, p := range s.places {
				if math.Hypot(float64(x-p.X), float64(y-p.Y)) <= radius {
					in++
					break
				}
			}
		}
	}
	if n == 0 {
		return 0, 0, box, centroid
	}
	return n, float64(in) / float64(n), box, [2]float64{centroid[0] / float64(n), centroid[1] / float64(n)}
}

// TestWoWParticleModels renders the vanilla M2s with particle emitters as
// the CLI does by default (and the login scenes from their own camera) at
// several times: each picture shows something, the emitters change a good
// number of pixels, and those lie around the emitters' places. UI-BuffOn's
// two emitters share one place, from which its particles stream 40 units a
// second away from the camera looking down: the burst of rays they draw,
// framed on them, is centred there.
func TestWoWParticleModels(t *testing.T) {
	root := filepath.Join(wowCorpus(t), "vanilla-wow-interface-textures", "Interface")
	for _, c := range []struct {
		file          string
		camera        string
		width, height int
		// radius: how far from an emitter its particles may be drawn, as
		// a share of the picture's width; centred: that the particle
		// pixels' centroid is within radius of the first emitter instead.
		radius  float64
		centred bool
	}{
		{"Buttons/UI-AutoCastButton.m2", "", 96, 96, 0.3, false},
		{"Buttons/UI-BuffOn.m2", "", 96, 96, 0.15, true},
		{"Glues/Models/UI_Scourge/UI_Scourge.m2", "0", 200, 150, 0.1, false},
		{"Glues/Models/UI_MainMenu/UI_MainMenu.m2", "0", 200, 150, 0.1, false},
	} {
		path := filepath.Join(root, filepath.FromSlash(c.file))
		m, err := testmodel.LoadPath(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, ms := range []float64{250, 700, 1400} {
			// Missing textures drawn white: the corpus lacks some of the
			// stock particle textures (UI_Scourge's lantern), which the
			// default leaves out; where the particles are is the point.
			opt := View{Width: c.width, Height: c.height, Camera: c.camera, Time: Ms(ms), Particles: Particles{Seed: 6}, MissingTextures: MissingWhite}
			s, warns := shootParticles(t, m, path, opt)
			for _, w := range warns {
				if w.Code == BlankPicture {
					t.Errorf("%s at %v ms: %v", c.file, ms, w)
				}
			}
			radius := c.radius * float64(c.width)
			n, near, box, centroid := s.particlePixels(radius)
			t.Logf("%s at %v ms: %d particle pixels in %v around %.0f, %.0f%% near an emitter; emitters at %v", c.file, ms, n, box, centroid, 100*near, s.place)
			if n < c.width*c.height/250 {
				t.Errorf("%s at %v ms: the emitters change %d pixels", c.file, ms, n)
			}
			switch {
			case c.centred:
				if p := s.places[0]; math.Hypot(centroid[0]-float64(p.X), centroid[1]-float64(p.Y)) > radius {
					t.Errorf("%s at %v ms: the particle pixels are centred on %.0f, more than %.0f px from the emitters at %v", c.file, ms, centroid, radius, p)
				}
			case near < 0.8:
				t.Errorf("%s at %v ms: %.0f%% of the particle pixels lie within %.0f px of an emitter", c.file, ms, 100*near, radius)
			}
			if c.camera != "" && filepath.Base(path) == "UI_MainMenu.m2" {
				// The two braziers at the foot of the portal's statues
				// burn: the FlameLick emitters (24 and 26) redden the
				// pixels just above them (the left one mostly hidden by
				// its statue from this camera, the right one in full).
				for _, f := range []struct{ emitter, pixels int }{{24, 3}, {26, 40}} {
					n := s.reddened(s.place[f.emitter].Add(image.Pt(0, -4)), 6)
					t.Logf("fire %d at %v: %d pixels reddened", f.emitter, s.place[f.emitter], n)
					if n < f.pixels {
						t.Errorf("UI_MainMenu at %v ms: %d pixels reddened around emitter %d (%v), want %d: no fire there", ms, n, f.emitter, s.place[f.emitter], f.pixels)
					}
				}
			}
		}
	}
}

// reddened counts the pixels within r of p that the emitters make
// redder by more than 40 and more red than blue: fire.
func (s particleShot) reddened(p image.Point, r int) int {
	n := 0
	for y := p.Y - r; y <= p.Y+r; y++ {
		for x := p.X - r; x <= p.X+r; x++ {
			if !image.Pt(x, y).In(s.on.Rect) {
				continue
			}
			a, b := s.on.NRGBAAt(x, y), s.off.NRGBAAt(x, y)
			if int(a.R) > int(b.R)+40 && int(a.R) > int(a.B)+60 {
				n++
			}
		}
	}
	return n
}
