package texture

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeTGA writes a 1×1 TGA of the given colour.
func writeTGA(t *testing.T, path string, rgb [3]uint8) {
	t.Helper()
	im := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	copy(im.Pix, []uint8{rgb[0], rgb[1], rgb[2], 255})
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, tgaFile(im, 32, true), 0o644); err != nil {
		t.Fatal(err)
	}
}

func colourOf(t *testing.T, tex *Texture) [3]uint8 {
	t.Helper()
	return [3]uint8(tex.Levels[0].Pix[:3])
}

func TestResolverOrder(t *testing.T) {
	base := t.TempDir()
	lib := filepath.Join(base, "lib")
	model := filepath.Join(base, "model")
	// The model asks for Textures\Footman.blp. lib has it converted to TGA
	// under a differently cased folder; the model folder has it by basename.
	writeTGA(t, filepath.Join(lib, "TEXTURES", "footman.TGA"), [3]uint8{1, 0, 0})
	writeTGA(t, filepath.Join(model, "Footman.tga"), [3]uint8{2, 0, 0})
	writeTGA(t, filepath.Join(model, "Textures", "Only.blp"), [3]uint8{3, 0, 0}) // a TGA named .blp: sniffed
	r := &Resolver{Sources: []Source{Folder(lib)}}
	cases := []struct {
		path  string
		want  uint8
		subst bool // found as .dds or .blp under another name: a Substituted warning
	}{
		{`Textures\Footman.blp`, 1, false}, // a converted library: no warning
		{`textures/only.BLP`, 3, false},
		{`Elsewhere\Deep\Only.blp`, 0, false}, // basename fallback finds nothing: Only.blp is not at the root
		{`Foo\Footman.tif`, 2, false},         // DIR/<basename> in the model folder; .tga is no game format
		{`Textures\Only.dds`, 3, true},        // a .blp for a .dds
	}
	for _, c := range cases {
		tex, warns := r.Load(Request{Local: []Source{Folder(model)}, Path: c.path})
		got := colourOf(t, tex)
		if c.want == 0 {
			if len(warns) != 1 || got != [3]uint8{255, 255, 255} || !strings.Contains(warns[0].String(), "not found") {
				t.Errorf("%s: got %v %v, want white and a warning", c.path, got, warns)
			}
			continue
		}
		if got[0] != c.want {
			t.Errorf("%s: got %v %v, want red %d", c.path, got, warns, c.want)
		}
		if c.subst != (len(warns) == 1 && warns[0].Kind == Substituted) || len(warns) > 1 {
			t.Errorf("%s: warnings %v (substituted: %v)", c.path, warns, c.subst)
		}
	}
	// With LocalFirst the model's folder comes first: its basename match
	// beats the library's full-path match, and a full-path match there
	// beats both.
	r2 := &Resolver{Sources: []Source{Folder(lib)}, LocalFirst: true}
	if tex, _ := r2.Load(Request{Local: []Source{Folder(model)}, Path: `Textures\Footman.blp`}); colourOf(t, tex)[0] != 2 {
		t.Errorf("model folder first (basename): got %v", colourOf(t, tex))
	}
	writeTGA(t, filepath.Join(model, "Textures", "Footman.tga"), [3]uint8{4, 0, 0})
	r3 := &Resolver{Sources: []Source{Folder(lib)}, LocalFirst: true} // a new Resolver: listings are remembered
	if tex, _ := r3.Load(Request{Local: []Source{Folder(model)}, Path: `Textures\Footman.blp`}); colourOf(t, tex)[0] != 4 {
		t.Errorf("model folder first (full path): got %v", colourOf(t, tex))
	}
}

