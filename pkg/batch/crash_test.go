package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// crashModels are the models of the crash test: enough, and slow enough
// (the fake renderer sleeps in each), that a kill can land before,
// between and after the journal's flushes (one per 64 models); some
// fail, some warn.
func crashModels() map[string]string {
	files := map[string]string{}
	for i := range crashCount {
		m := fmt.Sprintf("seq Stand 0 %d\nseq Walk 1000 1400\nsleep 10\n", 500+10*i)
		switch i % 12 {
		case 3:
			m += "missing skin.blp\n"
		case 7:
			m = "fail open\n"
		}
		files[fmt.Sprintf("models/d%d/m%03d.mdx", i%3, i)] = m
	}
	return files
}

const crashCount = 150

// crashOptions are the options of the crash test's batch: a check run
// (so it writes junit.xml and summary.md), stills and sheets, in the
// output folder out below dir, against goldens in dir/golden.
func crashOptions(dir, out string) *Options {
	return options(dir, func(o *Options) {
		o.Inputs.Dirs = []string{"models"}
		o.Output.Dir = out
		o.Output.Formats = []Format{FormatPNG, FormatSheet}
		o.Render.Size = Square(24)
		o.Sheet.Frames = 3
		o.Jobs = 2
		o.Check.Golden = "golden"
	})
}

// TestCrashHelper is the batch the crash test runs in a process of its
// own and kills: it runs only when MDXR_CRASH_DIR names the test's
// folder and MDXR_CRASH_OUT its output folder.
func TestCrashHelper(t *testing.T) {
	dir, out := os.Getenv("MDXR_CRASH_DIR"), os.Getenv("MDXR_CRASH_OUT")
	if dir == "" {
		t.Skip("run by TestKillAndResume")
	}
	r := &Runner{Options: crashOptions(dir, out), Renderer: &fakeRenderer{}, Version: "test", Check: true}
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestKillAndResume kills a batch with SIGKILL at several points of its
// run (while planning, between flushes of the journal, while it writes
// its reports), resumes it, and checks that the outputs, manifest.json,
// the gallery, junit.xml and summary.md are those of a run that was never
// interrupted, but for the timings and for the models done before the
// kill being "unchanged" rather than "rendered" on the resume.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs batches in processes of their own")
	}
	dir := t.TempDir()
	fixture(t, dir, crashModels())
	// The goldens, and a run never interrupted.
	up := crashOptions(dir, "prep")
	up.Check.Update = true
	if _, err := (&Runner{Options: up, Renderer: &fakeRenderer{}, Version: "test", Check: true}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	whole := crashOptions(dir, "whole")
	if _, err := (&Runner{Options: whole, Renderer: &fakeRenderer{}, Version: "test", Check: true}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := crashState(t, filepath.Join(dir, "whole"))

	// Each kill lands when the journal holds at least so many models'
	// lines (0: at once; -1: once the manifest is being written, after
	// the last flush); the last case kills a resume in turn.
	for _, at := range [][]int{{0}, {1}, {65}, {129}, {-1}, {1, 65}} {
		name := strings.Trim(strings.ReplaceAll(fmt.Sprint(at), " ", "_"), "[]")
		t.Run(name, func(t *testing.T) {
			out := "killed" + name
			journal := filepath.Join(dir, out, CacheDir, "journal.jsonl")
			for _, n := range at {
				cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
				cmd.Env = append(os.Environ(), "MDXR_CRASH_DIR="+dir, "MDXR_CRASH_OUT="+out)
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				exited := make(chan struct{})
				go func() { cmd.Wait(); close(exited) }()
				lines := 0
			wait:
				for {
					select {
					case <-exited:
						break wait
					case <-time.After(2 * time.Millisecond):
					}
					j, _ := os.ReadFile(journal)
					lines = strings.Count(string(j), journalKeyPrefix)
					if n >= 0 && lines >= n || n < 0 && lines >= crashCount {
						cmd.Process.Signal(syscall.SIGKILL)
						<-exited
						break
					}
				}
				t.Logf("killed at %d models' lines in the journal (%s)", lines, cmd.ProcessState)
			}
			o := crashOptions(dir, out)
			if _, err := (&Runner{Options: o, Renderer: &fakeRenderer{}, Version: "test", Check: true}).Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			got := crashState(t, filepath.Join(dir, out))
			for name, w := range want {
				if g, ok := got[name]; !ok {
					t.Errorf("%s: missing after the resume", name)
				} else if g != w {
					t.Errorf("%s differs from the uninterrupted run's:\n%s", name, firstDifference(g, w))
				}
			}
			for name := range got {
				if _, ok := want[name]; !ok {
					t.Errorf("%s: after the resume, not in the uninterrupted run's", name)
				}
			}
		})
	}
}

// crashState is what the crash test compares of an output folder: every
// file but the journal and the lock, the reports made independent of
// timings and of whether a model was rendered or found unchanged.
func crashState(t *testing.T, out string) map[string]string {
	t.Helper()
	files := map[string]string{}
	eachFile(t, out, func(rel string, b []byte) {
		s := string(b)
		switch {
		case rel == "manifest.json":
			s = normalManifest(t, b)
		case strings.HasSuffix(rel, ".html"), strings.HasSuffix(rel, ".md"), strings.HasSuffix(rel, ".js"):
			s = normalReport(s)
		case strings.HasSuffix(rel, ".xml"):
			s = regexp.MustCompile(`time="[0-9.]+"`).ReplaceAllString(s, `time=""`)
		}
		files[rel] = s
	})
	return files
}

// normalManifest is a manifest without timings, its cached models ok.
func normalManifest(t *testing.T, b []byte) string {
	t.Helper()
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	for i := range m.Models {
		m.Models[i].Timings = Timings{}
		if m.Models[i].Status == StatusCached {
			m.Models[i].Status = StatusOK
		}
	}
	m.Summary.OK += m.Summary.Cached
	m.Summary.Cached = 0
	out, _ := json.MarshalIndent(m, "", "  ")
	return string(out)
}

// normalReport is a gallery page, a list of its models or a summary with
// its cached models ok.
func normalReport(s string) string {
	s = regexp.MustCompile(`([0-9,]+) rendered, ([0-9,]+) unchanged`).ReplaceAllString(s, "N rendered, N unchanged")
	return strings.NewReplacer(`"cached"`, `"ok"`, `card cached`, `card ok`, `<b>unchanged</b>`, `<b>rendered</b>`).Replace(s)
}

// firstDifference shows where two texts first differ.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("got  …%.400s\nwant …%.400s", a[from:], b[from:])
}
