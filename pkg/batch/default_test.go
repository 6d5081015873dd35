package batch_test

// The DefaultRenderer: batches drawn with the library, their textures
// found in folders, trees, maps and game data as the front door finds
// them.

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// sharedDir is ../shared beside the repository (or $MDXR_SHARED); tests
// that need it skip without it.
func sharedDir(t testing.TB) string {
	t.Helper()
	d := os.Getenv("MDXR_SHARED")
	if d == "" {
		d = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(d, "corpus", "manifest.tsv")); err != nil {
		t.Skipf("shared corpus not available (%v); set MDXR_SHARED", err)
	}
	return d
}

// fixtures is the repository's folder of fixture models.
var fixtures = filepath.Join("..", "..", "testdata", "models")

// writeTestFile writes b as name below dir and returns its path.
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

// A batch over an fs.FS tree writes the same files, byte for byte, as the
// same batch over the folder on disk: models and their textures are read
// through the tree.
func TestBatchOverTreeMatchesFolder(t *testing.T) {
	run := func(tree bool) string {
		t.Helper()
		cfg := batch.DefaultOptions()
		if tree {
			cfg.Inputs.Trees = []batch.Tree{{Name: "models", FS: os.DirFS(fixtures)}}
		} else {
			cfg.Inputs.Dirs = []string{fixtures}
		}
		cfg.Inputs.Extensions = []string{".mdl"}
		cfg.Output.Dir = t.TempDir()
		cfg.Output.Gallery = false
		cfg.Render.Size = batch.Square(48)
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		r := batch.Runner{Options: &cfg, Renderer: batch.NewRenderer(0, cfg.Jobs), Version: "test"}
		m, err := r.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if m.Summary.Failed != 0 || m.Summary.OK < 20 {
			t.Fatalf("tree=%v: %+v", tree, m.Summary)
		}
		return cfg.Output.Dir
	}
	a, b := run(false), run(true)
	pngs, _ := filepath.Glob(filepath.Join(a, "*.png"))
	if len(pngs) < 20 {
		t.Fatalf("%d pictures from the folder", len(pngs))
	}
	for _, p := range pngs {
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(b, filepath.Base(p)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the tree's picture differs from the folder's (%v)", filepath.Base(p), err)
		}
	}
}

// runBatch renders stills of the inputs of cfg into a new folder and
// returns it.
func runBatch(t *testing.T, cfg batch.Options) (string, *batch.Manifest) {
	t.Helper()
	cfg.Output.Dir = t.TempDir()
	cfg.Output.Gallery = false
	cfg.Render.Size = batch.Square(64)
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	r := batch.NewRenderer(0, cfg.Jobs)
	defer r.Close()
	m, err := (&batch.Runner{Options: &cfg, Renderer: r, Version: "test"}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	readModels(t, &cfg, m)
	if m.Summary.Failed != 0 {
		for _, res := range m.Models {
			if len(res.Errors) > 0 {
				t.Errorf("%s: %v", res.Input, res.Errors)
			}
		}
	}
	return cfg.Output.Dir, m
}

// samePictures compares every PNG under a with the one of the same
// relative path under b (ignoring case: an archive's two name lists may
// spell a name differently, and either spelling names its outputs) and
// returns how many it compared.
func samePictures(t *testing.T, a, b string) int {
	t.Helper()
	pngs := func(dir string) map[string]string {
		m := map[string]string{}
		filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".png") {
				rel, _ := filepath.Rel(dir, p)
				m[strings.ToLower(rel)] = p
			}
			return err
		})
		return m
	}
	as, bs := pngs(a), pngs(b)
	for rel := range bs {
		// StormLib names an entry no list names FileNNNNNNNN with a
		// guessed extension; models are only taken from named entries.
		if strings.HasPrefix(filepath.Base(rel), "file0") {
			delete(bs, rel)
		}
	}
	if len(as) != len(bs) {
		t.Errorf("%d pictures against %d", len(as), len(bs))
	}
	for rel, p := range as {
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(bs[rel])
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs (%v)", rel, err)
		}
	}
	return len(as)
}

