package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kettek/apng"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/batchconfig"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/sheet"
)

// fixtureModel copies a project fixture model (testdata/models) to dir/name.
func fixtureModel(t *testing.T, dir, fixture, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, fixture))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkModels writes four fixtures as models/t0.mdl … t3.mdl under dir,
// the inputs of the check and merge tests, and returns the folder.
func checkModels(t *testing.T, dir string) string {
	t.Helper()
	models := filepath.Join(dir, "models")
	os.MkdirAll(models, 0o755)
	for i, f := range []string{"hermite_bezier.mdl", "team_color.mdl", "billboards.mdl", "two_sided.mdl"} {
		fixtureModel(t, models, f, fmt.Sprintf("t%d.mdl", i))
	}
	return models
}

func readManifest(t *testing.T, p string) *batch.Manifest {
	t.Helper()
	m, err := batch.ReadManifest(p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestBatchCommand(t *testing.T) {
	dir := t.TempDir()
	good := fixtureModel(t, dir, "hermite_bezier.mdl", "tester.mdl")
	bad := filepath.Join(dir, "bad.mdx")
	os.WriteFile(bad, []byte("MDLXVERS\x04\x00\x00\x00"), 0o644)
	out := filepath.Join(dir, "out")
	stdout, stderr, code := run(t, "batch", "-o", out, "--format", "png,gif,apng", "--sequences", "all", "--size", "48", good, bad)
	if code != 1 {
		t.Fatalf("exit %d with a bad model, want 1\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "2 models: 1 rendered, 0 unchanged, 1 failed") || !strings.Contains(stderr, "bad.mdx") {
		t.Errorf("report:\n%s%s", stdout, stderr)
	}
	m := readManifest(t, filepath.Join(out, "manifest.json"))
	var okModel *batch.ModelResult
	for i, r := range m.Models {
		if r.Status == batch.StatusFailed && len(r.Errors) == 0 {
			t.Errorf("%s failed without an explanation", r.Input)
		}
		if r.Status == batch.StatusOK {
			okModel = &m.Models[i]
		}
	}
	if okModel == nil || strings.Join(okModel.Sequences, ",") != "Stand,Attack" || len(okModel.Outputs) != 5 {
		t.Fatalf("good model: %+v", okModel)
	}
	f, err := os.Open(filepath.Join(out, "tester-default.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bufio.NewReader(f))
	f.Close()
	if err != nil || img.Bounds().Dx() != 48 {
		t.Fatalf("thumbnail: %v %v", err, img.Bounds())
	}
	af, _ := os.Open(filepath.Join(out, "tester-default-Stand.apng.png"))
	a, err := apng.DecodeAll(af)
	af.Close()
	if err != nil || len(a.Frames) != 8 {
		t.Errorf("APNG preview: %v, %d frames", err, len(a.Frames))
	}
	// The second run finds everything unchanged.
	stdout, _, _ = run(t, "batch", "-o", out, "--format", "png,gif,apng", "--sequences", "all", "--size", "48", good)
	if !strings.Contains(stdout, "1 model: 0 rendered, 1 unchanged") {
		t.Errorf("second run: %s", stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Error(err)
	}
}

func TestCheckAndMergeCommands(t *testing.T) {
	dir := t.TempDir()
	checkModels(t, dir)
	cfg := filepath.Join(dir, "check.yaml")
	os.WriteFile(cfg, []byte("inputs:\n  dirs: [models]\noutput:\n  dir: out\n  formats: [png, sheet]\nrender:\n  size: 40\nsheet:\n  frames: 2\ncheck:\n  golden: golden\n"), 0o644)
	if _, stderr, code := run(t, "check", "-c", cfg); code != 1 || !strings.Contains(stderr, "missing") {
		t.Errorf("check without goldens: exit %d\n%s", code, stderr)
	}
	if stdout, stderr, code := run(t, "check", "-c", cfg, "--update"); code != 0 || !strings.Contains(stdout, "8 updated") {
		t.Errorf("update: exit %d\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, code := run(t, "check", "-c", cfg); code != 0 || !strings.Contains(stdout, "8 checks, 0 regressions") {
		t.Errorf("check: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, f := range []string{"junit.xml", "summary.md", "index.html"} {
		if _, err := os.Stat(filepath.Join(dir, "out", f)); err != nil {
			t.Error(err)
		}
	}

	// Shards through the environment, as a Kubernetes Indexed Job sets it,
	// then merge.
	bcfg := filepath.Join(dir, "batch.yaml")
	os.WriteFile(bcfg, []byte("inputs:\n  dirs: [models]\noutput:\n  dir: shared\nrender:\n  size: 32\n"), 0o644)
	t.Setenv(batchconfig.ShardCountEnv, "2")
	var parts []string
	total := 0
	for i := 0; i < 2; i++ {
		t.Setenv("JOB_COMPLETION_INDEX", fmt.Sprint(i))
		if stdout, stderr, code := run(t, "batch", "-c", bcfg); code != 0 {
			t.Fatalf("shard %d: exit %d\n%s%s", i, code, stdout, stderr)
		}
		p := filepath.Join(dir, "shared", fmt.Sprintf("manifest-%d-of-2.json", i))
		total += len(readManifest(t, p).Models)
		parts = append(parts, p)
	}
	if total != 4 {
		t.Errorf("shards hold %d models, want 4", total)
	}
	merged := filepath.Join(dir, "shared", "manifest.json")
	stdout, stderr, code := run(t, append([]string{"merge", "--gallery", "-o", merged}, parts...)...)
	if code != 0 || !strings.Contains(stdout, "2 manifests, 4 models") {
		t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
	}
	if m := readManifest(t, merged); len(m.Models) != 4 || len(m.Shards) != 2 {
		t.Errorf("merged: %d models, shards %v", len(m.Models), m.Shards)
	}
	if _, _, code := run(t, "merge", "-o", merged, parts[0], parts[0]); code == 0 {
		t.Error("merging one shard twice succeeded")
	}
}

func TestSheetCommand(t *testing.T) {
	dir := t.TempDir()
	p := fixtureModel(t, dir, "hermite_bezier.mdl", "tester.mdl")
	out := filepath.Join(dir, "out")
	stdout, stderr, code := run(t, "sheet", p, "-o", out, "--sequence", "stand,attack", "--frames", "4", "--cols", "2", "--yaws", "0,90", "--size", "32", "--format", "sheet,gif")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "tester-sheet.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tp struct {
		Frames map[string]struct {
			Frame    struct{ X, Y, W, H int }
			Duration int
		}
		Animations map[string][]string
		Meta       struct{ Size struct{ W, H int } }
	}
	if err := json.Unmarshal(b, &tp); err != nil {
		t.Fatal(err)
	}
	// 2 yaws x (Stand 4 frames in 2 rows + Attack 4 frames in 2 rows),
	// trimmed: at most the grid's 64x256
	if len(tp.Frames) != 16 || len(tp.Animations) != 4 || tp.Meta.Size.W > 64 || tp.Meta.Size.H > 8*32 || tp.Meta.Size.W < 8 {
		t.Errorf("sheet: %d frames, %d animations, size %+v", len(tp.Frames), len(tp.Animations), tp.Meta.Size)
	}
	sum := 0
	for _, n := range tp.Animations["Attack_090"] {
		sum += tp.Frames[n].Duration
	}
	if sum != 1000 {
		t.Errorf("Attack durations sum to %d, want 1000", sum)
	}
	// one preview per sequence and yaw
	for _, f := range []string{"tester-sheet.png", "tester-sheet.plain.json", "tester-sheet.aseprite.json", "tester-sheet.tres",
		"tester-Stand_000.gif", "tester-Stand_090.gif", "tester-Attack_000.gif", "tester-Attack_090.gif"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if _, _, code := run(t, "sheet", p, "-o", out, "--sequence", "walk"); code == 0 {
		t.Error("a sequence the model lacks was accepted")
	}
}

// Up to 50 corpus models: no crash, every failure explained.
func TestBatchCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus batch skipped in -short")
	}
	shared := sharedDir(t)
	f, err := os.Open(filepath.Join(shared, "corpus", "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	var list []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(list) < 50 {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) > 5 && (fs[5] == "MDLX" || strings.HasSuffix(strings.ToLower(fs[0]), ".mdl")) {
			abs, _ := filepath.Abs(filepath.Join(shared, "corpus", fs[0]))
			list = append(list, abs)
		}
	}
	os.WriteFile(filepath.Join(dir, "list.txt"), []byte(strings.Join(list, "\n")), 0o644)
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte("inputs:\n  list: list.txt\noutput:\n  dir: out\n  formats: [png, sheet]\nrender:\n  size: 48\nsheet:\n  frames: 2\n"), 0o644)
	run(t, "batch", "-c", cfg)
	m := readManifest(t, filepath.Join(dir, "out", "manifest.json"))
	if len(m.Models) != len(list) {
		t.Fatalf("%d of %d models in the manifest", len(m.Models), len(list))
	}
	for _, r := range m.Models {
		msg := strings.Join(r.Errors, "; ")
		if r.Status == batch.StatusFailed && msg == "" {
			t.Errorf("%s failed without an explanation", r.Input)
		}
		if strings.Contains(msg, "panic") {
			t.Errorf("%s: %s", r.Input, msg)
		}
	}
	t.Logf("corpus: %+v", m.Summary)
}

// A cancelled context (what SIGINT/SIGTERM cause through
// signal.NotifyContext) stops the batch with status 130, no manifest and no
// temporary files; the next run completes. Cancellation in the middle of a
// model is tested in pkg/batch with a renderer that cancels from inside.
func TestBatchCommandInterrupted(t *testing.T) {
	dir := t.TempDir()
	var models []string
	for i, f := range []string{"hermite_bezier.mdl", "team_color.mdl"} {
		models = append(models, fixtureModel(t, dir, f, fmt.Sprintf("m%d.mdl", i)))
	}
	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cmd := newRootCmd()
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs(append([]string{"batch", "-o", out, "--size", "32"}, models...))
	err := cmd.ExecuteContext(ctx)
	var ec exitCodeError
	if !errors.As(err, &ec) || ec.code != 130 || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("cancelled batch: %v\n%s", err, stderr.String())
	}
	// Nothing but the manifest of the (no) finished models, the lock and
	// the journal.
	filepath.WalkDir(out, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && e.Name() != "manifest.json" && e.Name() != "lock" && e.Name() != "journal.jsonl" {
			t.Errorf("cancelled run left %s", p)
		}
		return nil
	})
	if m := readManifest(t, filepath.Join(out, "manifest.json")); !m.Interrupted || len(m.Models) != 0 {
		t.Errorf("manifest of a run cancelled before it began: %+v", m)
	}
	if so, se, code := run(t, append([]string{"batch", "-o", out, "--size", "32"}, models...)...); code != 0 || !strings.Contains(so, "2 rendered") {
		t.Errorf("resumed run: exit %d\n%s%s", code, so, se)
	}
}

// Off a terminal, progress is one log/slog line per model with n/total,
// the model, its status and its warnings, failures at level ERROR with the
// reason, and a summary line at the end.
func TestBatchProgressLogLines(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf)
	p.Planned(2)
	p.Started(&batch.Input{Key: "a.mdx", Rel: "a.mdx"})
	p.Finished(&batch.ModelResult{Input: "a.mdx", Status: batch.StatusOK, Outputs: make([]batch.OutputFile, 3),
		Warnings: []batch.Warning{{Code: "missing-texture", Message: "Textures\\Foo.blp not found"}}})
	p.Finished(&batch.ModelResult{Input: "b.mdx", Status: batch.StatusFailed, Errors: []string{"open: bad chunk"}})
	p.finish(&batch.Manifest{Summary: batch.Summary{Models: 2, OK: 1, Failed: 1, Warnings: 1}})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 || p.bar != nil {
		t.Fatalf("want 4 log lines and no bar:\n%s", buf.String())
	}
	for i, want := range []string{"level=INFO msg=\"batch planned\" models=2",
		"level=INFO msg=\"model done\" n=1/2 model=a.mdx status=ok outputs=3 ms=0 warnings=1 warning=\"missing-texture: Textures\\\\Foo.blp not found\"",
		"level=ERROR msg=\"model failed\" n=2/2 model=b.mdx status=failed outputs=0 ms=0 warnings=0 error=\"open: bad chunk\"",
		"level=INFO msg=\"batch done\" models=2 ok=1 cached=0 failed=1 warnings=1 elapsed="} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d: %s\nwant %s", i, lines[i], want)
		}
	}
}

