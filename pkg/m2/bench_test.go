package m2

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
)

func readHuman(b *testing.B) []byte {
	dir := testshared.Corpus(b)
	data, err := os.ReadFile(filepath.Join(dir, "corpus", "files", "vanilla-wow-interface-textures", "Interface", "Glues", "Models", "UI_Human", "UI_Human.m2"))
	if err != nil {
		b.Skip(err)
	}
	return data
}

// BenchmarkDecodeM2 decodes the largest corpus M2 (UI_Human.m2, 933 KB).
func BenchmarkDecodeM2(b *testing.B) { benchHuman(b, Decode) }

// BenchmarkDecodeModelM2 decodes an M2 and converts it to an mdx.Model.
func BenchmarkDecodeModelM2(b *testing.B) { benchHuman(b, decodeModel) }

// benchHuman decodes UI_Human.m2 with decode per iteration.
func benchHuman[T any](b *testing.B, decode func([]byte) (T, error)) {
	data := readHuman(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
