package batch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

var batchModels = map[string]string{
	"models/units/footman.mdx":     "seq Stand 0 1000\nseq Walk 1000 1600\nseq Attack 2000 2800 once\ntex footman.blp\n",
	"models/units/footman.blp":     "texture v1",
	"models/units/peasant.mdx":     "seq Stand 0 2000\nseq Walk 2000 2500\nmissing Peasant.blp\n",
	"models/doodads/tree.mdx":      "seq Stand 0 3000\n",
	"models/doodads/rock.mdx":      "\n", // no sequences: bind pose
	"models/broken/bad.mdx":        "fail open\n",
	"models/broken/badrend.mdx":    "seq Stand 0 100\nfail render\n",
	"models/broken/panicky.mdx":    "seq Stand 0 100\npanic\n",
	"models/effects/fx.mdx":        "seq Birth 0 500\nseq Stand 500 1500\nseq Death 1500 1900 once\n",
	"models/effects/my fx #2?.mdx": "seq Stand 0 200\n", // names a URL must escape
	"models/effects/ignored.txt":   "not a model",
}

// batchOptions are the options of the batch most tests run: every kind
// of output of every sequence of the models in dir/models, in two views
// and two team colours, with jobs workers.
func batchOptions(dir string, jobs int) *Options {
	return options(dir, func(o *Options) {
		o.Inputs.Dirs = []string{"models"}
		o.Output.Dir = "out"
		o.Output.Formats = []Format{FormatPNG, FormatSheet, FormatGIF, FormatAPNG}
		o.Render.Size = Square(32)
		o.Views = map[string]View{"front": {Yaw: ptr(0.0)}, "side": {Yaw: ptr(90.0)}}
		o.Sequences.Select = SelectAll
		o.Sheet.Frames = 4
		o.Teams = []Team{team("red", 0), team("blue", 1)}
		o.Jobs = jobs
	})
}

func runBatch(t *testing.T, dir string, jobs int, r Renderer) *Manifest {
	t.Helper()
	m, err := runAll(&Runner{Options: batchOptions(dir, jobs), Renderer: r, Version: "test"}, context.Background())
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return m
}

func TestBatchOutputIndependentOfWorkers(t *testing.T) {
	var trees []map[string]string
	var mans []*Manifest
	dir := t.TempDir()
	fixture(t, dir, batchModels)
	for _, jobs := range []int{1, 3, 8} {
		os.RemoveAll(filepath.Join(dir, "out"))
		m := runBatch(t, dir, jobs, &fakeRenderer{})
		trees = append(trees, treeBytes(t, filepath.Join(dir, "out")))
		for i := range m.Models {
			m.Models[i].Timings = Timings{}
		}
		mans = append(mans, m)
	}
	if len(trees[0]) < 20 {
		t.Fatalf("only %d output files", len(trees[0]))
	}
	for i := 1; i < len(trees); i++ {
		if !reflect.DeepEqual(trees[0], trees[i]) {
			t.Errorf("outputs with different worker counts differ")
		}
		if a, b := fmt.Sprintf("%+v", mans[0]), fmt.Sprintf("%+v", mans[i]); a != b {
			t.Errorf("manifests (without timings) with different worker counts differ:\n%s\n%s", a, b)
		}
	}
}

