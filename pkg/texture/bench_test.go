package texture

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
)

// Benchmark inputs from the shared corpus (skipped without it). The same
// files were used to time the reference viewer's decoder
// (docs/performance.md#textures).
const (
	benchBLP1JPEG    = "corpus/files/War3ModelView/testmodel/war3mapImported/vip14_0.blp"            // 512×512, baseline JPEG, alpha 8
	benchBLP1Palette = "corpus/files/wc3lib/src/blp/test/HumanCampaignCastle.blp"                    // 512×512, palette, alpha 8
	benchDDSDXT5     = "corpus/files/reforged_tools/Documentation/Tutorial/Resources/blob_diff2.dds" // 1024×1024 DXT5, 11 levels
)

func benchFile(b *testing.B, rel string) []byte {
	data, err := os.ReadFile(filepath.Join(testshared.Corpus(b), rel))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func benchDecode(b *testing.B, rel string, o *Options) {
	data := benchFile(b, rel)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Decode(data, o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeBLP1JPEG512(b *testing.B) {
	b.Run("mip0", func(b *testing.B) { benchDecode(b, benchBLP1JPEG, &Options{FirstLevelOnly: true}) })
	b.Run("allmips", func(b *testing.B) { benchDecode(b, benchBLP1JPEG, nil) })
}

func BenchmarkDecodeBLP1Palette512(b *testing.B) {
	b.Run("mip0", func(b *testing.B) { benchDecode(b, benchBLP1Palette, &Options{FirstLevelOnly: true}) })
	b.Run("allmips", func(b *testing.B) { benchDecode(b, benchBLP1Palette, nil) })
}

func BenchmarkDecodeDDSDXT5_1024(b *testing.B) {
	b.Run("mip0", func(b *testing.B) { benchDecode(b, benchDDSDXT5, &Options{FirstLevelOnly: true}) })
	b.Run("allmips", func(b *testing.B) { benchDecode(b, benchDDSDXT5, nil) })
}

// sampleCoords spreads coordinates over [-0.5, 1.5) deterministically.
func sampleCoords(n int) [][2]float32 {
	out := make([][2]float32, n)
	x := uint32(12345)
	for i := range out {
		x = x*1664525 + 1013904223
		u := float32(x>>8) / (1 << 24)
		x = x*1664525 + 1013904223
		v := float32(x>>8) / (1 << 24)
		out[i] = [2]float32{u*2 - 0.5, v*2 - 0.5}
	}
	return out
}

func benchSample(b *testing.B, lod float32) {
	tex, err := Decode(benchFile(b, benchBLP1Palette), nil)
	if err != nil {
		b.Fatal(err)
	}
	tex = tex.WithWrap(WrapWidth | WrapHeight)
	coords := sampleCoords(4096)
	var sink float32
	b.ResetTimer()
	for b.Loop() {
		for _, c := range coords {
			sink += tex.Sample(c[0], c[1], lod)[3]
		}
	}
	b.ReportMetric(float64(b.N)*float64(len(coords))/b.Elapsed().Seconds(), "samples/s")
	_ = sink
}

func BenchmarkSampleBilinear(b *testing.B)  { benchSample(b, 0) }
func BenchmarkSampleTrilinear(b *testing.B) { benchSample(b, 1.5) }