func TestResolverConfinement(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	secret := filepath.Join(base, "secret")
	writeTGA(t, filepath.Join(secret, "secret.tga"), [3]uint8{9, 9, 9})
	writeTGA(t, filepath.Join(root, "ok.tga"), [3]uint8{1, 1, 1})
	if err := os.Symlink(secret, filepath.Join(root, "link")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Symlink("ok.tga", filepath.Join(root, "inside.tga")); err != nil {
		t.Fatal(err)
	}
	r := &Resolver{Sources: []Source{Folder(root)}}
	for _, p := range []string{
		`..\secret\secret.tga`, `textures\..\..\secret\secret.tga`,
		filepath.Join(secret, "secret.tga"), `C:\secret\secret.tga`, `\\server\share\x.blp`,
		`link\secret.tga`,
	} {
		tex, warns := r.Load(Request{Path: p})
		if colourOf(t, tex) != [3]uint8{255, 255, 255} || len(warns) != 1 {
			t.Errorf("%q: got %v, %v; want refused", p, colourOf(t, tex), warns)
		}
	}
	// A link that stays inside the root is followed.
	if tex, warns := r.Load(Request{Path: "inside.blp"}); colourOf(t, tex) != [3]uint8{1, 1, 1} {
		t.Errorf("inside link: %v %v", colourOf(t, tex), warns)
	}
}

// TestResolverExtensionFallback: a named file that is absent is looked for
// as .dds, then .blp, then the other image formats, in the same place; a
// .dds or .blp standing in gets a warning naming the file used. A present
// file is used as named, without a warning, and a replaceable texture
// found under another extension is not worth a warning (the model names no
// file).
func TestResolverExtensionFallback(t *testing.T) {
	dir := t.TempDir()
	// TGA data under every name: the decoder sniffs the contents.
	writeTGA(t, filepath.Join(dir, "Units", "Body_Diffuse.dds"), [3]uint8{1, 0, 0})
	writeTGA(t, filepath.Join(dir, "Units", "Body_Diffuse.blp"), [3]uint8{2, 0, 0})
	writeTGA(t, filepath.Join(dir, "Units", "Body_Normal.blp"), [3]uint8{3, 0, 0})
	writeTGA(t, filepath.Join(dir, "Units", "Body_Normal.png"), [3]uint8{4, 0, 0})
	writeTGA(t, filepath.Join(dir, "Units", "Body_ORM.tif"), [3]uint8{5, 0, 0})
	writeTGA(t, filepath.Join(dir, "Units", "Body_ORM.dds"), [3]uint8{6, 0, 0})
	writeTGA(t, filepath.Join(dir, "Units", "Old.tga"), [3]uint8{7, 0, 0})
	writeTGA(t, filepath.Join(dir, "Units", "Old.jpg"), [3]uint8{8, 0, 0})
	r := &Resolver{Sources: []Source{Folder(dir)}}
	cases := []struct {
		path string
		want uint8
		used string // "" when no warning is wanted
	}{
		{`Units\Body_Diffuse.tif`, 1, "Body_Diffuse.dds"}, // .dds before .blp
		{`Units\Body_Diffuse.TGA`, 1, "Body_Diffuse.dds"},
		{`Units\Body_Normal.tif`, 3, "Body_Normal.blp"}, // .blp before .png
		{`Units\Body_ORM.tif`, 5, ""},                   // present as named
		{`Units\Old.blp`, 7, ""},                        // then .tga before .jpg: converted, no warning
		{`Units\Old.dds`, 7, ""},
	}
	for _, c := range cases {
		tex, warns := r.Load(Request{Path: c.path})
		if got := colourOf(t, tex)[0]; got != c.want || IsStandIn(tex) {
			t.Errorf("%s: loaded texture %d (stand-in %v), want %d (%v)", c.path, got, IsStandIn(tex), c.want, warns)
		}
		if c.used == "" {
			if len(warns) != 0 {
				t.Errorf("%s: unexpected warnings %v", c.path, warns)
			}
			continue
		}
		if len(warns) != 1 || warns[0].Kind != Substituted || !strings.Contains(warns[0].String(), c.used) || warns[0].Path != c.path {
			t.Errorf("%s: warnings %v, want one naming %s", c.path, warns, c.used)
		}
	}
	// Nothing under any extension: white, and the warning lists them all.
	tex, warns := r.Load(Request{Path: `Units\Gone.tif`})
	if colourOf(t, tex) != [3]uint8{255, 255, 255} || len(warns) != 1 || warns[0].Kind != NotFound || !IsStandIn(tex) || !IsStandIn(tex.WithWrap(WrapWidth)) {
		t.Fatalf("missing texture: %v %v (stand-in %v)", colourOf(t, tex), warns, IsStandIn(tex))
	}
	_, tried, _ := r.Find(nil, `Units\Gone.tif`)
	if len(tried) == 0 {
		t.Fatal("no locations tried")
	}
	want := []string{"Gone.tif", "Gone.dds", "Gone.blp", "Gone.tga", "Gone.png", "Gone.jpg"}
	if got := nameVariants("Gone.tif"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("variants of Gone.tif: %v, want %v", got, want)
	}
	// A Reforged team colour found as .blp: no warning.
	writeTGA(t, filepath.Join(dir, "ReplaceableTextures", "TeamColor", "TeamColor03.blp"), [3]uint8{9, 0, 0})
	r = &Resolver{Sources: []Source{Folder(dir)}} // a new Resolver: listings are remembered
	tex, warns = r.Load(Request{ReplaceableID: ReplaceableTeamColor, HD: true, Team: Player(3)})
	if colourOf(t, tex)[0] != 9 || len(warns) != 0 {
		t.Errorf("team colour .blp for a Reforged model: %v %v", colourOf(t, tex), warns)
	}
}

func TestReplaceable(t *testing.T) {
	if p, _ := ReplaceablePath(1, 3, false); p != `ReplaceableTextures\TeamColor\TeamColor03.blp` {
		t.Errorf("team colour path %q", p)
	}
	if p, _ := ReplaceablePath(2, 12, true); p != `ReplaceableTextures\TeamGlow\TeamGlow12.dds` {
		t.Errorf("team glow path %q", p)
	}
	if p, _ := ReplaceablePath(37, 0, false); p != `ReplaceableTextures\OutlandMushroomTree\MushroomTree.blp` {
		t.Errorf("tree path %q", p)
	}
	if _, ok := ReplaceablePath(5, 0, false); ok {
		t.Error("id 5 has a path")
	}

	// No files: built-in colours.
	r := &Resolver{}
	tex, warns := r.Load(Request{ReplaceableID: 1, Team: Player(1)})
	if len(warns) != 0 || colourOf(t, tex) != [3]uint8{0, 66, 255} || tex.Width() != 8 {
		t.Errorf("team colour: %v %v", colourOf(t, tex), warns)
	}
	glow, _ := r.Load(Request{ReplaceableID: 2, Team: Player(1)})
	g := glow.Levels[0]
	// 255·(1−r)² with r = hypot(0.5, 0.5)/16 at pixel (16,16).
	centre, corner := g.Pix[g.PixOffset(16, 16)+3], g.Pix[g.PixOffset(0, 0)+3]
	if g.Rect.Dx() != 32 || centre != 233 || corner != 0 || [3]uint8(g.Pix[:3]) != [3]uint8{0, 66, 255} {
		t.Errorf("team glow: size %v centre alpha %d corner alpha %d", g.Rect, centre, corner)
	}
	if rgb, _ := TeamColorRGB(16); rgb != [3]uint8{236, 205, 134} {
		t.Errorf("player 16: %v", rgb)
	}
	if rgb, _ := TeamColorRGB(15); rgb != [3]uint8{190, 0, 254} {
		t.Errorf("player 15: %v", rgb)
	}
	// Reforged numbers 28 teams: 24-27 are the neutral players, all the
	// neutral colour, and have files of their own.
	for n := TeamNeutral; n <= TeamNeutralPassive; n++ {
		if rgb, ok := TeamColorRGB(n); !ok || rgb != [3]uint8{46, 45, 46} {
			t.Errorf("team %d: %v %v, want the neutral colour", n, rgb, ok)
		}
	}
	if _, ok := TeamColorRGB(Teams); ok {
		t.Errorf("team %d has a colour", Teams)
	}
	if p, _ := ReplaceablePath(1, 27, true); p != `ReplaceableTextures\TeamColor\TeamColor27.dds` {
		t.Errorf("team 27 path %q", p)
	}
	// A missing tree is white with a warning.
	if tex, warns := r.Load(Request{ReplaceableID: 31}); len(warns) != 1 || colourOf(t, tex) != [3]uint8{255, 255, 255} {
		t.Errorf("tree: %v", warns)
	}

	// Files win over the table, and HD models find .dds by substitution.
	dir := t.TempDir()
	writeTGA(t, filepath.Join(dir, "ReplaceableTextures", "TeamColor", "TeamColor01.tga"), [3]uint8{7, 7, 7})
	r.Sources = []Source{Folder(dir)}
	if tex, _ := r.Load(Request{ReplaceableID: 1, HD: true, Team: Player(1)}); colourOf(t, tex) != [3]uint8{7, 7, 7} {
		t.Errorf("team colour file: %v", colourOf(t, tex))
	}
}

func TestCache(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.tga"), filepath.Join(dir, "b.tga")
	writeTGA(t, a, [3]uint8{1, 0, 0})
	writeTGA(t, b, [3]uint8{2, 0, 0})
	c := NewCache(4) // one 1×1 texture
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Load(osFile(a), nil, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if s := c.Stats(); s.Misses != 1 || s.Hits != 7 || s.Entries != 1 {
		t.Errorf("after 8 loads of one file: %+v", s)
	}
	t1, _ := c.Load(osFile(a), nil, nil)
	if _, err := c.Load(osFile(b), nil, nil); err != nil {
		t.Fatal(err)
	}
	if s := c.Stats(); s.Evictions != 1 || s.Bytes != 4 {
		t.Errorf("budget not kept: %+v", s)
	}
	// A changed file is decoded again.
	writeTGA(t, b, [3]uint8{3, 0, 0})
	os.Chtimes(b, time1(), time1())
	tb, _ := c.Load(osFile(b), nil, nil)
	if colourOf(t, tb)[0] != 3 || colourOf(t, t1)[0] != 1 {
		t.Errorf("stale cache entry: %v", colourOf(t, tb))
	}
}

func time1() time.Time { return time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC) }

// A custom colour is drawn with the generated stand-ins, never a file.
func TestCustomTeamColour(t *testing.T) {
	dir := t.TempDir()
	writeTGA(t, filepath.Join(dir, "ReplaceableTextures", "TeamColor", "TeamColor00.tga"), [3]uint8{7, 7, 7})
	r := &Resolver{Sources: []Source{Folder(dir)}}
	tex, warns := r.Load(Request{ReplaceableID: ReplaceableTeamColor, Team: TeamRGB([3]uint8{10, 20, 30})})
	if len(warns) != 0 || colourOf(t, tex) != [3]uint8{10, 20, 30} {
		t.Errorf("custom team colour: %v %v", colourOf(t, tex), warns)
	}
	if tex, _ := r.Load(Request{ReplaceableID: ReplaceableTeamColor}); colourOf(t, tex) != [3]uint8{7, 7, 7} {
		t.Errorf("player 0 should use the file: %v", colourOf(t, tex))
	}
}

// A folder extracted from an archive on a case-sensitive disk can hold
// "Textures" and "textures" side by side; the texture is found in either.
func TestResolverTriesEveryCaseVariant(t *testing.T) {
	dir := t.TempDir()
	writeTGA(t, filepath.Join(dir, "Textures", "a.tga"), [3]uint8{1, 0, 0})
	writeTGA(t, filepath.Join(dir, "textures", "b.tga"), [3]uint8{2, 0, 0})
	r := &Resolver{Sources: []Source{Folder(dir)}}
	for p, want := range map[string]uint8{`Textures\A.blp`: 1, `Textures\B.blp`: 2, `TEXTURES\b.tga`: 2} {
		tex, warns := r.Load(Request{Path: p})
		if len(warns) != 0 || colourOf(t, tex)[0] != want {
			t.Errorf("%s: %v %v", p, colourOf(t, tex), warns)
		}
	}
}

// The order of the searched places: the Resolver's sources (a reskin),
// then the model's own, then Fallback (the game's data), which fills in
// only what neither has.
func TestResolverFallbackComesLast(t *testing.T) {
	base := t.TempDir()
	skin, model, game := filepath.Join(base, "skin"), filepath.Join(base, "model"), filepath.Join(base, "game")
	writeTGA(t, filepath.Join(skin, "a.tga"), [3]uint8{1, 0, 0})
	writeTGA(t, filepath.Join(model, "a.tga"), [3]uint8{2, 0, 0})
	writeTGA(t, filepath.Join(model, "b.tga"), [3]uint8{2, 0, 0})
	writeTGA(t, filepath.Join(game, "a.tga"), [3]uint8{3, 0, 0})
	writeTGA(t, filepath.Join(game, "b.tga"), [3]uint8{3, 0, 0})
	writeTGA(t, filepath.Join(game, "c.tga"), [3]uint8{3, 0, 0})
	r := &Resolver{Sources: []Source{Folder(skin)}, Fallback: []Source{Folder(game)}}
	for p, want := range map[string]uint8{"a.tga": 1, "b.tga": 2, "c.tga": 3} {
		tex, _ := r.Load(Request{Local: []Source{Folder(model)}, Path: p})
		if got := colourOf(t, tex)[0]; got != want {
			t.Errorf("%s: from source %d, want %d", p, got, want)
		}
	}
}

// Team stand-ins of one colour share their levels (made once), with no
// room to append into; other colours get their own, of their colour.
func TestTeamStandInsShared(t *testing.T) {
	red, blue := [3]uint8{255, 3, 3}, [3]uint8{0, 66, 255}
	for _, make := range []func([3]uint8) *Texture{TeamGlowTexture, TeamColorTexture} {
		a, b, c := make(red), make(red), make(blue)
		if a == b || len(a.Levels) < 2 || &a.Levels[0] != &b.Levels[0] {
			t.Fatalf("two stand-ins of one colour do not share their levels")
		}
		if cap(a.Levels) != len(a.Levels) {
			t.Errorf("levels have room to append into: len %d, cap %d", len(a.Levels), cap(a.Levels))
		}
		if c.Levels[0] == a.Levels[0] {
			t.Fatal("two colours share levels")
		}
		for _, x := range []struct {
			tex *Texture
			rgb [3]uint8
		}{{a, red}, {c, blue}} {
			mid := x.tex.Levels[0].NRGBAAt(x.tex.Levels[0].Rect.Dx()/2, x.tex.Levels[0].Rect.Dy()/2)
			if [3]uint8{mid.R, mid.G, mid.B} != x.rgb || mid.A == 0 {
				t.Errorf("centre texel %v, want colour %v", mid, x.rgb)
			}
		}
	}
}
