package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// FuzzJournal opens a journal of any bytes, reads its base through and
// appends to it: nothing panics, a journal that is not one is started
// anew, and what is read back is in key order.
func FuzzJournal(f *testing.F) {
	a := journalLine(&ModelResult{Input: "a", Status: StatusOK, Outputs: []OutputFile{{Path: "a.png", Kind: "png"}}}, "h", []string{"m 1.2.3"})
	b := journalLine(&ModelResult{Input: "b\"\\", Status: StatusFailed, Errors: []string{"x"}}, "", nil)
	f.Add([]byte(journalHeader + "\n" + string(a) + "\n" + journalMarker + "\n" + string(b) + "\n"))
	f.Add([]byte(journalHeader + "\n" + journalMarker + "\n" + string(b) + "\n" + string(a)[:40]))
	f.Add([]byte(journalHeader + "\n" + string(b) + "\n" + string(a) + "\n" + journalMarker + "\n{\"key\":\"a\"}\n\x00\x00"))
	f.Add([]byte("{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "j.jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := atomicfile.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		j, err := openJournal(context.Background(), out, "j.jsonl")
		if err != nil {
			return
		}
		defer j.close()
		cur := j.cursor()
		last, lines := "", 0
		for n := 0; ; n++ {
			k, line, ok := cur.peek()
			if !ok {
				break
			}
			if n > 0 && k < last {
				t.Fatalf("base out of order: %q after %q", k, last)
			}
			last = k
			decodeEntry(bytes.Clone(line), k)
			cur.next()
			lines = n + 1
		}
		if lines != j.baseLines {
			t.Fatalf("the base has %d lines, its scan counted %d", lines, j.baseLines)
		}
		// The base read as a run's finished models, cached: every model
		// the manifest gets is JSON.
		jm := &journalModels{j: j, offsets: newOffsetTable(lines), states: make([]modelState, lines), compacted: true}
		for i := range jm.states {
			jm.states[i] = finishedCached
		}
		jm.eachJSON(func(b []byte) error {
			if !json.Valid(b) {
				t.Fatalf("eachJSON gave %q", b)
			}
			return nil
		})
		jm.each(func(*ModelResult) error { return nil })
		if _, err := j.append([][]byte{a}); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzEachModel reads a manifest of any bytes a model at a time:
// nothing panics.
func FuzzEachModel(f *testing.F) {
	m := streamManifest(3)
	b, _ := m.MarshalIndent()
	f.Add(b)
	f.Add([]byte(`{"models": null}`))
	f.Add([]byte(`{"tool":"mdxrender","models":[{"input":"a"},{"input":`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "manifest.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		EachModel(p, func(r *ModelResult) error { return nil })
	})
}
