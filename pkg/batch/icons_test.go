package batch_test

// Icons of a batch's unit models: the files in the game's folders, the
// names, the page, determinism and resume.

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/batchconfig"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// iconInputs writes a folder of models made from the fixture with a
// Portrait camera: two units of one file name in two folders, a portrait
// model beside the first, and a doodad (no camera, Stand and Death).
func iconInputs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(fixtures, "portrait_camera.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, edit func(*mdx.Model)) {
		f, err := model.Load(b, name, mdxrender.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			edit(f.Model)
		}
		var out bytes.Buffer
		if err := mdx.Encode(&out, f.Model); err != nil {
			t.Fatal(err)
		}
		writeTestFile(t, dir, name, out.Bytes())
	}
	write("units/a/Hero.mdx", nil)
	write("units/a/Hero_Portrait.mdx", nil)
	write("units/b/hero.mdx", nil)
	write("doodads/Rock.mdx", func(m *mdx.Model) {
		m.Cameras = nil
		for i := range m.Sequences {
			if m.Sequences[i].Name == "Attack" {
				m.Sequences[i].Name = "Death"
			}
		}
	})
	return dir
}

// iconBatch reads a configuration with an icons section over the
// folder, as the command line does, and runs it.
func iconBatch(t *testing.T, in, out string) *batch.Manifest {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "icons.yaml")
	yaml := "inputs:\n  dirs: [" + in + "]\noutput:\n  dir: " + out + "\n  formats: [icons]\n" +
		"icons:\n  kinds: [btn, disbtn, pas]\n  bg: '#203040'\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := batchconfig.Load(batchconfig.Layers{File: cfg})
	if err != nil {
		t.Fatal(err)
	}
	r := batch.Runner{Options: o, Version: "test"}
	m, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := batch.EachModel(o.ManifestPath(m), func(r *batch.ModelResult) error {
		m.Models = append(m.Models, *r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if m.Summary.Failed != 0 {
		t.Fatalf("failed: %+v", m.Models)
	}
	return m
}

// files lists the files below dir, slash paths relative to it, leaving
// out the cache records.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var all []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() && d.Name() == batch.CacheDir {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			all = append(all, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(all)
	return all
}

// A configuration with icons: and the format icons writes the icons of
// the two units, and only theirs, into icons/ in the game's folders, the
// second Hero numbered with a warning; the doodad and the portrait model
// get none, and the manifest says why.
func TestBatchIconsOfUnits(t *testing.T) {
	in, out := iconInputs(t), t.TempDir()
	m := iconBatch(t, in, out)
	var want []string
	for _, name := range []string{"Hero", "hero_2"} {
		for _, p := range []string{
			"ReplaceableTextures/CommandButtons/BTN" + name,
			"ReplaceableTextures/CommandButtonsDisabled/DISBTN" + name,
			"ReplaceableTextures/PassiveButtons/PAS" + name,
		} {
			want = append(want, "icons/"+p+".blp", "icons/"+p+".png")
		}
	}
	want = append(want, "icons.html", "index.html", "manifest.json")
	slices.Sort(want)
	if got := files(t, out); !slices.Equal(got, want) {
		t.Errorf("the output folder holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	b, err := os.ReadFile(filepath.Join(out, "icons/ReplaceableTextures/CommandButtons/BTNhero_2.blp"))
	if err != nil {
		t.Fatal(err)
	}
	if tex, err := texture.DecodeBLP(b, nil); err != nil || tex.Width() != 64 || tex.Height() != 64 {
		t.Errorf("BTNhero_2.blp: %v, want a 64×64 BLP", err)
	}
	for _, r := range m.Models {
		unit := strings.Contains(r.Input, "units/a/Hero.mdx") || strings.Contains(r.Input, "units/b/hero.mdx")
		if r.Icons == nil || r.Icons.Unit != unit {
			t.Errorf("%s: icons %+v, want unit %v", r.Rel, r.Icons, unit)
			continue
		}
		renamed := slices.ContainsFunc(r.Warnings, func(w batch.Warning) bool { return w.Code == batch.IconNameTaken })
		if renamed != strings.Contains(r.Input, "units/b/") {
			t.Errorf("%s: warnings %v", r.Rel, r.Warnings)
		}
		if strings.Contains(r.Input, "units/a/Hero.mdx") && !strings.Contains(r.Icons.Framing, "Hero_Portrait.mdx") {
			t.Errorf("%s: seen through %s, want the camera of its portrait model", r.Rel, r.Icons.Framing)
		}
	}
	if m.Reports.Icons != batch.IconPageName {
		t.Errorf("reports: %+v", m.Reports)
	}
}

// The page shows every icon (its PNG, at 64 and enlarged) and links its
// game file, under the path of its model; the models that are not units
// are listed with why.
func TestBatchIconPage(t *testing.T) {
	in, out := iconInputs(t), t.TempDir()
	m := iconBatch(t, in, out)
	b, err := os.ReadFile(filepath.Join(out, batch.IconPageName))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	n := 0
	for _, r := range m.Models {
		if !strings.Contains(page, r.Input) {
			t.Errorf("the page does not name %s", r.Input)
		}
		for _, o := range r.Outputs {
			switch o.Kind {
			case batch.KindIconPNG:
				n++
				if strings.Count(page, `src="`+o.Path+`"`) != 2 {
					t.Errorf("the page does not show %s twice (at game size and enlarged)", o.Path)
				}
			case batch.KindIcon:
				if !strings.Contains(page, `href="`+o.Path+`"`) {
					t.Errorf("the page does not link %s", o.Path)
				}
			}
		}
	}
	if n != 6 {
		t.Errorf("%d icons with PNGs, want 6", n)
	}
	for _, s := range []string{`width="64"`, `width="256"`, "image-rendering:pixelated", "Not units", "no portrait model beside it", "it is a portrait model"} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
}

// In a batch of icons alone, the gallery shows each unit's icon as its
// card's picture, says why a model has none, and links the icons page.
func TestBatchIconsGallery(t *testing.T) {
	in, out := iconInputs(t), t.TempDir()
	iconBatch(t, in, out)
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, s := range []string{
		`<a href="icons.html">`,
		`<img src="icons/ReplaceableTextures/CommandButtons/BTNHero.png"`,
		"no icon: not a unit",
	} {
		if !strings.Contains(page, s) {
			t.Errorf("the gallery lacks %q", s)
		}
	}
	if strings.Contains(page, ">no picture<") {
		t.Error(`a card says "no picture"`)
	}
}

// The icons and the page are the same bytes whatever GOMAXPROCS; a
// second run finds every model unchanged and rewrites nothing, and a
// deleted icon makes its model's icons again.
func TestBatchIconsDeterministicAndResumed(t *testing.T) {
	in := iconInputs(t)
	read := func(dir string) map[string][]byte {
		out := map[string][]byte{}
		for _, f := range files(t, dir) {
			if f == "manifest.json" { // holds timings
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			out[f] = b
		}
		return out
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var outs []map[string][]byte
	var dir string
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		dir = t.TempDir()
		iconBatch(t, in, dir)
		outs = append(outs, read(dir))
	}
	if len(outs[0]) != len(outs[1]) {
		t.Fatalf("%d files with GOMAXPROCS 1, %d with 4", len(outs[0]), len(outs[1]))
	}
	for f, b := range outs[0] {
		if !bytes.Equal(b, outs[1][f]) {
			t.Errorf("%s differs between GOMAXPROCS 1 and 4", f)
		}
	}

	stat := func(p string) os.FileInfo {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	btn := "icons/ReplaceableTextures/CommandButtons/BTNHero.blp"
	before := stat(btn)
	m := iconBatch(t, in, dir)
	if m.Summary.Cached != len(m.Models) {
		t.Errorf("second run: %+v, want every model unchanged", m.Summary)
	}
	if !os.SameFile(before, stat(btn)) || !stat(btn).ModTime().Equal(before.ModTime()) {
		t.Errorf("the second run rewrote %s", btn)
	}
	if got := read(dir); len(got) != len(outs[1]) {
		t.Errorf("after the second run %d files, want %d", len(got), len(outs[1]))
	}

	if err := os.Remove(filepath.Join(dir, "icons/ReplaceableTextures/PassiveButtons/PAShero_2.blp")); err != nil {
		t.Fatal(err)
	}
	m = iconBatch(t, in, dir)
	for _, r := range m.Models {
		want := batch.StatusCached
		if strings.Contains(r.Input, "units/b/") {
			want = batch.StatusOK
		}
		if r.Status != want {
			t.Errorf("third run: %s %s, want %s", r.Rel, r.Status, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "icons/ReplaceableTextures/PassiveButtons/PAShero_2.blp")); err != nil {
		t.Errorf("the deleted icon was not made again: %v", err)
	}
}

// Icons are bounded by the model's budget: a unit whose icons need a
// larger picture than it may draw fails, with the limit named, and the
// batch goes on.
func TestBatchIconsWithinBudget(t *testing.T) {
	in := iconInputs(t)
	o := batch.DefaultOptions()
	o.Inputs.Dirs = []string{in}
	o.Output.Dir, o.Output.Formats, o.Output.Gallery = t.TempDir(), []batch.Format{batch.FormatIcons}, false
	o.Limits.RenderPixels = 128 * 128 // the icons are drawn at 256×256
	r := batch.Runner{Options: &o, Version: "test"}
	m, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range m.Models {
		unit := strings.Contains(res.Input, "units/a/Hero.mdx") || strings.Contains(res.Input, "units/b/hero.mdx")
		if failed := res.Status == batch.StatusFailed; failed != unit {
			t.Errorf("%s: %s %v, want failed %v", res.Rel, res.Status, res.Errors, unit)
		}
		if unit && (len(res.Errors) == 0 || !strings.Contains(res.Errors[0], "render_pixels")) {
			t.Errorf("%s: errors %v, want the limit named", res.Rel, res.Errors)
		}
	}
	if got := files(t, o.Output.Dir); slices.ContainsFunc(got, func(f string) bool { return strings.HasPrefix(f, "icons/") }) {
		t.Errorf("icons written over budget: %v", got)
	}
}