// A batch over a packed map renders every model in it with the map's own
// textures, and gives the same pictures as a batch over the same map
// extracted to a folder by StormLib (the game's reader).
func TestBatchOverMapMatchesExtracted(t *testing.T) {
	if testing.Short() {
		t.Skip("renders whole maps")
	}
	shared := sharedDir(t)
	if _, err := exec.LookPath("smpq"); err != nil {
		t.Skip("smpq (StormLib) not installed")
	}
	for _, m := range []string{
		"DefendWintercastle/Play/Optimized/dwc65.w3x",
		"War3Net/tests/War3Net.TestTools.UnitTesting/TestData/Maps/Jurassic Park Survival EE v6.4.w3x",
	} {
		t.Run(filepath.Base(m), func(t *testing.T) {
			archive, err := filepath.Abs(filepath.Join(shared, "corpus", "archives", filepath.FromSlash(m)))
			if err != nil {
				t.Fatal(err)
			}
			// Extracted under a folder named like the map, as modders keep
			// unpacked maps, so its root is found as the map's.
			dir := filepath.Join(t.TempDir(), "map.w3x")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("smpq", "-x", "-f", "-q", archive)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("smpq: %v: %s", err, out)
			}
			packed := batch.DefaultOptions()
			packed.Inputs.Files = []string{archive}
			folder := batch.DefaultOptions()
			folder.Inputs.Dirs = []string{dir}
			a, man := runBatch(t, packed)
			b, _ := runBatch(t, folder)
			if n := samePictures(t, a, b); n < 20 {
				t.Errorf("only %d pictures compared", n)
			}
			// Every texture the map holds is found in it: a warning may
			// only name textures the map does not have (stock ones).
			have := map[string]bool{}
			filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					have[strings.ToLower(strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())))] = true
				}
				return err
			})
			found := 0
			for _, res := range man.Models {
				for _, w := range res.Warnings {
					_, name, ok := strings.Cut(w.Message, `texture "`)
					name, _, ok2 := strings.Cut(name, `"`)
					if w.Code != render.MissingTexture || !ok || !ok2 {
						continue
					}
					name = strings.ToLower(name[strings.LastIndex(name, `\`)+1:])
					if have[strings.TrimSuffix(name, filepath.Ext(name))] {
						t.Errorf("%s: %s", res.Input, w.Message)
					}
				}
				found++
			}
			if found < 20 {
				t.Errorf("%d models", found)
			}
		})
	}
}

// mapAboveInput lays out an unpacked map (war3map.w3i and the textures at
// its root) whose war3mapImported folder is what a batch is given, and
// returns the map's folder and that input folder.
func mapAboveInput(t *testing.T, base string) (outer, input string) {
	outer = filepath.Join(base, "outer")
	input = filepath.Join(outer, "in")
	for _, f := range []struct{ from, to string }{
		{filepath.Join(fixtures, "flipbook.mdl"), "in/war3mapImported/flipbook.mdl"},
		{filepath.Join(fixtures, "Textures", "fixture_checker.tga"), "Textures/fixture_checker.tga"},
		{filepath.Join(fixtures, "Textures", "fixture_stripes.tga"), "Textures/fixture_stripes.tga"},
	} {
		b, err := os.ReadFile(f.from)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(outer, filepath.FromSlash(f.to))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outer, "war3map.w3i"), []byte("map info"), 0o644); err != nil {
		t.Fatal(err)
	}
	return outer, input
}

// missingTextures counts the missing-texture warnings of a batch manifest.
func missingTextures(m *batch.Manifest) int {
	n := 0
	for _, res := range m.Models {
		for _, w := range res.Warnings {
			if w.Code == render.MissingTexture {
				n++
			}
		}
	}
	return n
}

// TestMapSearchStaysWithinInput: a batch given a folder below a map does
// not find the map's root above it (nothing above the folder the user
// named is read), and finds it when given the map's folder itself.
func TestMapSearchStaysWithinInput(t *testing.T) {
	if base := os.Getenv("MDXR_MAPSEARCH_BASE"); base != "" {
		// The traced child: the tree exists; run the batch over it.
		cfg := batch.DefaultOptions()
		cfg.Inputs.Dirs = []string{filepath.Join(base, "outer", "in")}
		runBatch(t, cfg)
		return
	}
	outer, input := mapAboveInput(t, t.TempDir())
	cfg := batch.DefaultOptions()
	cfg.Inputs.Dirs = []string{input}
	if _, m := runBatch(t, cfg); missingTextures(m) == 0 {
		t.Error("the map's root above the input folder was searched")
	}
	cfg.Inputs.Dirs = []string{outer}
	if _, m := runBatch(t, cfg); missingTextures(m) != 0 {
		t.Errorf("given the map's folder, %d textures are missing", missingTextures(m))
	}
}

// TestMapSearchNeverTouchesAbove runs the batch of
// TestMapSearchStaysWithinInput under strace and checks that no system
// call named a path outside the input folder's tree but inside the map
// (war3map.w3i, the map's textures), nor any war3map.w3i above it. It
// skips without strace.
func TestMapSearchNeverTouchesAbove(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace not installed")
	}
	base := t.TempDir()
	outer, input := mapAboveInput(t, base)
	log := filepath.Join(t.TempDir(), "strace.log")
	cmd := exec.Command(strace, "-f", "-qq", "-o", log, "-e", "trace=%file,getdents64",
		os.Args[0], "-test.run=^TestMapSearchStaysWithinInput$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MDXR_MAPSEARCH_BASE="+base)
	out, err := cmd.CombinedOutput()
	b, rerr := os.ReadFile(log)
	if rerr != nil || len(b) == 0 {
		t.Skipf("strace could not trace the test (%v): %s", err, out)
	}
	if err != nil {
		t.Fatalf("the traced batch failed: %v\n%s", err, out)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		_, p, ok := strings.Cut(line, `"`)
		p, _, ok2 := strings.Cut(p, `"`)
		if !ok || !ok2 {
			continue
		}
		n++
		inside := p == input || strings.HasPrefix(p, input+string(filepath.Separator))
		if (filepath.Base(p) == "war3map.w3i" && !inside) || strings.HasPrefix(p, filepath.Join(outer, "Textures")) {
			t.Errorf("looked above the input folder %s: %s", input, line)
		}
	}
	if n == 0 {
		t.Skip("strace logged no file system calls")
	}
}

// TestBatchReadsWithinBudget is the hostile-input case of twenty texture
// names for one large compressed block in a map, given to a batch, at a
// small scale: the batch reads the model's dependencies to hash them for
// its cache and again to draw them, and both count against the model's
// read limit, each file once, so the block is decompressed a few times,
// not forty.
func TestBatchReadsWithinBudget(t *testing.T) {
	const n, size = 20, 4 << 20
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("t%d.blp", i))
	}
	list := "m.mdl\r\n" + strings.Join(names, "\r\n")
	// One 4 MiB sector (shift 13): every read decompresses all of it.
	blocks := []hostile.MPQBlock{{Data: hostile.MDLTexturedMany(names), Sectors: true},
		{Data: make([]byte, size), Sectors: true}, {Data: []byte(list)}}
	mnames := []hostile.MPQName{{Name: "m.mdl", Block: 0}, {Name: "(listfile)", Block: 2}}
	for _, p := range names {
		mnames = append(mnames, hostile.MPQName{Name: p, Block: 1})
	}
	dir := t.TempDir()
	archive := writeTestFile(t, dir, "bomb.w3x", hostile.MPQ(13, blocks, mnames))
	cfg := batch.DefaultOptions()
	cfg.Inputs.Files = []string{archive}
	cfg.Output.Dir = filepath.Join(dir, "out")
	cfg.Output.Gallery = false
	cfg.Render.Size = batch.Square(32)
	cfg.Limits.ReadBytes = 2*size + 64<<10
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	var man *batch.Manifest
	var err error
	alloc := allocatedBy(func() {
		r := batch.NewRenderer(0, 1)
		defer r.Close()
		man, err = (&batch.Runner{Options: &cfg, Renderer: r, Version: "test"}).Run(context.Background())
	})
	if err != nil {
		t.Fatal(err)
	}
	readModels(t, &cfg, man)
	if len(man.Models) != 1 || man.Summary.Failed != 0 {
		t.Fatalf("manifest %+v", man.Summary)
	}
	refused := 0
	for _, w := range man.Models[0].Warnings {
		if w.Code == render.OverBudget && strings.Contains(w.Message, "read_bytes") {
			refused++
		}
	}
	if refused != n-2 {
		t.Errorf("%d textures refused, want %d: %v", refused, n-2, man.Models[0].Warnings)
	}
	if alloc > 12*size {
		t.Errorf("allocated %d bytes: the block was read %d times or more", alloc, alloc/size/2)
	}
}

// allocatedBy returns the bytes fn allocated.
func allocatedBy(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// readModels reads the models of the manifest a run wrote into its
// Models.
func readModels(t *testing.T, o *batch.Options, m *batch.Manifest) {
	t.Helper()
	err := batch.EachModel(o.ManifestPath(m), func(r *batch.ModelResult) error {
		m.Models = append(m.Models, *r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// countingFS counts the listings of each folder read through it.
type countingFS struct {
	fstest.MapFS
	mu    sync.Mutex
	lists map[string]int
}

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.lists[name]++
	c.mu.Unlock()
	return c.MapFS.ReadDir(name)
}

// Each folder is listed a fixed number of times per batch, whatever the
// number of models in it: once to find the models, once for the texture
// lookups of all of them (two models are listed as often as two hundred),
// not once per model, which made a batch's cost grow with the square of
// its folders' size.
func TestFolderListedOncePerBatch(t *testing.T) {
	model, err := os.ReadFile("../../testdata/models/billboards.mdl")
	if err != nil {
		t.Fatal(err)
	}
	lists := func(n int) map[string]int {
		fsys := &countingFS{MapFS: fstest.MapFS{}, lists: map[string]int{}}
		for i := range n {
			// The texture is looked for in the model's folder and not found.
			fsys.MapFS[fmt.Sprintf("units/m%03d.mdl", i)] = &fstest.MapFile{Data: model}
		}
		cfg := batch.DefaultOptions()
		cfg.Inputs.Trees = []batch.Tree{{Name: "tree", FS: fsys}}
		cfg.Inputs.Extensions = []string{".mdl"}
		cfg.Output.Dir = t.TempDir()
		cfg.Render.Size = batch.Square(16)
		cfg.Jobs = 2
		r := batch.NewRenderer(0, cfg.Jobs)
		defer r.Close()
		m, err := (&batch.Runner{Options: &cfg, Renderer: r, Version: "test"}).Run(context.Background())
		if err != nil || m.Summary.OK != n || m.Summary.Warnings == 0 {
			t.Fatalf("%d models: %v %+v (the models should render, each with a missing texture)", n, err, m.Summary)
		}
		return fsys.lists
	}
	few, many := lists(2), lists(200)
	if few["units"] == 0 || many["units"] != few["units"] || many["units"] > 2 {
		t.Errorf("the models' folder was listed %d times for 2 models, %d times for 200; want the same, at most 2", few["units"], many["units"])
	}
	t.Logf("listings for 200 models: %v", many)
}
