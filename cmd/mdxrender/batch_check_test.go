package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"image"
	"image/gif"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kettek/apng"

	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/sheet"
)

// TestCheckEndToEnd runs 'check' as CI would, on every fixture model, a
// broken file and (when ../shared is present) the first 50 corpus models:
// --update writes the goldens, a second run must find no regression (the
// output is deterministic), no model may crash, every failed model is
// explained in the manifest, the JUnit report counts every comparison and
// every failed model, and the gallery lists failures first and links only
// files that exist.
func TestCheckEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("renders every fixture and up to 50 corpus models twice")
	}
	dir := t.TempDir()
	fixtures, _ := filepath.Glob(filepath.Join(fixtureDir, "*.md[lx]"))
	m2s, _ := filepath.Glob(filepath.Join(fixtureDir, "*.m2"))
	fixtures = append(fixtures, m2s...)
	if len(fixtures) < 10 {
		t.Fatalf("only %d fixture models in %s", len(fixtures), fixtureDir)
	}
	var list []string
	for _, f := range fixtures {
		abs, _ := filepath.Abs(f)
		list = append(list, abs)
	}
	bad := filepath.Join(dir, "broken.mdx")
	os.WriteFile(bad, []byte("MDLXVERS\x04\x00\x00\x00\x20\x03"), 0o644)
	list = append(list, bad)
	corpus := 0
	if dirExists(filepath.Join(testshared.Root(), "corpus")) {
		cm := corpusModels(t, 50)
		corpus = len(cm)
		list = append(list, cm...)
	}
	os.WriteFile(filepath.Join(dir, "list.txt"), []byte(strings.Join(list, "\n")), 0o644)
	cfg := filepath.Join(dir, "check.yaml")
	os.WriteFile(cfg, []byte(`inputs:
  list: list.txt
output:
  dir: out
  name: "{path}-{ext}"
  formats: [png, sheet]
render:
  size: 48
sheet:
  frames: 3
check:
  golden: golden
`), 0o644)

	stdout, stderr, code := run(t, "check", "-c", cfg, "--update")
	if code != 0 && code != 1 {
		t.Fatalf("check --update: exit %d\n%s%s", code, stdout, stderr)
	}
	// --force: render again rather than trust the cache, so the comparison
	// tests that rendering is deterministic.
	stdout, stderr, code = run(t, "check", "-c", cfg, "--force")
	out := filepath.Join(dir, "out")
	m := readManifest(t, filepath.Join(out, "manifest.json"))
	t.Logf("%d fixtures, 1 broken file, %d corpus models: %+v", len(fixtures), corpus, m.Summary)
	if len(m.Models) != len(list) {
		t.Fatalf("%d of %d models in the manifest", len(m.Models), len(list))
	}
	if want := 0; m.Summary.Failed > 0 {
		want = 1
		if code != want {
			t.Errorf("exit %d with %d failed models, want 1\n%s", code, m.Summary.Failed, stderr)
		}
	} else if code != 0 {
		t.Errorf("exit %d without failures\n%s%s", code, stdout, stderr)
	}
	if m.Summary.Regressions != 0 || m.Summary.Checks == 0 || m.Summary.Cached != 0 {
		t.Errorf("second run against fresh goldens: %+v (rendering must be deterministic)", m.Summary)
	}
	var failed, ok []string
	outputs := 0
	for _, r := range m.Models {
		msg := strings.Join(r.Errors, "; ")
		if strings.Contains(msg, "panic") {
			t.Errorf("%s crashed the renderer: %s", r.Input, msg)
		}
		if r.Status == batch.StatusFailed {
			failed = append(failed, r.Input)
			if msg == "" {
				t.Errorf("%s failed without an explanation in the manifest", r.Input)
			}
			if strings.HasPrefix(r.Input, filepath.ToSlash(filepath.Clean(fixtureDir))) || strings.Contains(r.Input, "/testdata/models/") {
				t.Errorf("fixture %s failed: %s", r.Input, msg)
			}
			continue
		}
		ok = append(ok, r.Input)
		for _, o := range r.Outputs {
			if o.Kind == string(batch.FormatPNG) || o.Kind == string(batch.FormatSheet) {
				outputs++
			}
		}
	}
	if len(failed) == 0 || failed[0] == "" {
		t.Fatalf("the broken file did not fail")
	}
	if m.Summary.Checks != outputs {
		t.Errorf("%d checks for %d PNG and sheet outputs", m.Summary.Checks, outputs)
	}

	// JUnit: one case per comparison and one per failed model.
	jb, err := os.ReadFile(filepath.Join(out, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var ju struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
	}
	if err := xml.Unmarshal(jb, &ju); err != nil {
		t.Fatal(err)
	}
	if ju.Tests != outputs+len(failed) || ju.Failures != 0 || ju.Errors != len(failed) {
		t.Errorf("junit: %d tests, %d failures, %d errors; want %d, 0, %d", ju.Tests, ju.Failures, ju.Errors, outputs+len(failed), len(failed))
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d compared, 0 regressions", outputs); !strings.Contains(string(md), want) {
		t.Errorf("summary.md lacks %q:\n%.600s", want, md)
	}

	// Gallery: every failed model's card before every good one's.
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	var cards []string
	for _, c := range regexp.MustCompile(`<div class="input">([^<]*)</div>`).FindAllSubmatch(page, -1) {
		cards = append(cards, html.UnescapeString(string(c[1])))
	}
	if len(cards) != len(list) {
		t.Errorf("gallery has %d cards for %d models", len(cards), len(list))
	}
	isFailed := map[string]bool{}
	for _, in := range failed {
		isFailed[in] = true
	}
	for i, c := range cards {
		if i < len(failed) != isFailed[c] {
			t.Errorf("gallery card %d is %s (failed %v); the %d failed models must come first", i, c, isFailed[c], len(failed))
			break
		}
	}
	for _, l := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllSubmatch(page, -1) {
		p, err := url.PathUnescape(html.UnescapeString(string(l[1])))
		if err != nil {
			t.Errorf("gallery link %q: %v", l[1], err)
			continue
		}
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Errorf("gallery links a missing file: %v", err)
		}
	}
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// framingModel has a small crystal at the origin on bone 0 and, 300 units
// away, a second one on the same bone that is hidden (geoset animation
// alpha 0) throughout "Stand" and appears in the second half of "Reveal".
func framingModel() *mdx.Model {
	m := &mdx.Model{Version: 800, Name: "framing"}
	m.Sequences = []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 1000}}, {Name: "Reveal", Interval: [2]uint32{2000, 3000}}}
	m.Textures = []mdx.Texture{{ReplaceableID: 1}}
	m.Materials = []mdx.Material{{Layers: []mdx.Layer{{FilterMode: mdx.FilterNone, TextureID: 0, TextureAnimID: -1, Alpha: 1}}}}
	m.Bones = []mdx.Bone{{Node: mdx.Node{Name: "Root", ObjectID: 0, ParentID: -1, Flags: mdx.NodeBone}, GeosetID: -1, GeosetAnimID: -1}}
	m.PivotPoints = []mdx.Vec3{{}}
	near := newMesh(0, 0)
	near.bipyramid(6, mdx.Vec3{0, 0, 20}, 10, 20, 20)
	far := newMesh(0, 0)
	far.bipyramid(6, mdx.Vec3{0, 300, 20}, 10, 20, 20)
	m.Geosets = []mdx.Geoset{near.g, far.g}
	for i := range m.Geosets {
		fitExtent(&m.Geosets[i])
	}
	m.GeosetAnims = []mdx.GeosetAnim{{GeosetID: 1, Alpha: 1, Color: mdx.Vec3{1, 1, 1}, AlphaTrack: &mdx.Track[float32]{
		Interpolation: mdx.DontInterp, GlobalSeqID: -1,
		Keys: []mdx.Key[float32]{{Frame: 0, Value: 0}, {Frame: 2000, Value: 0}, {Frame: 2500, Value: 1}},
	}}}
	m.Extent = mdx.Extent{Min: mdx.Vec3{-10, -10, 0}, Max: mdx.Vec3{10, 310, 40}}
	for i := range m.Sequences {
		m.Sequences[i].Extent = m.Extent
	}
	return m
}

