package batch

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

// writeMap writes an archive of fake models (name -> content, in order)
// as dir/map.w3x.
func writeMap(t *testing.T, dir string, names []string, content map[string]string) {
	t.Helper()
	files := map[string][]byte{}
	for _, n := range names {
		files[n] = []byte(content[n])
	}
	if err := os.WriteFile(filepath.Join(dir, "map.w3x"), hostile.MPQFiles(files, names), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runOptions runs a batch of 16-pixel stills into dir/out with the fake
// renderer, the options changed by edit.
func runOptions(t *testing.T, dir string, edit func(o *Options)) (*Manifest, error) {
	t.Helper()
	c := options(dir, func(o *Options) {
		o.Output.Dir = "out"
		o.Render.Size = Square(16)
		edit(o)
	})
	return runAll(&Runner{Options: c, Renderer: &fakeRenderer{}, Version: "test"}, context.Background())
}

// filesUnder lists the files below dir, slash paths, sorted.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// A folder link planted inside the output folder is not written through,
// wherever it leads: the model whose output would go there fails, naming
// the link, and the others are rendered.
func TestBatchRefusesLinkInOutput(t *testing.T) {
	dir := t.TempDir()
	const model = "seq Stand 0 100"
	writeMap(t, dir, []string{`link\m.mdx`, `inner\n.mdx`, `ok.mdx`}, map[string]string{`link\m.mdx`: model, `inner\n.mdx`: model, `ok.mdx`: model})
	out := filepath.Join(dir, "out")
	for _, d := range []string{filepath.Join(out, "sub"), filepath.Join(dir, "elsewhere")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link": filepath.Join("..", "elsewhere"), "inner": "sub"} {
		if err := os.Symlink(target, filepath.Join(out, link)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	m, err := runOptions(t, dir, func(o *Options) { o.Inputs.Files = []string{"map.w3x"} })
	if err != nil {
		t.Fatal(err)
	}
	res := byRelOf(m)
	for rel, link := range map[string]string{"link/m.mdx": "link", "inner/n.mdx": "inner"} {
		r := res[rel]
		want := filepath.Join(out, link) + ": a symbolic link inside the output folder; not followed"
		if r == nil || r.Status != StatusFailed || len(r.Errors) != 1 || !strings.Contains(r.Errors[0], want) {
			t.Errorf("%s: %+v, want it failed with %q", rel, r, want)
		}
		if r != nil && strings.Contains(strings.Join(r.Errors, ""), ".mdxr-tmp-") {
			t.Errorf("%s: the error names a temporary file: %v", rel, r.Errors)
		}
	}
	if r := res["ok.mdx"]; r == nil || r.Status != StatusOK {
		t.Errorf("ok.mdx: %+v", r)
	}
	if got := filesUnder(t, filepath.Join(dir, "elsewhere")); len(got) != 0 {
		t.Errorf("written outside the output folder: %v", got)
	}
	if got := filesUnder(t, filepath.Join(out, "sub")); len(got) != 0 {
		t.Errorf("written through the inner link: %v", got)
	}
}

func byRelOf(m *Manifest) map[string]*ModelResult {
	out := map[string]*ModelResult{}
	for i := range m.Models {
		out[m.Models[i].Rel] = &m.Models[i]
	}
	return out
}

// Models of an archive whose names have empty or "." elements or a
// leading separator are rendered under the plain name, unless another
// model has it; those with ".." or a drive letter are not taken. Every
// model left out is listed with the reason.
func TestBatchArchiveNames(t *testing.T) {
	dir := t.TempDir()
	names := []string{
		`units\\a.mdx`,      // made plain, it is units\a.mdx's name: left out
		`units\a.mdx`,       // plain
		`\lead.mdx`,         // lead.mdx
		`c\.\d.mdx`,         // c/d.mdx
		`e\\f.mdx`,          // e/f.mdx
		`x.mdx\`,            // x.mdx
		`..\up.mdx`,         // climbs out
		`g\..\..\h.mdx`,     // climbs out
		`C:\drive.mdx`,      // a drive letter
		`readme\..\x.txt`,   // not a model: not mentioned
		`ok\dots..name.mdx`, // ".." inside an element is a name like any other
	}
	content := map[string]string{}
	for i, n := range names {
		content[n] = fmt.Sprintf("seq Stand-%d 0 100", i)
	}
	writeMap(t, dir, names, content)
	m, err := runOptions(t, dir, func(o *Options) { o.Inputs.Files, o.Output.Name = []string{"map.w3x"}, "{path}" })
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, r := range m.Models {
		rels = append(rels, r.Rel)
		if r.Status != StatusOK {
			t.Errorf("%s: %s %v", r.Rel, r.Status, r.Errors)
		}
	}
	sort.Strings(rels)
	want := []string{"c/d.mdx", "e/f.mdx", "lead.mdx", "ok/dots..name.mdx", "units/a.mdx", "x.mdx"}
	if !slices.Equal(rels, want) {
		t.Errorf("rendered %v, want %v", rels, want)
	}
	// Each is rendered from its own entry: units/a.mdx is the plain
	// units\a.mdx, and e/f.mdx is e\\f.mdx.
	for rel, seq := range map[string]string{"units/a.mdx": "Stand-1", "e/f.mdx": "Stand-4", "x.mdx": "Stand-5"} {
		if r := byRelOf(m)[rel]; r == nil || len(r.Outputs) != 1 || r.Outputs[0].Sequence != seq || !strings.HasSuffix(r.Input, ":"+rel) {
			t.Errorf("%s: %+v, want it drawn with %s", rel, r, seq)
		}
	}
	skipped := strings.Join(m.Skipped, "\n")
	for _, w := range []string{
		`map.w3x:units\\a.mdx: made plain, its name is units/a.mdx, which units\a.mdx has already; skipped`,
		`map.w3x:..\up.mdx: a ".." element would climb out of the output folder; skipped`,
		`map.w3x:g\..\..\h.mdx: a ".." element would climb out of the output folder; skipped`,
		`map.w3x:C:\drive.mdx: a drive letter or NUL byte in the name; skipped`,
	} {
		if !strings.Contains(skipped, w) {
			t.Errorf("skipped lacks %q:\n%s", w, skipped)
		}
	}
	if len(m.Skipped) != 4 {
		t.Errorf("%d skipped, want 4:\n%s", len(m.Skipped), skipped)
	}
	disk, err := ReadManifest(filepath.Join(dir, "out", "manifest.json"))
	if err != nil || !slices.Equal(disk.Skipped, m.Skipped) {
		t.Errorf("the manifest on disk: %v, skipped %q", err, disk.Skipped)
	}
	got := filesUnder(t, filepath.Join(dir, "out"))
	for _, w := range []string{"c/d.png", "e/f.png", "lead.png", "ok/dots..name.png", "units/a.png", "x.png"} {
		if !slices.Contains(got, w) {
			t.Errorf("no %s among %v", w, got)
		}
	}
}

// A report or manifest that cannot be written is an error naming it; the
// others are still written, and the manifest lists only the reports that
// are there.
func TestBatchReportWriteFailures(t *testing.T) {
	for _, blocked := range []string{"manifest.json", "index.html"} {
		t.Run(blocked, func(t *testing.T) {
			dir := t.TempDir()
			fixture(t, dir, map[string]string{"m/a.mdx": "seq Stand 0 100"})
			// A folder in the file's place: no rename replaces it, whoever
			// runs the test.
			if err := os.MkdirAll(filepath.Join(dir, "out", blocked, "x"), 0o755); err != nil {
				t.Fatal(err)
			}
			m, err := runOptions(t, dir, func(o *Options) { o.Inputs.Dirs = []string{"m"} })
			if err == nil || m == nil {
				t.Fatalf("Run: %v, %v; want an error with the manifest", m, err)
			}
			if !strings.Contains(err.Error(), blocked+" was not written") || !strings.Contains(err.Error(), filepath.Join(dir, "out", blocked)) {
				t.Errorf("error %q does not name %s", err, blocked)
			}
			if strings.Contains(err.Error(), ".mdxr-tmp-") {
				t.Errorf("error %q names a temporary file", err)
			}
			if m.Summary.OK != 1 {
				t.Errorf("summary %+v", m.Summary)
			}
			if blocked == "index.html" {
				disk, err := ReadManifest(filepath.Join(dir, "out", "manifest.json"))
				if err != nil || disk.Reports.Gallery != "" {
					t.Errorf("the manifest: %v; gallery %q, want none listed", err, disk.Reports.Gallery)
				}
			} else if _, err := os.Stat(filepath.Join(dir, "out", "index.html")); err != nil {
				t.Errorf("the gallery was not written: %v", err)
			}
		})
	}
}

// A folder in inputs.files (a map extracted into a folder that kept its
// name) is refused with what to do, not read as a file or an archive.
func TestInputsFilesFolder(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"map.w3x/units/a.mdx": "seq Stand 0 100"})
	_, err := runOptions(t, dir, func(o *Options) { o.Inputs.Files = []string{"map.w3x"} })
	if err == nil || !strings.Contains(err.Error(), "map.w3x is a folder: list it under inputs.dirs") {
		t.Errorf("%v, want the folder refused", err)
	}
}