func TestBatchFailuresDoNotStopTheBatch(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, batchModels)
	m := runBatch(t, dir, 2, &fakeRenderer{})
	if m.Summary.Models != 9 || m.Summary.Failed != 3 || m.Summary.OK != 6 || !m.Failed() {
		t.Fatalf("summary %+v", m.Summary)
	}
	var order []string
	for _, r := range m.Models {
		order = append(order, r.Rel)
		if r.Status == StatusFailed && len(r.Errors) == 0 {
			t.Errorf("%s failed without an explanation", r.Input)
		}
	}
	if want := "broken/bad.mdx broken/badrend.mdx broken/panicky.mdx doodads/rock.mdx doodads/tree.mdx effects/fx.mdx effects/my fx #2?.mdx units/footman.mdx units/peasant.mdx"; strings.Join(order, " ") != want {
		t.Errorf("order %v", order)
	}
	get := func(rel string) *ModelResult {
		for i := range m.Models {
			if m.Models[i].Rel == rel {
				return &m.Models[i]
			}
		}
		t.Fatalf("no result for %s", rel)
		return nil
	}
	for rel, want := range map[string]string{
		"broken/bad.mdx":     "open: ",
		"broken/badrend.mdx": "vertex group 7 out of range",
		"broken/panicky.mdx": "renderer panic: fake renderer bug",
	} {
		if r := get(rel); r.Status != StatusFailed || !strings.Contains(strings.Join(r.Errors, ";"), want) {
			t.Errorf("%s: status %s errors %q, want %q", rel, r.Status, r.Errors, want)
		}
	}
	p := get("units/peasant.mdx")
	if len(p.Warnings) != 2 || p.Warnings[0].Code != "missing-texture" || p.Warnings[1].Code != "team" {
		t.Errorf("peasant warnings %+v", p.Warnings)
	}
	fx := get("effects/fx.mdx")
	if strings.Join(fx.Sequences, ",") != "Birth,Stand,Death" {
		t.Errorf("fx sequences %v", fx.Sequences)
	}
	// 2 views x 2 teams x (png + 5 sheet files (png, TexturePacker,
	// Aseprite, Godot, plain) + 3 seqs x (gif+apng))
	if len(fx.Outputs) != 4*(1+5+6) {
		t.Errorf("fx has %d outputs", len(fx.Outputs))
	}
	for _, r := range m.Models {
		for _, o := range r.Outputs {
			if _, err := os.Stat(filepath.Join(dir, "out", o.Path)); err != nil {
				t.Errorf("listed output missing: %v", err)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "units", "footman-front-red-Attack.apng.png")); err != nil {
		t.Error(err)
	}
	rock := get("doodads/rock.mdx")
	if rock.Status != StatusOK || len(rock.Sequences) != 0 {
		t.Errorf("bind-pose model: %+v", rock)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "manifest.json")); err != nil {
		t.Error(err)
	}
}

func TestBatchCache(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, batchModels)
	r := &fakeRenderer{}
	m1 := runBatch(t, dir, 2, r)
	first := r.renders.Load()
	if m1.Summary.Cached != 0 || first == 0 {
		t.Fatalf("first run: %+v, %d renders", m1.Summary, first)
	}
	before := treeBytes(t, filepath.Join(dir, "out"))

	r2 := &fakeRenderer{}
	m2 := runBatch(t, dir, 2, r2)
	if m2.Summary.Cached != 6 || m2.Summary.Failed != 3 {
		t.Errorf("second run: %+v (failed models are retried, others cached)", m2.Summary)
	}
	// Only the three broken models are opened and only two reach Render.
	if n := r2.renders.Load(); n != 2 {
		t.Errorf("second run rendered %d times, want 2 (the retried broken models)", n)
	}
	if after := treeBytes(t, filepath.Join(dir, "out")); !reflect.DeepEqual(before, after) {
		t.Error("cached run changed outputs")
	}
	cached := map[string]bool{}
	for _, r := range m2.Models {
		if r.Status == StatusCached {
			cached[r.Rel] = true
			if len(r.Outputs) == 0 {
				t.Errorf("cached %s lists no outputs", r.Rel)
			}
		}
	}

	// A changed texture (a dependency), a changed model and a deleted output
	// each invalidate exactly their model.
	fixture(t, dir, map[string]string{"models/units/footman.blp": "texture v2", "models/doodads/tree.mdx": "seq Stand 0 3100\n"})
	os.Remove(filepath.Join(dir, "out", "effects", "fx-side-blue.png"))
	m3 := runBatch(t, dir, 2, &fakeRenderer{})
	for _, r := range m3.Models {
		want := StatusCached
		switch r.Rel {
		case "units/footman.mdx", "doodads/tree.mdx", "effects/fx.mdx":
			want = StatusOK
		case "broken/bad.mdx", "broken/badrend.mdx", "broken/panicky.mdx":
			want = StatusFailed
		}
		if r.Status != want {
			t.Errorf("after changes: %s is %s, want %s", r.Rel, r.Status, want)
		}
	}

	// A new program version re-renders everything; so does Force.
	c := batchOptions(dir, 2)
	m4, err := runAll(&Runner{Options: c, Renderer: &fakeRenderer{}, Version: "test2"}, context.Background())
	if err != nil || m4.Summary.Cached != 0 {
		t.Errorf("new version: %+v %v", m4.Summary, err)
	}
	c.Force = true
	m5, err := runAll(&Runner{Options: c, Renderer: &fakeRenderer{}, Version: "test2"}, context.Background())
	if err != nil || m5.Summary.Cached != 0 {
		t.Errorf("force: %+v %v", m5.Summary, err)
	}
}

