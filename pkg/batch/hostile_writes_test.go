package batch

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
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

// runConfig runs a batch of config text in dir with the fake renderer.
func runConfig(t *testing.T, dir, text string) (*Manifest, error) {
	t.Helper()
	return (&Runner{Config: loadYAML(t, dir, text), Renderer: &fakeRenderer{}, Version: "test"}).Run(context.Background())
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
	m, err := runConfig(t, dir, "inputs: {files: [map.w3x]}\noutput: {dir: out}\nrender: {size: 16}\n")
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
			m, err := runConfig(t, dir, "inputs: {dirs: [m]}\noutput: {dir: out}\nrender: {size: 16}\n")
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
