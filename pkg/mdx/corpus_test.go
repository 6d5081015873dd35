package mdx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/sweep"
	"github.com/mdxrender/mdxrender/internal/testshared"
)

// sampleCorpus keeps the files of a sampled sweep (internal/sweep):
// every n-th of each format, version and malformedness, and every file
// named — the test's exceptions, each a kind of its own; with
// MDXR_FULL=1, every file. The Sampler says what was covered.
func sampleCorpus(files []testshared.CorpusFile, n int, named func(testshared.CorpusFile) bool) ([]testshared.CorpusFile, *sweep.Sampler) {
	s := sweep.New(n)
	var out []testshared.CorpusFile
	for _, e := range files {
		k := fmt.Sprintf("%s %s malformed %v", e.Magic, e.Version, e.Malformed())
		if named != nil && named(e) {
			k = e.Rel
		}
		if s.Take(k) {
			out = append(out, e)
		}
	}
	return out, s
}

// corpusMDX lists the MDX files of versions 800..1100.
func corpusMDX(t testing.TB) []testshared.CorpusFile {
	var out []testshared.CorpusFile
	for _, e := range testshared.CorpusFiles(t) {
		if e.Magic != "MDLX" {
			continue
		}
		v, _ := strconv.Atoi(e.Version)
		if v >= 800 && v <= 1100 {
			out = append(out, e)
		}
	}
	return out
}

// peerCounts is the "counts" object of reference/peer-parse.jsonl.
type peerCounts struct {
	Version         int        `json:"version"`
	Geosets         int        `json:"geosets"`
	Vertices        int        `json:"vertices"`
	Faces           int        `json:"faces"`
	Bones           int        `json:"bones"`
	Helpers         int        `json:"helpers"`
	Attachments     int        `json:"attachments"`
	Sequences       int        `json:"sequences"`
	GlobalSequences int        `json:"global_sequences"`
	Materials       int        `json:"materials"`
	Layers          int        `json:"layers"`
	Textures        int        `json:"textures"`
	TextureAnims    int        `json:"texture_animations"`
	GeosetAnims     int        `json:"geoset_animations"`
	Lights          int        `json:"lights"`
	Emitters        int        `json:"particle_emitters"`
	Emitters2       int        `json:"particle_emitters2"`
	Ribbons         int        `json:"ribbon_emitters"`
	EventObjects    int        `json:"event_objects"`
	Cameras         int        `json:"cameras"`
	CollisionShapes int        `json:"collision_shapes"`
	PivotPoints     int        `json:"pivot_points"`
	Extent          peerExtent `json:"extent"`
}

// peerExtent is the model extent (MODL) as the reference parser reports it.
type peerExtent struct {
	Min          [3]float64 `json:"min"`
	Max          [3]float64 `json:"max"`
	BoundsRadius float64    `json:"bounds_radius"`
}

type peerResult struct {
	File   string      `json:"file"`
	Error  string      `json:"error"`
	Counts *peerCounts `json:"counts"`
}

// peerParse maps a corpus local_path (files/...) to the reference parser's
// result for it.
func peerParse(t testing.TB) map[string]peerResult {
	t.Helper()
	dir := testshared.Corpus(t)
	b, err := os.ReadFile(filepath.Join(dir, "reference", "peer-parse.jsonl"))
	if err != nil {
		t.Skip(err)
	}
	out := map[string]peerResult{}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var p peerResult
		if err := json.Unmarshal(line, &p); err != nil {
			t.Fatalf("peer-parse.jsonl: %v", err)
		}
		out[strings.TrimPrefix(p.File, "../corpus/")] = p
	}
	return out
}