// drawnBounds is the bounding box of the non-transparent pixels of r.
func drawnBounds(img image.Image, r image.Rectangle) image.Rectangle {
	var b image.Rectangle
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0 {
				b = b.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return b
}

// A sheet is framed on what its frames draw: a geoset that is invisible in
// every sampled frame must not shrink the model (it would if the framing
// took all geometry), and one that appears in some frames must stay inside
// every cell.
func TestSheetFramingIgnoresInvisibleGeosets(t *testing.T) {
	dir := t.TempDir()
	b, err := testmodel.EncodeMDL(framingModel())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "framing.mdl")
	os.WriteFile(p, b, 0o644)
	out := filepath.Join(dir, "out")
	sheet := func(seq string) (image.Image, []image.Rectangle) {
		t.Helper()
		// untrimmed: a frame grown back over packed neighbours would see them
		if so, se, code := run(t, "sheet", p, "-o", out, "--sequence", seq, "--frames", "4", "--size", "64", "--trim=false"); code != 0 {
			t.Fatalf("sheet %s: exit %d\n%s%s", seq, code, so, se)
		}
		img := decodePNG(t, filepath.Join(out, "framing-sheet.png"))
		var meta sheet.Plain
		jb, _ := os.ReadFile(filepath.Join(out, "framing-sheet.plain.json"))
		if err := json.Unmarshal(jb, &meta); err != nil {
			t.Fatal(err)
		}
		// The frames as drawn: a trimmed frame's rectangle grows back to
		// its frame (the rest of which is transparent).
		var cells []image.Rectangle
		for _, a := range meta.Animations {
			for _, f := range a.Frames {
				x, y := f.X-f.OffsetX, f.Y-f.OffsetY
				cells = append(cells, image.Rect(x, y, x+meta.FrameWidth, y+meta.FrameHeight))
			}
		}
		return img, cells
	}

	// Stand: only the near crystal is drawn; framed on it alone it is
	// most of the cell tall (framed with the hidden one it would be ~10 %).
	img, cells := sheet("Stand")
	for _, c := range cells {
		if d := drawnBounds(img, c); d.Dy() < c.Dy()/2 {
			t.Errorf("Stand cell %v: the visible crystal is %d px tall in a %d px cell; the hidden geoset was framed", c, d.Dy(), c.Dy())
		}
	}

	// Reveal: the far crystal appears at 500 ms (frames 3 and 4), so both
	// are framed: two separate blobs, none touching a border.
	img, cells = sheet("Reveal")
	for i, c := range cells {
		d := drawnBounds(img, c)
		if d.Empty() {
			t.Errorf("Reveal cell %d is empty", i)
			continue
		}
		if d.Min.X == c.Min.X || d.Min.Y == c.Min.Y || d.Max.X == c.Max.X || d.Max.Y == c.Max.Y {
			t.Errorf("Reveal cell %d: drawing %v touches the cell border %v", i, d, c)
		}
		wide := d.Dx() > c.Dx()/2
		if want := i >= 2; wide != want {
			t.Errorf("Reveal cell %d: drawing %v in %v; want both crystals drawn = %v", i, d, c, want)
		}
	}
}

