package mdx

import (
	"os"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/internal/testshared"
)

func benchDecodeMDL(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		if _, err := decodeMDL(data); err != nil {
			b.Fatal(err)
		}
	}
	reportCPUThroughput(b, int64(len(data)), cputime.Process()-cpu0)
}

// reportCPUThroughput adds "cpuMB/s": bytes per CPU second of the whole
// process, the figure that stays meaningful when other jobs share the cores.
func reportCPUThroughput(b *testing.B, bytesPerOp int64, cpu time.Duration) {
	if cpu > 0 && b.N > 0 {
		b.ReportMetric(float64(bytesPerOp)*float64(b.N)/1e6/cpu.Seconds(), "cpuMB/s")
	}
}

// BenchmarkDecodeMDL measures MDL parsing speed (MB/s) on the largest corpus
// MDL and on MDL text written by EncodeMDL from a generated 300k-triangle
// model. The reference parser (mdx-m3-viewer) reads the corpus MDL at about
// 60 MB/s (reference/peer-parse.jsonl).
func BenchmarkDecodeMDL(b *testing.B) {
	b.Run("generated-300k-triangles", func(b *testing.B) {
		data, err := encodeMDLT(generatedModel(300000))
		if err != nil {
			b.Fatal(err)
		}
		benchDecodeMDL(b, data)
	})
	b.Run("largest-corpus-mdl", func(b *testing.B) {
		var best testshared.CorpusFile
		var size int64
		for _, e := range corpusMDL(b) {
			if fi, err := os.Stat(e.Path); err == nil && fi.Size() > size && !e.Malformed() {
				best, size = e, fi.Size()
			}
		}
		data, err := os.ReadFile(best.Path)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("%s (%d bytes)", best.Rel, len(data))
		benchDecodeMDL(b, data)
	})
	// The 112 corpus MDL files the reference parser reads, the set its
	// ~58 MB/s (sum of bytes / sum of median parse times) is measured on.
	b.Run("corpus-mdl-reference-set", func(b *testing.B) {
		peer := peerParse(b)
		var files [][]byte
		total := 0
		for _, e := range corpusMDL(b) {
			if p, ok := peer[e.Rel]; !ok || p.Error != "" {
				continue
			}
			data, err := os.ReadFile(e.Path)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, data)
			total += len(data)
		}
		b.Logf("%d files, %d bytes", len(files), total)
		b.SetBytes(int64(total))
		b.ReportAllocs()
		cpu0 := cputime.Process()
		for b.Loop() {
			for _, f := range files {
				if _, err := decodeMDL(f); err != nil {
					b.Fatal(err)
				}
			}
		}
		reportCPUThroughput(b, int64(total), cputime.Process()-cpu0)
	})
}

// BenchmarkEncodeMDL measures MDL writing speed on the generated model.
func BenchmarkEncodeMDL(b *testing.B) {
	m := generatedModel(300000)
	data, err := encodeMDLT(m)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		if _, err := encodeMDLT(m); err != nil {
			b.Fatal(err)
		}
	}
	reportCPUThroughput(b, int64(len(data)), cputime.Process()-cpu0)
}
