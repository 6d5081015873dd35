package mpq

import (
	"io"
	"os"
	"sort"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// largestCorpusArchive is the biggest shared archive, the one the speed
// comparison with smpq (scripts/bench-mpq.sh) uses.
func largestCorpusArchive(b *testing.B) string {
	archives := corpusArchives(b)
	sort.Slice(archives, func(i, j int) bool {
		si, _ := os.Stat(archives[i].path)
		sj, _ := os.Stat(archives[j].path)
		return si.Size() > sj.Size()
	})
	return archives[0].path
}

// BenchmarkOpenList opens the largest shared archive and resolves its names.
func BenchmarkOpenList(b *testing.B) {
	path := largestCorpusArchive(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a, err := Open(path, budget.Limits{})
		if err != nil {
			b.Fatal(err)
		}
		if len(a.Files()) == 0 {
			b.Fatal("no files")
		}
		a.Close()
	}
}

// benchFiles opens the largest shared archive for a read benchmark and
// sets the bytes per op to its unpacked size.
func benchFiles(b *testing.B) []*File {
	a, err := Open(largestCorpusArchive(b), budget.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	files := a.Files()
	var total int64
	for _, f := range files {
		total += f.Size
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	return files
}

// BenchmarkReadAll reads every file of the largest shared archive whole.
func BenchmarkReadAll(b *testing.B) {
	files := benchFiles(b)
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			if _, err := f.ReadAll(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkStream reads every file of the largest shared archive through
// Open, one sector at a time.
func BenchmarkStream(b *testing.B) {
	files := benchFiles(b)
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			rc, err := f.Open()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, rc); err != nil {
				b.Fatal(err)
			}
			rc.Close()
		}
	}
}