// The sheet command's --format gif and apng write one preview per
// sequence, decodable as animations with one frame per sampled time.
func TestSheetCommandAnimatedFormats(t *testing.T) {
	dir := t.TempDir()
	p := fixtureModel(t, dir, "hermite_bezier.mdl", "m.mdl")
	out := filepath.Join(dir, "out")
	stdout, stderr, code := run(t, "sheet", p, "-o", out, "--sequence", "Stand", "--frames", "5", "--size", "40", "--format", "apng,gif")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "m-sheet.png")); !os.IsNotExist(err) {
		t.Errorf("--format apng,gif wrote a sheet too (%v)", err)
	}
	printed := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		printed[filepath.Base(sc.Text())] = true
	}
	for _, f := range []string{"m-Stand.apng.png", "m-Stand.gif"} {
		if !printed[f] {
			t.Errorf("%s not printed:\n%s", f, stdout)
		}
	}
	ab, err := os.ReadFile(filepath.Join(out, "m-Stand.apng.png"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := apng.DecodeAll(bytes.NewReader(ab))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range a.Frames {
		if !f.IsDefault {
			n++
		}
	}
	if n != 5 {
		t.Errorf("APNG has %d frames, want 5", n)
	}
	gb, err := os.ReadFile(filepath.Join(out, "m-Stand.gif"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(gb))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 5 {
		t.Errorf("GIF has %d frames, want 5", len(g.Image))
	}
}
