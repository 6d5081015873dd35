package mdx

import (
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
)

// BenchmarkDecodeMDL measures MDL parsing speed (MB/s) on the largest corpus
// MDL and on MDL text written by EncodeMDL from a generated 300k-triangle
// model. The reference parser (mdx-m3-viewer) reads the corpus MDL at about
// 60 MB/s (reference/peer-parse.jsonl).
func BenchmarkDecodeMDL(b *testing.B) {
	b.Run("generated-300k-triangles", func(b *testing.B) { benchGenerated(b, encodeMDLT, decodeMDL) })
	b.Run("largest-corpus-mdl", func(b *testing.B) {
		benchDecoding(b, decodeMDL, largestCorpusFile(b, corpusMDL(b)))
	})
	// The 112 corpus MDL files the reference parser reads, the set its
	// ~58 MB/s (sum of bytes / sum of median parse times) is measured on.
	b.Run("corpus-mdl-reference-set", func(b *testing.B) {
		peer := peerParse(b)
		files := readCorpusFiles(b, corpusMDL(b), func(e testshared.CorpusFile) bool {
			p, ok := peer[e.Rel]
			return ok && p.Error == ""
		})
		b.Logf("%d files", len(files))
		benchDecoding(b, decodeMDL, files...)
	})
}

// BenchmarkEncodeMDL measures MDL writing speed on the generated model.
func BenchmarkEncodeMDL(b *testing.B) {
	benchEncoding(b, encodeMDLT, generatedModel(300000))
}