// On a terminal the bar names the running model and its time moves while
// it runs: a redraw tick with the clock a second on shows it. The clock
// and the ticks are the test's, so no sleep decides what the bar shows.
func TestBatchProgressBarShowsRunningModel(t *testing.T) {
	var buf syncBuffer
	p := newProgress(&buf)
	p.log = nil // as on a terminal
	clock := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	ticks := make(chan time.Time)
	p.now, p.ticks = func() time.Time { return clock }, ticks
	p.Planned(3)
	p.Started(&batch.Input{Key: "/in/models/slow_one.mdx", Rel: "models/slow_one.mdx"})
	clock = clock.Add(300 * time.Millisecond)
	p.Started(&batch.Input{Key: "/in/models/fast_one.mdx", Rel: "models/fast_one.mdx"})
	if d := p.bar.State().Description; d != "[0s:?] models/slow_one.mdx (0s) +1" {
		t.Errorf("at the start the bar says %q", d)
	}
	clock = clock.Add(1200 * time.Millisecond)
	// The second send waits for the redraw of the first to end (ticks
	// is unbuffered, and the bar's goroutine takes one at a time).
	ticks <- clock
	ticks <- clock
	d := p.bar.State().Description
	p.finish(nil)
	if d != "[2s:?] models/slow_one.mdx (1s) +1" {
		t.Errorf("the bar does not show the running model and its time: %q", d)
	}
}

