package mdxrender_test

import (
	"bytes"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// Models that name stock textures (Textures\..., ReplaceableTextures\...)
// find them in the game data: a folder of game files laid out as the game
// lays them out, or the same files in a War3.mpq made by StormLib, which
// give the same pictures; without game data the same textures are
// missing.
func TestGameData(t *testing.T) {
	shared := testshared.Corpus(t)
	files := filepath.Join(shared, "corpus", "files")
	// Stock files some corpus repositories carry: the team colours.
	game := t.TempDir()
	src := filepath.Join(files, "ReterasModelStudio", "matrixeater", "res", "ReplaceableTextures", "TeamColor")
	dst := filepath.Join(game, "ReplaceableTextures", "TeamColor")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"TeamColor00.blp", "TeamColor01.blp"} {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Skip(err)
		}
		if err := os.WriteFile(filepath.Join(dst, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	unit := filepath.Join(files, "war3-ap-maps", "mods", "apimports", "evilshadowhunter.mdx")
	render := func(gameData string) *image.NRGBA {
		t.Helper()
		var o mdxrender.Options
		if gameData != "" {
			g, err := mdxrender.OpenGameData(gameData)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			o.GameData = g.List
		}
		m, err := mdxrender.Open(unit, &o)
		if err != nil {
			t.Fatal(err)
		}
		img, _, err := m.Render(mdxrender.View{Yaw: 30, Width: 128})
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	bare, folder := render(""), render(game)
	if bytes.Equal(bare.Pix, folder.Pix) {
		t.Fatal("the game data's team colour file changed nothing")
	}
	if _, err := exec.LookPath("smpq"); err != nil {
		t.Log("smpq not installed: the MPQ half is skipped")
		return
	}
	install := t.TempDir()
	// smpq takes files, not folders; it stores them with the game's '\'.
	cmd := exec.Command("smpq", "-c", "-q", "-M", "1", filepath.Join(install, "War3.mpq"),
		"ReplaceableTextures/TeamColor/TeamColor00.blp", "ReplaceableTextures/TeamColor/TeamColor01.blp")
	cmd.Dir = game
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("smpq: %v: %s", err, out)
	}
	if mpq := render(install); !bytes.Equal(mpq.Pix, folder.Pix) {
		t.Error("the game data as War3.mpq gives another picture than as a folder")
	}
}

// A model inside an unpacked map (a folder holding war3map.w3i) finds the
// textures kept at the map's root, as the game does; outside a map it
// does not.
func TestUnpackedMapRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "MyMap")
	for _, f := range []struct{ from, to string }{
		{"testdata/models/flipbook.mdl", "war3mapImported/flipbook.mdl"},
		{"testdata/models/Textures/fixture_checker.tga", "Textures/fixture_checker.tga"},
		{"testdata/models/Textures/fixture_stripes.tga", "Textures/fixture_stripes.tga"},
	} {
		b, err := os.ReadFile(f.from)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, filepath.FromSlash(f.to))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := func(o *mdxrender.Options) int {
		t.Helper()
		m, err := mdxrender.Open(filepath.Join(root, "war3mapImported", "flipbook.mdl"), o)
		if err != nil {
			t.Fatal(err)
		}
		_, warns, err := m.Render(mdxrender.View{Width: 32})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, w := range warns {
			if w.Code == render.MissingTexture {
				n++
			}
		}
		return n
	}
	if n := missing(nil); n == 0 {
		t.Fatal("outside a map, the root's textures were found")
	}
	if err := os.WriteFile(filepath.Join(root, "war3map.w3i"), []byte("map info"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := missing(nil); n == 0 {
		t.Error("the map's root was found above the model's folder, which is all the caller named")
	}
	if n := missing(&mdxrender.Options{Within: root}); n != 0 {
		t.Errorf("inside a map named as Within, %d textures are still missing", n)
	}
	if n := missing(&mdxrender.Options{Within: root, NoMapRoot: true}); n == 0 {
		t.Error("NoMapRoot still looks at the map's root")
	}
}