func TestBatchInterruptedRunCleansUpAndResumes(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, batchModels)
	ref := t.TempDir()
	fixture(t, ref, batchModels)
	runBatch(t, ref, 1, &fakeRenderer{})
	want := treeBytes(t, filepath.Join(ref, "out"))

	// A stale temporary file from a killed run is swept.
	const staleRel = "out/units/.footman.png.mdxr-tmp-123"
	if !atomicfile.IsTemp(staleRel) {
		t.Fatalf("%s is not named like a temporary file", staleRel)
	}
	stale := filepath.Join(dir, filepath.FromSlash(staleRel))
	fixture(t, dir, map[string]string{staleRel: "half"})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &fakeRenderer{}
	r.onRender = func(job *Job) {
		if job.Input.Rel == "effects/fx.mdx" {
			cancel() // Ctrl-C in the middle of a model
		}
	}
	m, err := runAll(&Runner{Options: batchOptions(dir, 1), Renderer: r, Version: "test"}, ctx)
	if err != context.Canceled || m == nil || !m.Interrupted {
		t.Fatalf("interrupted run: %v, %v", m, err)
	}
	// The manifest lists the models that finished, and only those.
	if disk, err := ReadManifest(filepath.Join(dir, "out", "manifest.json")); err != nil || !disk.Interrupted || len(disk.Models) != len(m.Models) {
		t.Errorf("manifest of the interrupted run: %v %+v", err, disk)
	}
	for _, r := range m.Models {
		if r.Rel == "effects/fx.mdx" {
			t.Errorf("the interrupted model is listed as finished: %+v", r)
		}
	}
	if len(m.Models) == 0 {
		t.Error("no finished model listed")
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp file not removed: %v", err)
	}
	filepath.WalkDir(filepath.Join(dir, "out"), func(p string, e os.DirEntry, err error) error {
		if err == nil && atomicfile.IsTemp(e.Name()) {
			t.Errorf("partial file left: %s", p)
		}
		return nil
	})
	// Every output that exists is complete (equal to the reference run).
	got := treeBytes(t, filepath.Join(dir, "out"))
	if len(got) == 0 || len(got) >= len(want) {
		t.Fatalf("interrupted run left %d of %d files", len(got), len(want))
	}
	for k, v := range got {
		if want[k] != v {
			t.Errorf("%s differs from the uninterrupted run", k)
		}
	}
	// Resume: the models finished before the interruption are cached.
	m2 := runBatch(t, dir, 1, &fakeRenderer{})
	if m2.Summary.Cached == 0 || m2.Summary.OK == 0 {
		t.Errorf("resume: %+v", m2.Summary)
	}
	for _, r := range m2.Models {
		if r.Rel == "effects/fx.mdx" && r.Status != StatusOK {
			t.Errorf("the interrupted model must be redone, got %s", r.Status)
		}
	}
	if got := treeBytes(t, filepath.Join(dir, "out")); !reflect.DeepEqual(got, want) {
		t.Errorf("resumed output differs from an uninterrupted run")
	}
}

func TestShardsPartitionInputs(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := 0; i < 200; i++ {
		files[fmt.Sprintf("m/%02d/model%03d.mdx", i%7, i)] = "seq Stand 0 100"
	}
	fixture(t, dir, files)
	c := options(dir, func(o *Options) { o.Inputs.Dirs = []string{"m"} })
	all, err := c.Plan()
	if err != nil || len(all) != 200 {
		t.Fatalf("%d jobs, %v", len(all), err)
	}
	for _, n := range []int{1, 2, 3, 8} {
		seen := map[string]int{}
		for i := 0; i < n; i++ {
			c.Shard = Shard{i, n}
			jobs, err := c.Plan()
			if err != nil {
				t.Fatal(err)
			}
			if n > 1 && (len(jobs) == 0 || len(jobs) == 200) {
				t.Errorf("shard %d/%d has %d of 200 inputs", i, n, len(jobs))
			}
			for _, j := range jobs {
				seen[j.Input.Key]++
			}
		}
		for _, j := range all {
			if seen[j.Input.Key] != 1 {
				t.Errorf("%d shards: %s is in %d shards", n, j.Input.Key, seen[j.Input.Key])
			}
		}
	}
}