// The bar's estimate follows the measured rate: a tenth of the models
// done in 4 s leaves 36 s, and when the last 63 models took 1 s each the
// rest take a second each whatever came before.
func TestBatchProgressEstimate(t *testing.T) {
	p := newProgress(io.Discard)
	p.total = 100
	now := time.Now()
	p.start = now.Add(-4 * time.Second)
	for i := range 10 {
		p.recent[i] = p.start.Add(time.Duration(i+1) * 400 * time.Millisecond)
	}
	p.n = 10
	if got := p.estimate(now); got != "[4s:36s]" {
		t.Errorf("a tenth done in 4 s: %s, want [4s:36s]", got)
	}
	// 36 models cached at once, then 64 rendered at one a second.
	p.total, p.n = 200, 0
	p.start = now.Add(-64 * time.Second)
	for range 36 {
		p.recent[p.n%rateWindow] = p.start
		p.n++
	}
	for i := range 64 {
		p.recent[p.n%rateWindow] = p.start.Add(time.Duration(i+1) * time.Second)
		p.n++
	}
	if got := p.estimate(now); got != "[1m4s:1m40s]" {
		t.Errorf("100 left at one a second: %s, want [1m4s:1m40s]", got)
	}
}

// Two models of one name in two folders show their paths below the
// input on the bar.
func TestBatchProgressNamesByPath(t *testing.T) {
	p := newProgress(io.Discard)
	p.Planned(2)
	p.running = map[string]running{}
	p.Started(&batch.Input{Key: "/in/a/Archway.mdx", Rel: "human/Archway.mdx"})
	first := p.describe()
	p.running = map[string]running{}
	p.Started(&batch.Input{Key: "/in/b/Archway.mdx", Rel: "orc/Archway.mdx"})
	second := p.describe()
	p.finish(nil)
	if !strings.Contains(first, "human/Archway.mdx") || !strings.Contains(second, "orc/Archway.mdx") {
		t.Errorf("the bar names them %q and %q", first, second)
	}
	long := barName(strings.Repeat("folder/", 20) + "Archway.mdx")
	if !strings.HasSuffix(long, "/Archway.mdx") || !strings.HasPrefix(long, "…") {
		t.Errorf("a long path on the bar: %q", long)
	}
}

