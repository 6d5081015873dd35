package mdx

import (
	"math"
	"os"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/internal/testshared"
)

// generatedModel builds a model with about tris triangles spread over
// geosets of at most 32768 triangles (PVTX indices are u16), plus an animated
// skeleton, the way a large unit looks.
func generatedModel(tris int) *Model {
	m := &Model{Version: 800, Name: "Generated",
		Sequences: []Sequence{{Name: "Stand", Interval: [2]uint32{0, 10000}}},
		Textures:  []Texture{{Path: `Textures\gen.blp`}},
		Materials: []Material{{Layers: []Layer{{TextureAnimID: -1, Alpha: 1}}}},
	}
	const side = 128 // vertices per grid row: 127*127*2 = 32258 triangles per grid
	for tris > 0 {
		var g Geoset
		for y := 0; y < side; y++ {
			for x := 0; x < side; x++ {
				fx, fy := float32(x), float32(y)
				g.Vertices = append(g.Vertices, Vec3{fx, fy, float32(math.Sin(float64(fx+fy) / 10))})
				g.Normals = append(g.Normals, Vec3{0, 0, 1})
				g.VertexGroups = append(g.VertexGroups, uint8((x+y)%4))
			}
		}
		uv := make([]Vec2, len(g.Vertices))
		for i, v := range g.Vertices {
			uv[i] = Vec2{v[0] / side, v[1] / side}
		}
		g.UVSets = [][]Vec2{uv}
		n := 0
		for y := 0; y+1 < side && n < tris; y++ {
			for x := 0; x+1 < side && n < tris; x++ {
				a := uint16(y*side + x)
				g.Faces = append(g.Faces, a, a+1, a+side, a+1, a+side+1, a+side)
				n += 2
			}
		}
		tris -= n
		g.FaceTypes = []uint32{4}
		g.FaceGroups = []uint32{uint32(len(g.Faces))}
		g.MatrixGroups = []uint32{1, 1, 1, 1}
		g.MatrixIndices = []uint32{0, 1, 2, 3}
		g.SequenceExtents = []Extent{{}}
		m.Geosets = append(m.Geosets, g)
	}
	for i := 0; i < 40; i++ {
		b := Bone{Node: Node{Name: "bone", ObjectID: int32(i), ParentID: int32(i) - 1}, GeosetAnimID: -1}
		rot := &Track[Quat]{Interpolation: Hermite, GlobalSeqID: -1}
		tr := &Track[Vec3]{Interpolation: Linear, GlobalSeqID: -1}
		for k := 0; k < 200; k++ {
			rot.Keys = append(rot.Keys, Key[Quat]{Frame: int32(k * 50), Value: Quat{0, 0, 0, 1}, InTan: Quat{0, 0, 0, 1}, OutTan: Quat{0, 0, 0, 1}})
			tr.Keys = append(tr.Keys, Key[Vec3]{Frame: int32(k * 50), Value: Vec3{float32(k), 0, 0}})
		}
		b.Rotation, b.Translation = rot, tr
		m.Bones = append(m.Bones, b)
		m.PivotPoints = append(m.PivotPoints, Vec3{})
	}
	return m
}

// benchDecoding decodes every file with decode per iteration and reports
// MB/s and cpuMB/s: bytes per CPU second of the whole process, the figure
// that stays meaningful when other jobs share the cores.
func benchDecoding(b *testing.B, decode func([]byte) (*Model, error), files ...[]byte) {
	total := 0
	for _, f := range files {
		total += len(f)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		for _, f := range files {
			if _, err := decode(f); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPUThroughput(b, int64(total), cputime.Process()-cpu0)
}

// benchGenerated is benchDecoding on the generated 300k-triangle model as
// encode writes it.
func benchGenerated(b *testing.B, encode func(*Model) ([]byte, error), decode func([]byte) (*Model, error)) {
	data, err := encode(generatedModel(300000))
	if err != nil {
		b.Fatal(err)
	}
	benchDecoding(b, decode, data)
}

// reportCPUThroughput adds "cpuMB/s" to a benchmark's figures.
func reportCPUThroughput(b *testing.B, bytesPerOp int64, cpu time.Duration) {
	if cpu > 0 && b.N > 0 {
		b.ReportMetric(float64(bytesPerOp)*float64(b.N)/1e6/cpu.Seconds(), "cpuMB/s")
	}
}

// largestCorpusFile reads the largest well-formed file of files.
func largestCorpusFile(b *testing.B, files []testshared.CorpusFile) []byte {
	b.Helper()
	var best testshared.CorpusFile
	var size int64
	for _, e := range files {
		if fi, err := os.Stat(e.Path); err == nil && fi.Size() > size && !e.Malformed() {
			best, size = e, fi.Size()
		}
	}
	data, err := os.ReadFile(best.Path)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s (%d bytes)", best.Rel, len(data))
	return data
}

// readCorpusFiles reads the files of files that keep takes.
func readCorpusFiles(b *testing.B, files []testshared.CorpusFile, keep func(testshared.CorpusFile) bool) [][]byte {
	b.Helper()
	var out [][]byte
	for _, e := range files {
		if !keep(e) {
			continue
		}
		data, err := os.ReadFile(e.Path)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// BenchmarkDecode measures MDX decoding speed (MB/s) on the largest corpus
// MDX and on a generated 300k-triangle model.
func BenchmarkDecode(b *testing.B) {
	b.Run("generated-300k-triangles", func(b *testing.B) { benchGenerated(b, encodeBytesT, decodeBytes) })
	b.Run("largest-corpus-mdx", func(b *testing.B) {
		benchDecoding(b, decodeBytes, largestCorpusFile(b, corpusMDX(b)))
	})
}

// BenchmarkDecodeCorpus decodes every valid v800-1100 corpus MDX per
// iteration: the same set the reference parser's ~110 MB/s was measured on
// (reference/peer-parse.jsonl).
func BenchmarkDecodeCorpus(b *testing.B) {
	files := readCorpusFiles(b, corpusMDX(b), func(e testshared.CorpusFile) bool { return !e.Malformed() })
	benchDecoding(b, decodeBytes, files...)
}

func BenchmarkEncode(b *testing.B) {
	benchEncoding(b, encodeBytesT, generatedModel(300000))
}

// benchEncoding encodes m with encode per iteration and reports MB/s and
// cpuMB/s of what it writes.
func benchEncoding(b *testing.B, encode func(*Model) ([]byte, error), m *Model) {
	data, err := encode(m)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		if _, err := encode(m); err != nil {
			b.Fatal(err)
		}
	}
	reportCPUThroughput(b, int64(len(data)), cputime.Process()-cpu0)
}

func TestGeneratedModel(t *testing.T) {
	m := generatedModel(300000)
	n := 0
	for _, g := range m.Geosets {
		n += len(g.Faces) / 3
	}
	if n != 300000 {
		t.Fatalf("generated %d triangles", n)
	}
	data, err := encodeBytesT(m)
	if err != nil {
		t.Fatal(err)
	}
	m2 := decodeOK(t, data)
	if d := modelDiff(m, m2, 5); len(d) > 0 {
		t.Fatal(d)
	}
}
