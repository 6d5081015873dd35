package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// eachJSON passes a journal line's result through as it is written,
// marking a rendered result read again as cached; what it gives must be
// byte for byte what decoding the line and encoding its result gives,
// or a resumed batch's manifest would differ from an uninterrupted one's.
func TestJournalEachJSONAsDecoded(t *testing.T) {
	_, j, done := testJournal(t, t.TempDir())
	defer done()
	results := []ModelResult{
		{Input: "a.mdx", Rel: "a.mdx", Status: StatusOK, Outputs: []OutputFile{{Path: "a.png", Kind: "png"}},
			Warnings: []Warning{{Code: "missing-texture", Message: `<b>&"x\u2028"</b>`}}, Timings: Timings{ReadMS: 0.1, TotalMS: 1e-7}},
		{Input: "b.mdx", Rel: "b.mdx", Status: StatusCached, CacheKey: "k"},
		{Input: `c"status":"ok".mdx`, Rel: `,"result":{"status":"ok"}`, Status: StatusOK},
		{Input: "d.mdx", Rel: "d.mdx", Status: StatusOK, Checks: []CheckResult{{Output: "d.png", Status: CheckPass}}},
		{Input: "e.mdx", Rel: "e.mdx", Status: StatusFailed, Errors: []string{"open: bad"}},
		{Input: "f\xff.mdx", Rel: "f.mdx", Status: StatusOK},
	}
	var lines [][]byte
	for i := range results {
		lines = append(lines, journalLine(&results[i], "job", []string{"s"}))
	}
	offs, err := j.append(lines)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []modelState{finishedOK, finishedCached} {
		jm := &journalModels{j: j, offsets: offsetsOf(offs), states: make([]modelState, len(offs))}
		for i := range jm.states {
			jm.states[i] = st
			if results[i].Status == StatusFailed {
				jm.states[i] = finishedFailed
			}
		}
		var want []string
		err := jm.eachLine(func(i int, line []byte) error {
			r, err := jm.result(i, line)
			if err != nil {
				return err
			}
			b, err := json.Marshal(r)
			want = append(want, string(b))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		err = jm.eachJSON(func(b []byte) error {
			if string(b) != want[n] {
				t.Errorf("state %d, model %d: eachJSON gave\n%s\nwant\n%s", st, n, b, want[n])
			}
			n++
			return nil
		})
		if err != nil || n != len(results) {
			t.Fatalf("state %d: %d models, %v", st, n, err)
		}
	}
}

// A fully cached resume finds its journal already as a finished run
// would write it, and keeps the file instead of writing it again; a run
// that rendered something writes it anew. Either way its reports are
// those of the models.
func TestJournalKeptByCachedResume(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 5 {
		files[fmt.Sprintf("models/m%d.mdx", i)] = fmt.Sprintf("seq Stand 0 %d\n", 500+i)
	}
	fixture(t, dir, files)
	run := func() (*Manifest, os.FileInfo, []byte) {
		t.Helper()
		m, err := runAll(&Runner{Options: crashOptions(dir, "out"), Renderer: &fakeRenderer{}, Version: "test"}, context.Background())
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "out", CacheDir, "journal.jsonl")
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		return m, fi, b
	}
	// crashOptions checks against goldens: write them first.
	up := crashOptions(dir, "golden-prep")
	up.Check.Update = true
	if _, err := (&Runner{Options: up, Renderer: &fakeRenderer{}, Version: "test", Check: true}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	m1, fi1, j1 := run()
	m2, fi2, j2 := run()
	if m1.Summary.OK != 5 || m2.Summary.Cached != 5 || len(m2.Models) != 5 {
		t.Fatalf("runs: %+v then %+v, %d models", m1.Summary, m2.Summary, len(m2.Models))
	}
	if !os.SameFile(fi1, fi2) || string(j1) != string(j2) {
		t.Error("a fully cached resume wrote its journal again")
	}
	// A model that changed is rendered: its line is new, and the
	// journal is written anew, its base the five models in order.
	fixture(t, dir, map[string]string{"models/m2.mdx": "seq Stand 0 900\n"})
	m3, fi3, j3 := run()
	if m3.Summary.OK != 1 || m3.Summary.Cached != 4 || os.SameFile(fi2, fi3) {
		t.Errorf("after a change: %+v, journal rewritten %v", m3.Summary, !os.SameFile(fi2, fi3))
	}
	if n := strings.Count(string(j3), journalKeyPrefix); n != 5 {
		t.Errorf("the rewritten journal has %d models' lines, want 5", n)
	}
	for i, r := range m3.Models {
		if want := fmt.Sprintf("m%d.mdx", i); r.Rel != want {
			t.Errorf("model %d is %s, want %s", i, r.Rel, want)
		}
	}
}

// testJournal opens the journal "journal.jsonl" in a new output folder
// dir; done closes the journal, and the folder closes when the test
// ends.
func testJournal(t *testing.T, dir string) (out *atomicfile.Dir, j *journal, done func()) {
	t.Helper()
	out = testOutput(t, dir)
	j, err := openJournal(context.Background(), out, "journal.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return out, j, func() { j.close() }
}

// testOutput opens dir as an output folder, closed when the test ends.
func testOutput(t *testing.T, dir string) *atomicfile.Dir {
	t.Helper()
	out, err := atomicfile.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	return out
}