func TestMergeShardManifests(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, batchModels)
	full := runBatch(t, dir, 2, &fakeRenderer{})
	// The shards share one output folder, as on a shared volume.
	d := t.TempDir()
	fixture(t, d, batchModels)
	var parts []*Manifest
	for i := 0; i < 3; i++ {
		c := batchOptions(d, 1)
		c.Shard = Shard{i, 3}
		m, err := runAll(&Runner{Options: c, Renderer: &fakeRenderer{}, Version: "test"}, context.Background())
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(d, "out", ManifestName(m))
		if filepath.Base(name) != fmt.Sprintf("manifest-%d-of-3.json", i) {
			t.Errorf("shard manifest name %s", name)
		}
		rm, err := ReadManifest(name)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, rm)
	}
	merged, err := Merge(MergeOptions{}, parts[2], parts[0], parts[1])
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(merged.Summary, full.Summary) {
		t.Errorf("merged summary %+v, unsharded %+v", merged.Summary, full.Summary)
	}
	if strings.Join(merged.Shards, ",") != "0/3,1/3,2/3" {
		t.Errorf("shards %v", merged.Shards)
	}
	for i, r := range merged.Models {
		if r.Rel != full.Models[i].Rel || !reflect.DeepEqual(r.Outputs, full.Models[i].Outputs) {
			t.Errorf("model %d: %s vs %s", i, r.Rel, full.Models[i].Rel)
		}
	}
	if _, err := Merge(MergeOptions{}, parts[0], parts[0]); err == nil {
		t.Error("merging a shard twice accepted")
	}
	// A missing shard is an error unless a partial set is accepted; the
	// merged manifest then says which is missing.
	if _, err := Merge(MergeOptions{}, parts[0], parts[2]); err == nil || !strings.Contains(err.Error(), "shards 1/3 of 3 are missing") {
		t.Errorf("missing shard: %v", err)
	}
	if m, err := Merge(MergeOptions{Partial: true}, parts[0], parts[2]); err != nil || strings.Join(m.Missing, ",") != "1/3" {
		t.Errorf("partial merge: %v %+v", err, m)
	}
	// Shards run with other options are not one batch.
	other := *parts[1]
	other.Options = "0123456789abcdef"
	if _, err := Merge(MergeOptions{}, parts[0], &other, parts[2]); err == nil || !strings.Contains(err.Error(), "other options") {
		t.Errorf("mismatched options: %v", err)
	}
	// Each shard wrote its own gallery; none wrote the unsharded name.
	for i := 0; i < 3; i++ {
		if _, err := os.Stat(filepath.Join(d, "out", fmt.Sprintf("index-%d-of-3.html", i))); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(d, "out", "index.html")); err == nil {
		t.Error("a shard wrote index.html")
	}
}

// countingContext is a context that can be cancelled (its Done is not
// nil) and counts the contexts made from it that are still registered
// with it: the context package registers a child through AfterFunc and
// stops that when the child is cancelled.
type countingContext struct {
	context.Context
	done chan struct{}
	mu   sync.Mutex
	live int
}

func (c *countingContext) Done() <-chan struct{} { return c.done }

func (c *countingContext) AfterFunc(func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live++
	stopped := false
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		if !stopped {
			stopped = true
			c.live--
		}
		return true
	}
}

// A run under a context that can be cancelled (the command line's, which
// a signal cancels) leaves nothing registered with it per model, with a
// model timeout or without: memory stays flat however many models run.
func TestRunLeavesNoContextBehind(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, batchModels)
	for _, timeout := range []time.Duration{0, time.Minute} {
		ctx := &countingContext{Context: context.Background(), done: make(chan struct{})}
		o := batchOptions(dir, 2)
		o.ModelTimeout = timeout
		if _, err := (&Runner{Options: o, Renderer: &fakeRenderer{}, Version: "test"}).Run(ctx); err != nil {
			t.Fatal(err)
		}
		if ctx.live != 0 {
			t.Errorf("model timeout %v: %d contexts still registered after the run", timeout, ctx.live)
		}
	}
}
