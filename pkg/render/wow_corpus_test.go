package render

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
)

// silhouette summarises the drawn (alpha > 0) pixels of a render over a
// transparent background.
type silhouette struct {
	coverage  float64         // drawn pixels / all pixels
	box       image.Rectangle // bounding box of the drawn pixels
	centreY   float64         // mean row of the drawn pixels
	white     float64         // drawn pixels with every channel >= 235
	colourful float64         // drawn pixels whose max-min channel spread is >= 40
	mean      [3]float64      // mean colour of the drawn pixels
}

func measure(img *image.NRGBA) silhouette {
	var s silhouette
	n := 0
	first := true
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			c := img.NRGBAAt(x, y)
			if c.A == 0 {
				continue
			}
			n++
			if first {
				s.box, first = image.Rect(x, y, x+1, y+1), false
			} else {
				s.box = s.box.Union(image.Rect(x, y, x+1, y+1))
			}
			s.centreY += float64(y)
			if c.R >= 235 && c.G >= 235 && c.B >= 235 {
				s.white++
			}
			if max(c.R, c.G, c.B)-min(c.R, c.G, c.B) >= 40 {
				s.colourful++
			}
			s.mean[0] += float64(c.R)
			s.mean[1] += float64(c.G)
			s.mean[2] += float64(c.B)
		}
	}
	if n == 0 {
		return s
	}
	s.coverage = float64(n) / float64(img.Rect.Dx()*img.Rect.Dy())
	s.centreY /= float64(n)
	s.white /= float64(n)
	s.colourful /= float64(n)
	for i := range s.mean {
		s.mean[i] /= float64(n)
	}
	return s
}

func wowCorpus(t *testing.T) string {
	return filepath.Join(testshared.Corpus(t), "corpus", "files")
}

// renderWoW loads a corpus file through pkg/model, as the CLI does, and
// renders it over a transparent background.
func renderWoW(t *testing.T, path string, opt View) (silhouette, []Warning) {
	t.Helper()
	m, err := testmodel.LoadPath(path)
	if err != nil {
		t.Fatal(err)
	}
	img, warns, err := renderAt(m, path, opt)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if os.Getenv("WOW_RENDER_DIR") != "" { // for looking at them
		golden.WritePNG(t, filepath.Join(os.Getenv("WOW_RENDER_DIR"), strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+".png"), img)
	}
	return measure(img), warns
}

// TestWoWBoar renders Boar.mdx (v1300) from the side in its Stand pose:
// a boar-sized silhouette, wider than tall, upright (its mass — body and
// head — above the middle of its box, the thin legs below), untextured
// because its only texture is WoW replaceable 11 (Monster1), which must
// not be looked up as a Warcraft III cliff or a Reforged .dds.
func TestWoWBoar(t *testing.T) {
	path := filepath.Join(wowCorpus(t), "MDX-Parser", "MDXParser", "Files", "Boar.mdx")
	s, warns := renderWoW(t, path, View{Width: 128, Yaw: 90, Sequence: SequenceNamed("Stand"), Particles: Particles{Off: true}})
	t.Logf("%+v", s)
	if s.coverage < 0.08 || s.coverage > 0.6 {
		t.Errorf("coverage %.3f, want a boar-sized silhouette", s.coverage)
	}
	// (The ratio is the boar's from the side, give or take the
	// perspective of a camera close enough to fill the picture.)
	if w, h := s.box.Dx(), s.box.Dy(); float64(w) < 1.2*float64(h) {
		t.Errorf("side view %dx%d: a boar is longer than tall", w, h)
	}
	if mid := float64(s.box.Min.Y+s.box.Max.Y) / 2; s.centreY >= mid {
		t.Errorf("mass centre row %.1f is not above the box middle %.1f: upside down?", s.centreY, mid)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Message, "WoW replaceable texture 11 (Monster1)") {
		t.Errorf("warnings %v, want one naming replaceable 11 (Monster1)", warns)
	}
	for _, w := range warns {
		if strings.Contains(w.Message, "Cliff") || strings.Contains(w.Message, ".dds") {
			t.Errorf("WoW id resolved as Warcraft III: %v", w)
		}
	}
}

