package batch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDurableLinesWaitForFlush checks the order that makes a crash safe:
// a model's journal line is not in the journal before a flush, which
// comes after its outputs were written, and every line is there after
// close.
func TestDurableLinesWaitForFlush(t *testing.T) {
	dir := t.TempDir()
	out, j, done := testJournal(t, dir)
	defer done()
	d := newDurable(out)
	d.j = j
	placed := map[int]int64{}
	d.placed = func(i int, off int64) { placed[i] = off }
	lines := func() int {
		b, _ := os.ReadFile(filepath.Join(dir, "journal.jsonl"))
		return strings.Count(string(b), journalKeyPrefix)
	}
	for i := range flushRecords + 3 {
		in := fmt.Sprintf("m%d.mdx", i)
		if err := d.write(context.Background(), "out/"+in+".png", []byte("png")); err != nil {
			t.Fatal(err)
		}
		d.finished(i, journalLine(&ModelResult{Input: in, Status: StatusOK, CacheKey: "k"}, "", nil))
		want := 0
		if i+1 >= flushRecords {
			want = flushRecords // the first flush, at the flushRecords-th model
		}
		if got := lines(); got != want {
			t.Fatalf("after %d models: %d lines in the journal, want %d", i+1, got, want)
		}
	}
	if err := d.close(); err != nil {
		t.Fatal(err)
	}
	if got := lines(); got != flushRecords+3 {
		t.Fatalf("after close: %d lines, want %d", got, flushRecords+3)
	}
	line, err := j.line(placed[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, r := decodeEntry(line, "m0.mdx"); r == nil || r.CacheKey != "k" {
		t.Errorf("the first model's line does not read back: %s", line)
	}
}
