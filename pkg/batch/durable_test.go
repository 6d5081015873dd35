package batch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// TestDurableRecordsWaitForFlush checks the order that makes a crash
// safe: a model's cache record is not on disk before a flush, which
// comes after its outputs were written, and every record is there after
// close.
func TestDurableRecordsWaitForFlush(t *testing.T) {
	dir := t.TempDir()
	out, err := atomicfile.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	d := newDurable(out)
	records := func() int {
		es, _ := os.ReadDir(filepath.Join(dir, CacheDir))
		return len(es)
	}
	for i := range flushRecords + 3 {
		in := fmt.Sprintf("m%d.mdx", i)
		if err := d.write(context.Background(), "out/"+in+".png", []byte("png")); err != nil {
			t.Fatal(err)
		}
		if err := d.finished(&ModelResult{Input: in, CacheKey: "k"}); err != nil {
			t.Fatal(err)
		}
		want := 0
		if i+1 >= flushRecords {
			want = flushRecords // the first flush, at the flushRecords-th model
		}
		if got := records(); got != want {
			t.Fatalf("after %d models: %d records on disk, want %d", i+1, got, want)
		}
	}
	if err := d.close(); err != nil {
		t.Fatal(err)
	}
	if got := records(); got != flushRecords+3 {
		t.Fatalf("after close: %d records, want %d", got, flushRecords+3)
	}
	if _, ok := lookupCache(out, "m0.mdx", "k"); !ok {
		t.Error("the first model's record does not read back")
	}
}
