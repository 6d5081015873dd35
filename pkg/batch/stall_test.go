//go:build unix

package batch

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// runStall runs a batch of 16-pixel stills of the models in dir/input,
// the options changed by edit; a model that does not stop is left behind
// after 100 ms.
func runStall(t *testing.T, ctx context.Context, dir, input string, edit func(o *Options)) (*Manifest, error) {
	t.Helper()
	return runStallWith(t, ctx, dir, input, &fakeRenderer{}, edit)
}

// runStallWith is runStall with the renderer fr.
func runStallWith(t *testing.T, ctx context.Context, dir, input string, fr *fakeRenderer, edit func(o *Options)) (*Manifest, error) {
	t.Helper()
	c := options(dir, func(o *Options) {
		o.Inputs.Dirs = []string{input}
		o.Render.Size = Square(16)
		if edit != nil {
			edit(o)
		}
	})
	return runAll(&Runner{Options: c, Renderer: fr, Version: "test", StopGrace: 100 * time.Millisecond}, ctx)
}

func byRel(m *Manifest) map[string]*ModelResult {
	out := map[string]*ModelResult{}
	for i := range m.Models {
		out[m.Models[i].Rel] = &m.Models[i]
	}
	return out
}

// stuckRenderer is a fakeRenderer whose stuck models wait until the
// test ends, or, as a hang guard, five minutes: stuck reports whether
// they were still waiting, which they are unless the batch waited for
// them (a batch that leaves them behind returns at once).
func stuckRenderer(t *testing.T) (fr *fakeRenderer, stuck func() bool) {
	fr = &fakeRenderer{release: make(chan struct{})}
	var once sync.Once
	free := func() { once.Do(func() { close(fr.release) }) }
	guard := time.AfterFunc(5*time.Minute, free)
	t.Cleanup(func() { guard.Stop(); free() })
	return fr, func() bool {
		select {
		case <-fr.release:
			return false
		default:
			return true
		}
	}
}

// A model past model_timeout fails with a message that says so and how to
// give it more; the batch goes on, also past a renderer that does not
// watch its context (left behind after StopGrace).
func TestModelTimeout(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a.mdx": "seq Stand 0 100\nhang", "m/b.mdx": "seq Stand 0 100\nstuck", "m/c.mdx": "seq Stand 0 100"})
	fr, stuck := stuckRenderer(t)
	m, err := runStallWith(t, context.Background(), dir, "m", fr, func(o *Options) { o.ModelTimeout, o.Jobs = 200*time.Millisecond, 1 })
	if err != nil {
		t.Fatal(err)
	}
	if !stuck() {
		t.Error("the batch waited for the stuck model")
	}
	r := byRel(m)
	for _, rel := range []string{"a.mdx", "b.mdx"} {
		res := r[rel]
		if res.Status != StatusFailed || !strings.HasPrefix(res.Errors[0], "timed out after 200ms (model_timeout 0.2 s; raise it with --model-timeout") {
			t.Errorf("%s: %+v", rel, res)
		}
	}
	if !strings.Contains(strings.Join(r["b.mdx"].Errors, ";"), "did not stop within") {
		t.Errorf("stuck renderer: %v", r["b.mdx"].Errors)
	}
	if r["c.mdx"].Status != StatusOK {
		t.Errorf("the next model: %+v", r["c.mdx"])
	}
}

// Cancelling the batch (what SIGTERM does) as a model sticks in a
// renderer that ignores its context: Run returns after StopGrace, without
// waiting for it, with the manifest of what finished.
func TestInterruptWithStuckModel(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a.mdx": "seq Stand 0 100", "m/b.mdx": "seq Stand 0 100\nstuck", "m/c.mdx": "seq Stand 0 100"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fr, stuck := stuckRenderer(t)
	fr.onRender = func(job *Job) {
		if job.Input.Rel == "b.mdx" {
			cancel()
		}
	}
	m, err := runStallWith(t, ctx, dir, "m", fr, func(o *Options) { o.Jobs = 1 })
	if !errors.Is(err, context.Canceled) || !stuck() {
		t.Fatalf("interrupted run: %v; still stuck when it returned: %v", err, stuck())
	}
	if len(m.Models) != 1 || m.Models[0].Rel != "a.mdx" || !m.Interrupted {
		t.Errorf("manifest of an interrupted run: %+v", m)
	}
}

