package mdxrender

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// TestHostileCorpusSmall runs every file and render case of the
// hostile-input corpus (testdata/hostile/gen.go, scripts/hostile.sh) at a
// small scale through the front door, with the budgets scaled down where
// the full-size case is over a default only by its size: each ends with
// an error naming the file, or with a picture and the warning that says
// what was left out. (The special paths, FIFOs and devices, are
// cmd/mdxrender's TestSpecialFilesRefused; the time and memory each
// full-size case takes are scripts/hostile.sh's to measure.)
func TestHostileCorpusSmall(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string { return writeTestFile(t, dir, name, b) }
	textured := func(name string, tex []byte) string {
		write(name, tex)
		return write("uses_"+name+".mdl", hostile.MDLTextured(name))
	}
	chain := func(size, n int) []byte {
		var levels [][]byte
		for i := range n {
			s := max(size>>i, 1)
			levels = append(levels, hostile.BaselineJPEG(s, s, 4))
		}
		return hostile.BLP1Streams(size, size, levels...)
	}
	// A texture root holding a link to a folder outside it.
	outside := filepath.Join(dir, "outside")
	write("outside/secret.blp", hostile.BLP1Streams(8, 8, hostile.BaselineJPEG(8, 8, 4)))
	if err := os.MkdirAll(filepath.Join(dir, "texroot"), 0o755); err != nil {
		t.Fatal(err)
	}
	linked := os.Symlink(outside, filepath.Join(dir, "texroot", "sub")) == nil
	write("linkuser/uses_link.mdl", hostile.MDLTextured(`sub\secret.blp`))

	const maxRate = 3.4e38
	cases := []struct {
		name   string
		model  string
		lim    Limits
		view   View
		tex    []string // texture roots
		err    string   // the error, or "" for a picture
		warn   string   // a warning the picture must have
		absent string   // text no message may hold
	}{
		{name: "JPEG frame larger than the BLP", model: textured("frame.blp", hostile.BLP1Streams(64, 64, hostile.BaselineJPEG(2048, 2048, 4))),
			warn: "larger than the 64x64 texture"},
		{name: "BLP levels all full frames", model: textured("full.blp", hostile.BLP1Streams(256, 256, hostile.Repeat(hostile.BaselineJPEG(256, 256, 4), 9)...)),
			lim: Limits{TexturePixels: 256 * 256 * 2}, warn: "texture_pixels"},
		{name: "BLP of 16 full-size levels", model: textured("sixteen.blp", hostile.BLP1Streams(512, 512, hostile.Repeat(hostile.BaselineJPEG(512, 512, 4), 16)...)),
			lim: Limits{TexturePixels: 512 * 512 * 2}, warn: "texture_pixels"},
		{name: "BLP chain over the pixel budget", model: textured("chain.blp", chain(256, 9)),
			lim: Limits{TexturePixels: 256 * 256}, warn: "texture_pixels"},
		{name: "progressive BLP, 1800 scans", model: textured("prog.blp", hostile.BLP1Streams(64, 64, hostile.ProgressiveJPEG(64, 64, 4, 1800))),
			warn: "jpeg_scans"},
		{name: "progressive JPEG, 1800 scans", model: textured("prog.jpg", hostile.ProgressiveJPEG(64, 64, 3, 1800)), warn: "jpeg_scans"},
		{name: "sequential JPEG, 500 scans", model: textured("seq.jpg", hostile.SequentialJPEG(64, 64, 3, 500)), warn: "scans"},
		{name: "16-bit PNG", model: textured("png16.png", hostile.PNG(256, 256, 16, hostile.PNGRGBA)),
			lim: Limits{TexturePixels: 256 * 256 * 2}, warn: "texture_pixels"},
		{name: "MDL line of vertices", model: write("vertices.mdl", hostile.MDLGeometry(5000, 1)),
			lim: Limits{Vertices: 4096}, err: "more than 4096 vertices"},
		{name: "MDL at the geometry quotas", model: write("at_quota.mdl", hostile.MDLGeometry(4096, 8192)),
			lim: Limits{Vertices: 4096, Triangles: 8192}},
		{name: "PRE2 storm, long-lived", model: write("pre2_10.mdl", hostile.MDLEmitters("pre2_10", hostile.Emitters{PRE2: 10, Rate: maxRate, Life: 600})),
			lim: Limits{SimulationWork: 2_000_000}, view: View{Time: render.Ms(500)}, err: "simulation_work"},
		{name: "PRE2 storm, short-lived", model: write("pre2_short.mdl", hostile.MDLEmitters("pre2_short", hostile.Emitters{PRE2: 20, Rate: maxRate, Life: 1})),
			view: View{Width: 64, Time: render.Ms(500), Distance: 60, Target: &fauxgl.Vector{}}, warn: "overdraw limit"},
		{name: "ribbon storm", model: write("ribbon.mdl", hostile.MDLEmitters("ribbon", hostile.Emitters{Ribbons: 50, Rate: 4e9, Life: 600})),
			lim: Limits{SimulationWork: 2_000_000}, view: View{Time: render.Ms(500)}, err: "simulation_work"},
		{name: "ribbon storm, short-lived", model: write("ribbon_short.mdl", hostile.MDLEmitters("ribbon_short", hostile.Emitters{Ribbons: 50, Rate: 4e9, Life: 1})),
			lim: Limits{RibbonEdges: 500}, view: View{Width: 64, Time: render.Ms(500)}, warn: "the ribbon_edges limit"},
		{name: "many spawned models", model: func() string {
			write("prem_spawned.mdl", hostile.MDLSpawned(200))
			return write("prem.mdl", hostile.MDLEmitters("prem", hostile.Emitters{PREM: 20, Rate: 1000, Life: 10, SpawnPath: "prem_spawned.mdl"}))
		}(), lim: Limits{SpawnedVertices: 20_000}, view: View{Width: 64, Time: render.Ms(500)}, warn: "the spawned_vertices limit"},
		{name: "render --size 8192 --ssaa 2", model: textured("small.blp", hostile.BLP1Streams(8, 8, hostile.BaselineJPEG(8, 8, 4))),
			view: View{Width: 8192, SSAA: 2}, err: "render_pixels limit of 16Mi"},
		{name: "1,000-node parent cycle", model: write("cycle.mdl", hostile.MDLCycle(1000)), err: "cycle of 1000 nodes"},
		{name: "strings of 100 KB", model: write("long.mdl", hostile.MDLLongStrings(100_000)), warn: "(100004 bytes)"},
	}
	if linked {
		cases = append(cases, struct {
			name   string
			model  string
			lim    Limits
			view   View
			tex    []string
			err    string
			warn   string
			absent string
		}{name: "folder link out of a texture root", model: filepath.Join(dir, "linkuser", "uses_link.mdl"), tex: []string{filepath.Join(dir, "texroot")},
			warn: "leads outside the search folder", absent: outside})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var srcs Options
			for _, r := range c.tex {
				srcs.Textures = append(srcs.Textures, texture.Folder(r))
			}
			srcs.Limits = c.lim
			m, err := Open(c.model, &srcs)
			var img any
			var warns []Warning
			if err == nil {
				i, ws, rerr := m.Render(c.view)
				warns, err = ws, rerr
				if i != nil {
					img = i
				}
			}
			msgs := ""
			for _, w := range warns {
				msgs += w.Message + "\n"
			}
			if err != nil {
				msgs += err.Error()
			}
			switch {
			case c.err != "":
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), filepath.Base(c.model)) {
					t.Errorf("got %v, want an error naming %s and saying %q", err, filepath.Base(c.model), c.err)
				}
				if len(err.Error()) > 600 {
					t.Errorf("a %d-byte error", len(err.Error()))
				}
			case err != nil:
				t.Errorf("no picture: %v", err)
			case img == nil:
				t.Error("no picture")
			case c.warn != "" && !strings.Contains(msgs, c.warn):
				t.Errorf("no warning saying %q: %s", c.warn, msgs)
			}
			if len(msgs) > 6000 {
				t.Errorf("%d bytes of messages", len(msgs))
			}
			if c.absent != "" && strings.Contains(msgs, c.absent) {
				t.Errorf("a message names %s: %s", c.absent, msgs)
			}
		})
	}
}

// writeTestFile writes b to name below dir, making its folders, and
// returns its path.
func writeTestFile(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
