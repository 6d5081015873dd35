package batch

import (
	"context"
	"encoding/xml"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

// solid is a w x h image of one colour.
func solid(w, h int, c color.NRGBA) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(m.Pix); i += 4 {
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return m
}

func TestCompare(t *testing.T) {
	a := solid(10, 10, color.NRGBA{100, 100, 100, 255})
	b := solid(10, 10, color.NRGBA{100, 100, 100, 255})
	if c, _ := Compare(a, b, 0); c.Mismatched != 0 || c.Total != 100 || c.MaxDiff != 0 {
		t.Errorf("equal images: %+v", c)
	}
	b.SetNRGBA(1, 1, color.NRGBA{102, 100, 100, 255})
	b.SetNRGBA(2, 2, color.NRGBA{100, 140, 100, 255})
	c, diff := Compare(a, b, 2)
	if c.Mismatched != 1 || c.MaxDiff != 40 || c.Share() != 0.01 {
		t.Errorf("tolerance 2: %+v", c)
	}
	if d := diff.NRGBAAt(2, 2); d.R < 128 || d.G != 0 {
		t.Errorf("diff pixel at the mismatch %v, want red", d)
	}
	if d := diff.NRGBAAt(1, 1); d.R != d.G {
		t.Errorf("diff pixel within tolerance %v, want grey", d)
	}
	// Fully transparent pixels are equal whatever colour they hide.
	x := solid(4, 4, color.NRGBA{255, 0, 0, 0})
	y := solid(4, 4, color.NRGBA{0, 255, 0, 0})
	if c, _ := Compare(x, y, 0); c.Mismatched != 0 {
		t.Errorf("hidden colours counted: %+v", c)
	}
	if c, _ := Compare(x, solid(5, 4, color.NRGBA{}), 0); !c.SizeMismatch || c.Share() != 1 {
		t.Errorf("size mismatch: %+v", c)
	}
	// A sub-image with a non-zero origin compares by position.
	big := solid(20, 20, color.NRGBA{100, 100, 100, 255})
	if c, _ := Compare(big.SubImage(image.Rect(5, 5, 15, 15)), a, 0); c.Mismatched != 0 {
		t.Errorf("sub-image: %+v", c)
	}
}

func runCheck(t *testing.T, dir string, share float64, update bool) *Manifest {
	t.Helper()
	c := options(dir, func(o *Options) {
		o.Inputs.Dirs = []string{"models"}
		o.Output.Dir = "out"
		o.Output.Formats = []Format{FormatPNG, FormatSheet}
		o.Render.Size = Square(24)
		o.Sequences.Select = SelectAll
		o.Sheet.Frames = 3
		o.Sheet.Trim = false // a trimmed sheet changes size with its drawing; this test is about pixels
		o.Check = CheckOptions{Golden: "golden", Tolerance: 0, MaxMismatch: share, Update: update, JUnit: "junit.xml", Summary: "summary.md"}
	})
	m, err := runAll(&Runner{Options: c, Renderer: &fakeRenderer{}, Version: "test", Check: true}, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCheckRun(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{
		"models/a.mdx": "seq Stand 0 1000\nseq Walk 1000 1300\n",
		"models/b.mdx": "seq Stand 0 500\nmissing B.blp\n",
		"models/c.mdx": "seq Stand 0 500\n",
	})
	// No goldens yet: every comparison is a "missing" failure.
	m := runCheck(t, dir, 0, false)
	if m.Summary.Checks != 6 || m.Summary.Regressions != 6 || !m.Failed() {
		t.Fatalf("without goldens: %+v", m.Summary)
	}
	m = runCheck(t, dir, 0, true)
	if m.Summary.Updated != 6 || m.Failed() {
		t.Fatalf("update: %+v", m.Summary)
	}
	if _, err := os.Stat(filepath.Join(dir, "golden", "a-default-sheet.png")); err != nil {
		t.Fatal(err)
	}
	m = runCheck(t, dir, 0, false)
	if m.Summary.Regressions != 0 || m.Summary.Checks != 6 || m.Failed() {
		t.Fatalf("against fresh goldens: %+v", m.Summary)
	}

	// Change a model's drawing: its outputs regress; a broken model errors.
	fixture(t, dir, map[string]string{
		"models/b.mdx": "seq Stand 0 500\nmissing B.blp\nshift 2\n",
		"models/d.mdx": "fail render\n",
	})
	m = runCheck(t, dir, 0.0001, false)
	if m.Summary.Regressions != 2 || m.Summary.Failed != 1 || !m.Failed() {
		t.Fatalf("after the change: %+v", m.Summary)
	}
	out := filepath.Join(dir, "out")
	var diffs []string
	for _, r := range m.Models {
		for _, c := range r.Checks {
			if c.Failed() {
				if c.Diff == "" {
					t.Errorf("%s: failure without a diff image", c.Output)
				} else if _, err := DecodePNGFile(filepath.Join(out, c.Diff)); err != nil {
					t.Errorf("diff image: %v", err)
				}
				diffs = append(diffs, c.Diff)
			}
		}
	}
	// A larger allowance accepts the same change.
	if m2 := runCheck(t, dir, 0.5, false); m2.Summary.Regressions != 0 {
		t.Errorf("max_mismatch 0.5 still fails: %+v", m2.Summary)
	}
	m = runCheck(t, dir, 0.0001, false)

	// JUnit: one case per comparison plus one error per broken model.
	jb, err := os.ReadFile(filepath.Join(out, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var ju struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Cases []struct {
				Class   string `xml:"classname,attr"`
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(jb, &ju); err != nil {
		t.Fatal(err)
	}
	if ju.Tests != 7 || ju.Failures != 2 || ju.Errors != 1 || len(ju.Suites) != 1 || len(ju.Suites[0].Cases) != 7 {
		t.Fatalf("junit: %d tests %d failures %d errors\n%s", ju.Tests, ju.Failures, ju.Errors, jb)
	}
	for _, c := range ju.Suites[0].Cases {
		if c.Failure != nil && (!strings.HasPrefix(c.Name, "b-default") || !strings.Contains(c.Failure.Text, ".diff.png") || !strings.Contains(c.Failure.Message, "pixels differ")) {
			t.Errorf("junit failure case %+v", c)
		}
	}

	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"4 models", "1 failed", "6 compared, 2 regressions", "| ❌ fail |", "b-default.diff.png", "vertex group 7", "missing-texture"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}

	// Gallery: failures first, every link resolves, diff images linked.
	links := checkGalleryLinks(t, out)
	html, _ := os.ReadFile(filepath.Join(out, "index.html"))
	page := string(html)
	ib, id, ia := strings.Index(page, "models/b.mdx"), strings.Index(page, "models/d.mdx"), strings.Index(page, "models/a.mdx")
	if ib < 0 || id < 0 || ia < 0 || ib > ia || id > ia {
		t.Errorf("failures not listed first: b@%d d@%d a@%d", ib, id, ia)
	}
	for _, d := range diffs {
		found := false
		for _, l := range links {
			found = found || l == d
		}
		if !found {
			t.Errorf("gallery does not link %s", d)
		}
	}
}

// TestGoldenNeverDecodedAtAnotherSize: a golden from the repository that
// says it is 8192×8192 (half a megabyte that would decode to 256 MB) is a
// size mismatch read from its header, not a decode; a link out of the
// golden folder is not followed.
func TestGoldenNeverDecodedAtAnotherSize(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.png"), hostile.PNGHeader(8192, 8192, 8, hostile.PNGRGBA, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	m, size, err := decodeGolden(dir, "big.png", image.Pt(64, 64))
	runtime.ReadMemStats(&b)
	if err != nil || m != nil || size != image.Pt(8192, 8192) {
		t.Fatalf("got %v %v %v, want the golden's size and no picture", m, size, err)
	}
	if n := b.TotalAlloc - a.TotalAlloc; n > 16<<20 {
		t.Errorf("allocated %d bytes", n)
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.png"), hostile.PNG(64, 64, 8, hostile.PNGRGBA), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", filepath.Base(outside), "x.png"), filepath.Join(dir, "link.png")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if _, _, err := decodeGolden(dir, "link.png", image.Pt(64, 64)); err == nil {
		t.Error("a link out of the golden folder was followed")
	}
}