// TestWoWVanillaM2 renders every vanilla interface M2 (v256) and checks the
// recognisable ones: the character-select figures are upright, textured
// from the PNGs beside them (found for the .blp names by extension
// substitution), not white; the quest "!" is yellow; the flat minimap
// arrows are seen from above instead of edge-on.
func TestWoWVanillaM2(t *testing.T) {
	root := filepath.Join(wowCorpus(t), "vanilla-wow-interface-textures", "Interface")
	var all []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".m2") {
			all = append(all, p)
		}
		return nil
	})
	if len(all) != 21 {
		t.Errorf("%d vanilla M2s, want 21", len(all))
	}
	drawn := 0
	for _, p := range all {
		s, _ := renderWoW(t, p, View{Width: 64, Particles: Particles{Off: true}})
		if s.coverage > 0 {
			drawn++
		}
	}
	// Not drawn at the start of their default sequence (Stand):
	// UI-AutoCastButton (particles only), UI-BuffOn and ForcedBackpackItem
	// (their alpha tracks start at 0). MinimapPing draws in Stand; its first
	// sequence (Anim127) starts invisible.
	if drawn != 18 {
		t.Errorf("%d of %d vanilla M2s drew something at time 0, want 18", drawn, len(all))
	}

	glues := filepath.Join(root, "Glues", "Models")
	for _, c := range []string{"UI_RS_Orc", "UI_RS_Scourge", "UI_RS_Dwarf", "UI_RS_NightElf", "UI_RS_Tauren"} {
		t.Run(c, func(t *testing.T) {
			p := filepath.Join(glues, c, c+".m2")
			m, err := testmodel.LoadPath(p)
			if err != nil {
				t.Fatal(err)
			}
			opt := View{Width: 128, Particles: Particles{Off: true}}
			img, _, err := renderAt(m, p, opt)
			if err != nil {
				t.Fatal(err)
			}
			// The same model with no textures to be found: all white, the
			// reference viewer's stand-in (its box may differ by
			// alpha-keyed cut-outs).
			white := opt
			white.MissingTextures = MissingWhite
			bare, _, err := renderAt(m, filepath.Join(t.TempDir(), c+".m2"), white)
			if err != nil {
				t.Fatal(err)
			}
			s, b := measure(img), measure(bare)
			t.Logf("textured %+v\nbare %+v", s, b)
			if s.coverage < 0.04 {
				t.Errorf("coverage %.3f", s.coverage)
			}
			// The Tauren holds its staff out sideways.
			if c != "UI_RS_Tauren" && s.box.Dy() <= s.box.Dx() {
				t.Errorf("front view %dx%d: a standing figure is taller than wide", s.box.Dx(), s.box.Dy())
			}
			changed := 0
			for i := 0; i < len(img.Pix); i += 4 {
				if img.Pix[i+3] > 0 && max(absDiff(img.Pix[i], bare.Pix[i]), absDiff(img.Pix[i+1], bare.Pix[i+1]), absDiff(img.Pix[i+2], bare.Pix[i+2])) > 40 {
					changed++
				}
			}
			if frac := float64(changed) / (s.coverage * float64(128*128)); frac < 0.6 || s.white > 0.3 {
				t.Errorf("%.0f%% of the pixels differ from the untextured render, %.0f%% are white: textures not applied?", 100*frac, 100*s.white)
			}
		})
	}
	// The orc's skin is green.
	s, _ := renderWoW(t, filepath.Join(glues, "UI_RS_Orc", "UI_RS_Orc.m2"), View{Width: 128, Particles: Particles{Off: true}})
	if !(s.mean[1] > s.mean[2]) {
		t.Errorf("orc mean colour %v: not green over blue", s.mean)
	}

	s, warns := renderWoW(t, filepath.Join(root, "Buttons", "TalkToMe.m2"), View{Width: 96, Particles: Particles{Off: true}})
	t.Logf("TalkToMe %+v %v", s, warns)
	if len(warns) != 0 || s.coverage < 0.05 || s.box.Dy() < 2*s.box.Dx() || !(s.mean[0] > 150 && s.mean[1] > 120 && s.mean[2] < 100) {
		t.Errorf("TalkToMe: %+v %v, want a yellow exclamation mark", s, warns)
	}
	for _, p := range []string{"Minimap/MinimapArrow.m2", "Minimap/Rotating-MinimapGroupArrow.m2"} {
		s, _ := renderWoW(t, filepath.Join(root, filepath.FromSlash(p)), View{Width: 64, Particles: Particles{Off: true}})
		if s.coverage < 0.02 || s.white > 0.5 {
			t.Errorf("%s: %+v, want the arrow seen from above", p, s)
		}
	}
}

// TestWoWSceneCameras renders the login-screen scenes from their own M2
// camera (converted by pkg/m2): from inside the scene the picture is
// filled, where the orbit camera sees the backdrop from behind.
func TestWoWSceneCameras(t *testing.T) {
	glues := filepath.Join(wowCorpus(t), "vanilla-wow-interface-textures", "Interface", "Glues", "Models")
	for _, c := range []string{"UI_MainMenu", "UI_Dwarf", "UI_Scourge", "UI_Human"} {
		s, _ := renderWoW(t, filepath.Join(glues, c, c+".m2"), View{Width: 96, Camera: "0", Particles: Particles{Off: true}})
		if s.coverage < 0.6 {
			t.Errorf("%s from its camera: %.0f%% of the picture drawn", c, 100*s.coverage)
		}
	}
	// The Dark Portal scene is textured from the PNGs beside it.
	s, _ := renderWoW(t, filepath.Join(glues, "UI_MainMenu", "UI_MainMenu.m2"), View{Width: 96, Camera: "0", Particles: Particles{Off: true}})
	if s.colourful < 0.1 || s.white > 0.4 {
		t.Errorf("UI_MainMenu: %+v", s)
	}
}
