//go:build unix

package main

import (
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGINT in the middle of a real batch: the command stops with status 130,
// leaves no temporary files and no manifest, and the next run renders only
// what was missing.
func TestBatchCommandSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("renders the fixtures twice")
	}
	// While this is registered, SIGINT cannot kill the test process, even if
	// it arrives after the command has stopped listening.
	guard := make(chan os.Signal, 1)
	signal.Notify(guard, os.Interrupt)
	defer signal.Stop(guard)

	dir := t.TempDir()
	fixtures, _ := filepath.Glob(filepath.Join(fixtureDir, "*.mdl"))
	if len(fixtures) < 4 {
		t.Skip("fixtures missing")
	}
	var models []string
	for _, f := range fixtures {
		models = append(models, fixtureModel(t, dir, filepath.Base(f), filepath.Base(f)))
	}
	out := filepath.Join(dir, "out")
	args := append([]string{"batch", "-o", out, "--jobs", "1", "--size", "128", "--ssaa", "2", "--format", "png,sheet", "--sequences", "all"}, models...)

	done := make(chan int)
	go func() {
		_, _, code := run(t, args...)
		done <- code
	}()
	// Interrupt once the first model is complete: with one worker, the
	// second model's first picture (each model writes two) says so. Its
	// cache record may still wait for the batch's next flush to disk.
	pngs := func() int {
		n := 0
		filepath.WalkDir(out, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".png") {
				n++
			}
			return nil
		})
		return n
	}
	var code int
	// Hang protection only: the batch either finishes (done) or writes
	// its pictures, so this fires only on one that hangs, far past what
	// the slowest machine takes for three small pictures.
	deadline := time.After(5 * time.Minute)
wait:
	for {
		select {
		case code = <-done:
			t.Skip("the batch finished before it could be interrupted")
		case <-deadline:
			t.Fatal("the batch hung: no output and no exit after 5 minutes")
		case <-time.After(5 * time.Millisecond):
			if pngs() >= 3 {
				syscall.Kill(os.Getpid(), syscall.SIGINT)
				code = <-done
				break wait
			}
		}
	}
	if code != 130 {
		t.Fatalf("interrupted batch exited %d, want 130", code)
	}
	var rendered int
	filepath.WalkDir(out, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if strings.Contains(e.Name(), ".mdxr-tmp-") {
			t.Errorf("interrupted run left %s", p)
		}
		if strings.HasSuffix(p, ".png") {
			rendered++
		}
		return nil
	})
	// The manifest lists the models that finished before the signal.
	if m := readManifest(t, filepath.Join(out, "manifest.json")); !m.Interrupted || len(m.Models) == 0 || len(m.Models) == len(models) {
		t.Errorf("manifest of the interrupted run: %d of %d models, interrupted %v", len(m.Models), len(models), m.Interrupted)
	}
	so, se, code := run(t, args...)
	if code != 0 {
		t.Fatalf("resumed run: exit %d\n%s%s", code, so, se)
	}
	m := readManifest(t, filepath.Join(out, "manifest.json"))
	if m.Summary.Cached == 0 || m.Summary.OK == 0 || m.Summary.Cached+m.Summary.OK != len(models) {
		t.Errorf("resumed run: %+v (after the interruption %d PNGs existed)", m.Summary, rendered)
	}
}