// syncBuffer is a bytes.Buffer safe for the bar's redraws.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A sheet's frames share one camera framed on the union of their poses, so
// a model that moves beyond its declared extent still stays inside every
// frame: no drawn pixel touches a cell's border.
func TestSheetFramesKeepTheModelInside(t *testing.T) {
	dir := t.TempDir()
	p := fixtureModel(t, dir, "hermite_bezier.mdl", "m.mdl")
	out := filepath.Join(dir, "out")
	if so, se, code := run(t, "sheet", p, "-o", out, "--frames", "6", "--yaws", "0,90", "--size", "64", "--pitch", "20"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, so, se)
	}
	cells := checkSheetCells(t, out, "m")
	if cells != 2*2*6 {
		t.Errorf("%d cells, want 24", cells)
	}
}

// readSheet decodes OUT/STEM-sheet.png and its plain JSON metadata.
func readSheet(t *testing.T, out, stem string) (image.Image, sheet.Plain) {
	t.Helper()
	f, err := os.Open(filepath.Join(out, stem+"-sheet.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var meta sheet.Plain
	b, _ := os.ReadFile(filepath.Join(out, stem+"-sheet.plain.json"))
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	return img, meta
}

// checkSheetCells reads OUT/STEM-sheet.png and its plain JSON and fails the
// test if a frame is empty or has a drawn pixel on its border (a trimmed
// frame's rectangle is put back in its frame first); it returns the
// number of frames.
func checkSheetCells(t *testing.T, out, stem string) int {
	t.Helper()
	img, meta := readSheet(t, out, stem)
	cells := 0
	for _, a := range meta.Animations {
		for _, fr := range a.Frames {
			cells++
			drawn := 0
			for y := fr.Y; y < fr.Y+fr.H; y++ {
				for x := fr.X; x < fr.X+fr.W; x++ {
					if _, _, _, al := img.At(x, y).RGBA(); al == 0 {
						continue
					}
					drawn++
					// where the pixel is in its frame
					fx, fy := x-fr.X+fr.OffsetX, y-fr.Y+fr.OffsetY
					if fx == 0 || fy == 0 || fx == meta.FrameWidth-1 || fy == meta.FrameHeight-1 {
						t.Fatalf("%s at %d ms: drawn pixel on the cell border at (%d,%d)", a.Name, fr.TimeMS, x, y)
					}
				}
			}
			if drawn == 0 {
				t.Errorf("%s at %d ms: empty frame", a.Name, fr.TimeMS)
			}
		}
	}
	return cells
}

// An emitter-only effect far from the origin that flies 150 units along +Y
// over its sequence (a missile): a sheet frames the union of its particles
// over the frames, so every frame shows the whole effect (the default fit
// box at the origin would show nothing at all) and, as all frames share
// that camera, the effect moves across the frames seen from the front
// (its particles live 0.2 s, so each frame shows a short stretch of the
// path). Its texture is missing: the particles are drawn as the
// reference viewer's white squares (--missing-textures white), which the
// default would leave out.
func TestSheetFramesEmitterOnlyModel(t *testing.T) {
	dir := t.TempDir()
	m := &mdx.Model{Version: 800, Name: "fx", BlendTime: 150,
		Sequences: []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 1000}}},
		Textures:  []mdx.Texture{{Path: `Textures\fx_missing.blp`}},
		Bones: []mdx.Bone{{Node: mdx.Node{Name: "Root", ObjectID: 0, ParentID: -1, Flags: mdx.NodeBone},
			GeosetID: -1, GeosetAnimID: -1}},
		ParticleEmitters2: []mdx.ParticleEmitter2{{
			Node: mdx.Node{Name: "Glow", ObjectID: 1, ParentID: 0, Flags: mdx.NodeParticleEmitter,
				Translation: &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1,
					Keys: []mdx.Key[mdx.Vec3]{{Frame: 0, Value: mdx.Vec3{0, 0, 0}}, {Frame: 1000, Value: mdx.Vec3{0, 150, 0}}}}},
			Speed: 30, Latitude: 180, LifeSpan: 0.2, EmissionRate: 100, Width: 4, Length: 4,
			Rows: 1, Columns: 1, Time: 0.5,
			SegmentColors:  [3]mdx.Vec3{{1, 0.6, 0.2}, {1, 0.6, 0.2}, {1, 0.6, 0.2}},
			SegmentAlphas:  [3]uint8{255, 255, 255},
			SegmentScaling: mdx.Vec3{6, 6, 6},
			HeadIntervals:  [3]uint32{0, 0, 1}, HeadDecayIntervals: [3]uint32{0, 0, 1},
			TailIntervals: [3]uint32{0, 0, 1}, TailDecayIntervals: [3]uint32{0, 0, 1},
		}},
		PivotPoints: []mdx.Vec3{{0, 0, 0}, {400, 0, 100}},
	}
	p := writeModel(t, dir, "fx.mdx", m)
	out := filepath.Join(dir, "out")
	if so, se, code := run(t, "sheet", p, "-o", out, "--frames", "6", "--yaws", "0,90", "--size", "48", "--pitch", "20", "--missing-textures", "white"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, so, se)
	}
	if cells := checkSheetCells(t, out, "fx"); cells != 2*6 {
		t.Errorf("%d cells, want 12", cells)
	}
	// Yaw 0 looks along -X, so +Y is screen right: the mean x of the drawn
	// pixels (relative to the cell) must grow from the first frame to the
	// last. A camera re-framed on each frame would keep it centred.
	img, meta := readSheet(t, out, "fx")
	meanX := func(fr sheet.PlainFrame) float64 {
		sum, n := 0, 0
		for y := fr.Y; y < fr.Y+fr.H; y++ {
			for x := fr.X; x < fr.X+fr.W; x++ {
				if _, _, _, a := img.At(x, y).RGBA(); a != 0 {
					sum, n = sum+x-fr.X+fr.OffsetX, n+1 // in the (trimmed) frame
				}
			}
		}
		return float64(sum) / float64(max(n, 1))
	}
	frames := meta.Animations[0].Frames
	if first, last := meanX(frames[0]), meanX(frames[len(frames)-1]); last-first < 8 {
		t.Errorf("the effect's mean x moves from %.1f to %.1f px over the sheet: the frames do not share one camera", first, last)
	}
}

// Two models that would write the same file are a configuration error
// (exit 2), and the message says how to set the suggested output name
// from the command line, which has no flag for it; set so, the batch
// runs.
func TestBatchNameClashSaysHowToSetTheName(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	b, err := os.ReadFile(fixtureModel(t, in, "hermite_bezier.mdl", "tester.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := mdx.DecodeMDL(b, budget.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	writeModel(t, in, "tester.mdx", m)
	out := filepath.Join(dir, "out")
	stdout, stderr, code := run(t, "batch", "-o", out, "--size", "32", in)
	const name = "{path}-{view}-{ext}"
	if code != 2 || !strings.Contains(stderr, "both write tester-default") || !strings.Contains(stderr, "MDXR_OUTPUT_NAME='"+name+"' mdxrender batch") {
		t.Fatalf("exit %d, want 2 and how to set output.name:\n%s%s", code, stdout, stderr)
	}
	t.Setenv("MDXR_OUTPUT_NAME", name)
	if stdout, stderr, code := run(t, "batch", "-o", out, "--size", "32", in); code != 0 || !strings.Contains(stdout, "2 models: 2 rendered") {
		t.Fatalf("with MDXR_OUTPUT_NAME: exit %d\n%s%s", code, stdout, stderr)
	}
}
