package batch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// streamManifest is a manifest of n models with the texts JSON escapes.
func streamManifest(n int) *Manifest {
	m := &Manifest{Tool: "mdxrender", Version: "v1 <&>", Options: "x", Skipped: []string{"a\x1b"}}
	for i := range n {
		r := ModelResult{Input: fmt.Sprintf("in/<m%d>&\u2028.mdx", i), Rel: fmt.Sprintf("m%d.mdx", i), Status: StatusOK,
			Outputs:  []OutputFile{{Path: fmt.Sprintf("m%d.png", i), Kind: "png", TimeMs: uint32(i)}},
			Warnings: []Warning{{Code: "missing-texture", Message: "\"quoted\"\n"}}, Timings: Timings{TotalMS: 1.5}}
		if i%3 == 1 {
			r.Status, r.Errors, r.Outputs = StatusFailed, []string{"bad"}, nil
		}
		m.Models = append(m.Models, r)
	}
	m.summarize()
	return m
}

// The manifest written a model at a time is byte for byte the one
// MarshalIndent makes of it whole, with no model, one or many.
func TestManifestStreamedAsMarshalIndent(t *testing.T) {
	for _, n := range []int{0, 1, 7} {
		m := streamManifest(n)
		want, err := m.MarshalIndent()
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := m.writeJSON(&got, memoryModels(m.Models)); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(want) {
			t.Errorf("%d models: streamed manifest differs:\n%s", n, firstDifference(got.String(), string(want)))
		}
		// And it reads back a model at a time.
		p := filepath.Join(t.TempDir(), "manifest.json")
		os.WriteFile(p, want, 0o644)
		var back []ModelResult
		if err := EachModel(p, func(r *ModelResult) error { back = append(back, *r); return nil }); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(back) != fmt.Sprint(m.Models) {
			t.Errorf("%d models: EachModel read %d models, otherwise", n, len(back))
		}
	}
}

// Writing the manifest and the reports of many models holds one model
// at a time: what it allocates in all grows with the models, what it
// keeps does not (holding 6,000 results would take some 3 MB more than
// holding 300).
func TestReportsStreamed(t *testing.T) {
	live := func(n int) uint64 {
		dir := t.TempDir()
		out, j, done := testJournal(t, dir)
		defer done()
		src := streamManifest(n)
		jm := &journalModels{j: j, states: make([]modelState, n)}
		var lines [][]byte
		for i := range src.Models {
			lines = append(lines, journalLine(&src.Models[i], "", nil))
			jm.states[i] = stateOf(&src.Models[i])
		}
		offs, err := j.append(lines)
		if err != nil {
			t.Fatal(err)
		}
		jm.offsets = offsetsOf(offs)
		m := &Manifest{Tool: "mdxrender", Version: src.Version, Options: src.Options, Skipped: src.Skipped, Summary: src.Summary,
			Reports: Reports{JUnit: "junit.xml", Summary: "summary.md", Gallery: "index.html"}}
		src = nil
		lines = nil
		debug.FreeOSMemory()
		var peak uint64
		if _, err := m.writeReports(context.Background(), out, "manifest.json", &peakModels{jm, &peak}); err != nil {
			t.Fatal(err)
		}
		// The file holds what MarshalIndent would.
		b, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if !strings.Contains(string(b), fmt.Sprintf(`"input": "in/\u003cm%d\u003e\u0026\u2028.mdx"`, n-1)) {
			t.Errorf("manifest of %d models lacks the last", n)
		}
		return peak
	}
	small, large := live(300), live(6000)
	t.Logf("heap in use while writing: %d KB for 300 models, %d KB for 6000", small>>10, large>>10)
	if large > small+(1<<20) {
		t.Errorf("writing the reports of 6000 models kept %d KB, of 300 %d KB: they grow with the models", large>>10, small>>10)
	}
}

// peakModels reads a journal's models, noting the heap in use after a
// collection every 100 models.
type peakModels struct {
	*journalModels
	peak *uint64
}

func (p *peakModels) note(i *int) {
	if *i++; *i%100 == 0 {
		var ms runtimeStats
		ms.read()
		*p.peak = max(*p.peak, ms.heap)
	}
}

func (p *peakModels) each(fn func(r *ModelResult) error) error {
	i := 0
	return p.journalModels.each(func(r *ModelResult) error { p.note(&i); return fn(r) })
}

func (p *peakModels) eachJSON(fn func(b []byte) error) error {
	i := 0
	return p.journalModels.eachJSON(func(b []byte) error { p.note(&i); return fn(b) })
}

// A journal line cut short by a crash, and garbage a file system left
// after it, are dropped; the lines before them stand, and the next line
// starts on a line of its own.
func TestJournalTornTail(t *testing.T) {
	dir := t.TempDir()
	out := testOutput(t, dir)
	ctx := context.Background()
	j, err := openJournal(ctx, out, "j.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	a := journalLine(&ModelResult{Input: "a", Status: StatusOK}, "", nil)
	b := journalLine(&ModelResult{Input: "b", Status: StatusOK}, "", nil)
	if _, err := j.append([][]byte{b, a}); err != nil {
		t.Fatal(err)
	}
	j.close()
	f, _ := os.OpenFile(filepath.Join(dir, "j.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.Write(append([]byte(`{"key":"c","result":{"inp`), 0, 0, 0))
	f.Close()
	j, err = openJournal(ctx, out, "j.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	cur := j.cursor()
	var keys []string
	for {
		k, _, ok := cur.peek()
		if !ok {
			break
		}
		keys = append(keys, k)
		cur.next()
	}
	if strings.Join(keys, " ") != "a b" {
		t.Errorf("the journal's base holds %q after a torn line; want a b, in order", keys)
	}
	if _, err := j.append([][]byte{journalLine(&ModelResult{Input: "d", Status: StatusOK}, "", nil)}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "j.jsonl"))
	if bytes.Contains(raw, []byte(`"c"`)) || bytes.ContainsRune(raw, 0) || !bytes.HasSuffix(raw, []byte("}}\n")) {
		t.Errorf("after a torn line the journal reads:\n%s", raw)
	}
}

// runtimeStats is the heap in use after a collection.
type runtimeStats struct{ heap uint64 }

func (s *runtimeStats) read() {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.heap = m.HeapAlloc
}
