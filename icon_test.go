package mdxrender_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/icon"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// TestIconsIntoGameFolders makes every kind of icon, classic and HD, of a
// fixture model with a camera named Portrait, writes them and reads them
// back: each file where the game looks for it, BLP1 64×64 with seven
// levels, DDS 256×256 with nine, a PNG beside each holding the icon, the
// same bytes a second time.
func TestIconsIntoGameFolders(t *testing.T) {
	m, err := mdxrender.Open("testdata/models/portrait_camera.mdl", nil)
	if err != nil {
		t.Fatal(err)
	}
	set, _, err := m.Icons(context.Background(), mdxrender.IconOptions{Kinds: icon.Kinds(), HD: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(set.Framing, `"Portrait"`) {
		t.Errorf("framed by %s, want the camera named Portrait", set.Framing)
	}
	if len(set.Icons) != 2*len(icon.Kinds()) {
		t.Fatalf("%d icons", len(set.Icons))
	}
	dir := t.TempDir()
	written, err := mdxrender.WriteIcons(context.Background(), dir, "Fixture", set.Icons, mdxrender.IconFiles{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ReplaceableTextures/CommandButtons/BTNFixture.blp",
		"ReplaceableTextures/CommandButtonsDisabled/DISBTNFixture.blp",
		"ReplaceableTextures/PassiveButtons/PASFixture.blp",
		"ReplaceableTextures/CommandButtonsDisabled/DISPASFixture.blp",
		"ReplaceableTextures/CommandButtons/ATCFixture.blp",
		"_hd.w3mod/ReplaceableTextures/CommandButtons/BTNFixture.dds",
		"_hd.w3mod/ReplaceableTextures/CommandButtonsDisabled/DISBTNFixture.dds",
		"_hd.w3mod/ReplaceableTextures/PassiveButtons/PASFixture.dds",
		"_hd.w3mod/ReplaceableTextures/CommandButtonsDisabled/DISPASFixture.dds",
		"_hd.w3mod/ReplaceableTextures/CommandButtons/ATCFixture.dds",
	}
	var all []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			all = append(all, filepath.ToSlash(rel))
		}
		return nil
	})
	for _, w := range want {
		png := strings.TrimSuffix(w, filepath.Ext(w)) + ".png"
		if !slices.Contains(all, w) || !slices.Contains(all, png) || !slices.Contains(written, w) {
			t.Errorf("%s (and its PNG) not written; the folder holds %v", w, all)
		}
	}
	if len(all) != 2*len(want) {
		t.Errorf("%d files written, want %d: %v", len(all), 2*len(want), all)
	}
	for i, ic := range set.Icons {
		p := filepath.Join(dir, mdxrender.IconPath(ic.Kind, ic.Size, "Fixture"))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var tex *texture.Texture
		levels := 7
		if ic.Size == icon.HD {
			tex, err = texture.DecodeDDS(b, nil)
			levels = 9
		} else {
			tex, err = texture.DecodeBLP(b, nil)
		}
		if err != nil || len(tex.Levels) != levels || tex.Width() != ic.Size {
			t.Fatalf("%s: %v, want %d levels at %d", p, err, levels, ic.Size)
		}
		f, err := os.Open(strings.TrimSuffix(p, filepath.Ext(p)) + ".png")
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || !samePixels(img, ic.Image) {
			t.Errorf("%s: the PNG beside it is not the icon (%v)", p, err)
		}
		if i == 0 {
			again, _, err := m.Icons(context.Background(), mdxrender.IconOptions{Kinds: icon.Kinds(), HD: true})
			if err != nil || !bytes.Equal(again.Icons[0].Image.Pix, ic.Image.Pix) {
				t.Errorf("a second Icons made another picture (%v)", err)
			}
		}
	}
	if _, err := mdxrender.WriteIcons(context.Background(), dir, "../x", set.Icons, mdxrender.IconFiles{}); err == nil {
		t.Error("a name with a path separator was written")
	}
}

func samePixels(a image.Image, b *image.NRGBA) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := b.Rect.Min.Y; y < b.Rect.Max.Y; y++ {
		for x := b.Rect.Min.X; x < b.Rect.Max.X; x++ {
			r, g, bl, al := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r != r2 || g != g2 || bl != b2 || al != a2 {
				return false
			}
		}
	}
	return true
}

func TestIconNames(t *testing.T) {
	for in, want := range map[string]string{
		"units/Footman.mdx": "Footman",
		`maps\Hero.w3x:war3mapImported\Kain_Portrait.mdx`: "Kain",
		"minister of death.mdx":                           "minister of death",
		"a/b/We:ird?.mdl":                                 "ird_",
	} {
		if got := mdxrender.IconName(in); got != want {
			t.Errorf("IconName(%q) = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"", "a/b", `a\b`, "..", "x\x00", strings.Repeat("a", 101)} {
		if mdxrender.CheckIconName(bad) == nil {
			t.Errorf("CheckIconName(%q) accepted", bad)
		}
	}
}

// TestIconsFillCorpusPortraits holds the icons of every corpus unit model
// with a portrait (a Name_Portrait model beside it, or its own camera
// named like Portrait), and of the portrait models themselves, to
// filling the icon: the box of the model's visible pixels covers at least
// 60% of the area inside the frame.
func TestIconsFillCorpusPortraits(t *testing.T) {
	dir := testshared.Corpus(t)
	var models []string
	filepath.WalkDir(filepath.Join(dir, "corpus", "files"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		ext := strings.ToLower(filepath.Ext(p))
		if ext == ".mdx" || ext == ".mdl" {
			models = append(models, p)
		}
		return nil
	})
	n := 0
	for _, p := range models {
		if !hasPortrait(t, p, models) {
			continue
		}
		n++
		rel, _ := filepath.Rel(dir, p)
		m, err := mdxrender.Open(p, &mdxrender.Options{Within: dir})
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		set, _, err := m.Icons(context.Background(), mdxrender.IconOptions{})
		m.Close()
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		cover := mdxrender.InnerCover(set.Picture)
		t.Logf("%s: %s, covers %.0f%% of the inner area", rel, set.Framing, 100*cover)
		if cover < 0.6 {
			t.Errorf("%s: the model covers %.0f%% of the icon's inner area (%s)", rel, 100*cover, set.Framing)
		}
	}
	if n < 8 {
		t.Errorf("%d corpus models with a portrait, want at least 8", n)
	}
}

// hasPortrait reports whether the model at p is a portrait model, has one
// beside it, or has a camera named like Portrait.
func hasPortrait(t *testing.T, p string, all []string) bool {
	base := strings.ToLower(strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)))
	if strings.HasSuffix(base, "_portrait") {
		return true
	}
	for _, q := range all {
		if filepath.Dir(q) == filepath.Dir(p) && strings.EqualFold(strings.TrimSuffix(filepath.Base(q), filepath.Ext(q)), base+"_portrait") {
			return true
		}
	}
	m, err := mdxrender.Open(p, nil)
	if err != nil {
		return false
	}
	defer m.Close()
	for _, c := range m.File.Model.Cameras {
		if strings.Contains(strings.ToLower(c.Name), "portrait") {
			return true
		}
	}
	return false
}