// A folder holding a FIFO, a socket, a dangling link, a link loop and
// links that lead out of it: the batch does not hang on them, says what
// it skipped, and renders the rest, nothing outside the folder. A linked
// input folder is followed, not silently empty.
func TestFolderWithSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"real/ok.mdx": "seq Stand 0 100", "real/sub/deep.mdx": "seq Stand 0 100"})
	real := filepath.Join(dir, "real")
	if err := syscall.Mkfifo(filepath.Join(real, "pipe.mdx"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if l, err := net.Listen("unix", filepath.Join(real, "sock.mdx")); err == nil {
		defer l.Close()
	}
	os.Symlink("nowhere.mdx", filepath.Join(real, "dangling.mdx"))
	os.Symlink("..", filepath.Join(real, "sub", "loop"))
	os.Symlink(real, filepath.Join(dir, "linked"))
	// Links out of the input folder, relative and absolute: what they
	// lead to is not the batch's to read.
	fixture(t, dir, map[string]string{"elsewhere/secret.mdx": "seq Stand 0 100"})
	os.Symlink(filepath.Join("..", "elsewhere"), filepath.Join(real, "out"))
	os.Symlink(filepath.Join(dir, "elsewhere", "secret.mdx"), filepath.Join(real, "abs.mdx"))
	done := make(chan struct{})
	var m *Manifest
	var err error
	go func() {
		defer close(done)
		m, err = runStall(t, context.Background(), dir, "linked", nil)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		// Hang guard: a batch that opened the FIFO would block for ever.
		t.Fatal("the batch hangs on a folder with special files")
	}
	if err != nil {
		t.Fatal(err)
	}
	if m.Summary.OK != 2 {
		t.Errorf("rendered %+v, want ok.mdx and sub/deep.mdx", m.Summary)
	}
	skipped := strings.Join(m.Skipped, "\n")
	for _, want := range []string{"pipe.mdx: not a regular file (a FIFO); skipped", "dangling.mdx: a symbolic link that leads nowhere", "loop: a link back to a folder above it",
		"out: a symbolic link that leads outside the input folder", "abs.mdx: a symbolic link that leads outside the input folder, or is absolute"} {
		if !strings.Contains(skipped, want) {
			t.Errorf("skipped lacks %q:\n%s", want, skipped)
		}
	}
}

// Two batches into one output folder: the second refuses to start and
// says why; shards of one batch do not exclude each other.
func TestOutputLock(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a.mdx": "seq Stand 0 100"})
	out, err := atomicfile.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	unlock, err := lockOutput(out, Shard{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = runStall(t, context.Background(), dir, "m", nil)
	var le *LockError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "another batch is writing into") || !strings.Contains(err.Error(), "pid ") {
		t.Fatalf("second batch: %v", err)
	}
	if _, err := runStall(t, context.Background(), dir, "m", func(o *Options) { o.Shard = Shard{1, 2} }); err != nil {
		t.Errorf("a shard beside an unsharded run: %v", err)
	}
	unlock()
	if _, err := runStall(t, context.Background(), dir, "m", nil); err != nil {
		t.Errorf("after the first finished: %v", err)
	}
}

// Errors and warnings kept in the manifest are bounded.
func TestLongErrorsAreBounded(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a.mdx": "seq Stand 0 100\nlongerr 1000000"})
	m, err := runStall(t, context.Background(), dir, "m", nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := m.Models[0].Errors; len(e) != 1 || len(e[0]) > maxMessage+100 || !strings.Contains(e[0], "more bytes") {
		t.Errorf("error of %d bytes", len(e[0]))
	}
}

// --prune removes what earlier runs wrote for models no longer in the
// inputs (and outputs a model no longer has), never other files.
func TestPrune(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{"m/a.mdx": "seq Stand 0 100", "m/sub/b.mdx": "seq Stand 0 100"})
	prune := func(formats ...Format) func(o *Options) {
		return func(o *Options) { o.Output.Formats, o.Prune = formats, true }
	}
	if _, err := runStall(t, context.Background(), dir, "m", prune(FormatPNG, FormatSheet)); err != nil {
		t.Fatal(err)
	}
	fixture(t, dir, map[string]string{"out/notes.txt": "mine", "out/sub/b-default-keep.png": "not written by a batch"})
	os.Remove(filepath.Join(dir, "m", "sub", "b.mdx"))
	m, err := runStall(t, context.Background(), dir, "m", prune(FormatPNG))
	if err != nil {
		t.Fatal(err)
	}
	pruned := strings.Join(m.Pruned, " ")
	for _, want := range []string{"a-default-sheet.png", "sub/b-default.png", "sub/b-default-sheet.json"} {
		if !strings.Contains(pruned, want) {
			t.Errorf("not pruned: %s (pruned: %s)", want, pruned)
		}
	}
	for _, keep := range []string{"a-default.png", "notes.txt", "sub/b-default-keep.png"} {
		if _, err := os.Stat(filepath.Join(dir, "out", keep)); err != nil {
			t.Errorf("pruned %s: %v", keep, err)
		}
	}
	// The journal keeps the models of the run, a.mdx alone.
	j, _ := os.ReadFile(filepath.Join(dir, "out", CacheDir, "journal.jsonl"))
	if n := strings.Count(string(j), journalKeyPrefix); n != 1 || !strings.Contains(string(j), "a.mdx") {
		t.Errorf("the journal keeps %d models, want 1 (a.mdx):\n%s", n, j)
	}
	// Without prune nothing is removed.
	os.Remove(filepath.Join(dir, "m", "a.mdx"))
	fixture(t, dir, map[string]string{"m/c.mdx": "seq Stand 0 100"})
	if m, err := runStall(t, context.Background(), dir, "m", nil); err != nil || len(m.Pruned) != 0 {
		t.Errorf("pruned without --prune: %v %v", err, m.Pruned)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "a-default.png")); err != nil {
		t.Error(err)
	}
}
