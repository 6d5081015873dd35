package texture

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/sweep"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// corpusBudgets are the budgets the corpus is decoded with: three quarters
// of the default pixel budget and a quarter of the default scan limit, so
// that a default close enough to real files to refuse one fails here
// first.
var corpusBudgets = Options{MaxPixels: budget.TexturePixels.Default() / 4 * 3, MaxJPEGScans: int(budget.JPEGScans.Default()) / 4}

// TestCorpusDecodes decodes the BLP, DDS, TGA and PNG files in the shared
// corpus with all of their mip levels, within corpusBudgets: by default
// every 4th of each kind (format, and a BLP's content and alpha bits) and
// every file with a damaged level, MDXR_FULL=1 every file.
func TestCorpusDecodes(t *testing.T) {
	shared := testshared.Corpus(t)
	rows := testshared.ReadTSV(t, filepath.Join(shared, "corpus", "manifest.tsv"))
	counts := map[string]int{}
	sample := sweep.New(4)
	for _, r := range rows {
		magic := r["magic"]
		switch magic {
		case "BLP1", "BLP2", "DDS", "TGA", "PNG":
		default:
			continue
		}
		kind := magic
		if f := strings.Fields(r["version"]); magic == "BLP1" && len(f) >= 3 {
			kind = strings.Join(f[:3], " ") // BLP1 JPEG alpha8
		}
		if _, ok := damagedLevels[r["local_path"]]; ok {
			kind = r["local_path"]
		}
		if !sample.Take(kind) {
			continue
		}
		path := filepath.Join(shared, "corpus", r["local_path"])
		t.Run(r["local_path"], func(t *testing.T) {
			tex, err := DecodeFile(path, &corpusBudgets)
			if err != nil {
				t.Fatalf("%s (%s): %v", r["version"], magic, err)
			}
			cfg, err := DecodeFileConfig(path)
			if err != nil {
				t.Fatal(err)
			}
			levels := cfg.Levels
			if tex.LevelErr != nil {
				want, known := damagedLevels[r["local_path"]]
				if !known || want != len(tex.Levels) {
					t.Errorf("unexpected damaged level: %v", tex.LevelErr)
				}
				levels = len(tex.Levels)
				t.Logf("kept %d of %d levels: %v", len(tex.Levels), cfg.Levels, tex.LevelErr)
			}
			if cfg.Width != tex.Width() || cfg.Height != tex.Height() || levels != len(tex.Levels) {
				t.Errorf("config %+v disagrees with decoded %dx%d, %d levels", cfg, tex.Width(), tex.Height(), len(tex.Levels))
			}
			// The manifest's description carries the size; check it.
			if m := sizeIn(r["version"]); m != "" && m != fmt.Sprintf("%dx%d", tex.Width(), tex.Height()) {
				t.Errorf("manifest says %s, decoded %dx%d", m, tex.Width(), tex.Height())
			}
			for i, l := range tex.Levels {
				w, h := mipSize(tex.Width(), tex.Height(), i)
				if l.Rect.Dx() != w || l.Rect.Dy() != h {
					t.Errorf("level %d is %v, want %dx%d", i, l.Rect, w, h)
				}
			}
		})
		counts[magic]++
	}
	t.Logf("decoded %s: %v", sample, counts)
	if counts["BLP1"] == 0 || counts["DDS"] == 0 || counts["TGA"] == 0 {
		t.Errorf("manifest lists too few textures: %v", counts)
	}
}

func sizeIn(desc string) string {
	for _, f := range strings.Fields(desc) {
		if i := strings.IndexByte(f, 'x'); i > 0 && f[0] >= '0' && f[0] <= '9' {
			return f
		}
	}
	return ""
}

// damagedLevels lists corpus files with a damaged mip level, and how many
// good levels come before it.
var damagedLevels = map[string]int{
	// Mip 4 is a JPEG stream cut off 1057 bytes in (no EOI marker).
	"files/Warcraft-Maul-Reimagined/maps/map.w3x/ReplaceableTextures/Splats/SuggestedPlacementSplat.blp": 4,
}

// referenceExceptions names BLPs whose reference PNG is not expected to
// match within 2 levels. They are the only progressive (SOF2) JPEG BLPs in
// the set. Decoding their streams with libjpeg-turbo 2.1.5 (raw CMYK
// output, checked by hand) agrees with Go's decoder within 1 level at every
// sample, while the reference viewer's pdf.js-derived decoder differs from
// both by up to 81 levels (mean 1.9), so the reference is the outlier. For
// them only the mean absolute difference is bounded, loosely, to catch a
// broken decode.
var referenceExceptions = map[string]string{
	"../corpus/files/War3ModelView/testmodel/diyuma04.blp":                       "progressive JPEG",
	"../corpus/files/dbz-tribute-reforged/maps/Tribute_Reforged.w3x/DBWolf1.blp": "progressive JPEG",
	"../corpus/files/wc3-map-edemium-legacy/map/Statue01_D.blp":                  "progressive JPEG",
}

// TestBLPReference compares mip 0 of the BLPs in the reference index with
// the reference viewer's decode, channel by channel: by default every 4th
// of each content and alpha bits and every exception, MDXR_FULL=1 every
// one. JPEG decoders differ
// by a level or two, so 2 levels are allowed. For JPEG files with
// alphaBits 0 the reference keeps the fourth plane as alpha while we
// decode them as opaque (docs/formats.md#blp1-jpeg), so alpha is compared only
// when the file declares alpha.
func TestBLPReference(t *testing.T) {
	shared := testshared.Corpus(t)
	dir := filepath.Join(shared, "reference", "blp")
	rows := testshared.ReadTSV(t, filepath.Join(dir, "index.tsv"))
	worstAll := 0
	sample := sweep.New(4)
	for _, r := range rows {
		name := r["blp"]
		kind := r["content"] + " alpha" + r["alpha_bits"]
		if _, ok := referenceExceptions[name]; ok {
			kind = name
		}
		if !sample.Take(kind) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			why, exception := referenceExceptions[name]
			tex, err := DecodeFile(filepath.Join(shared, "reference", name), &Options{FirstLevelOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			ref := readPNG(t, filepath.Join(dir, r["reference_png"]))
			got := tex.Levels[0]
			if got.Rect.Size() != ref.Rect.Size() {
				t.Fatalf("size %v, reference %v", got.Rect.Size(), ref.Rect.Size())
			}
			checkAlpha := r["alpha_bits"] != "0"
			worst, bad, first, sum, n := 0, 0, "", 0, 0
			for i := range got.Pix {
				if i%4 == 3 && !checkAlpha {
					continue
				}
				d := int(got.Pix[i]) - int(ref.Pix[i])
				d = max(d, -d)
				worst = max(worst, d)
				sum += d
				n++
				if d > 2 {
					if bad == 0 {
						p := i / 4
						first = fmt.Sprintf("pixel (%d,%d) channel %d: got %d, reference %d",
							p%got.Rect.Dx(), p/got.Rect.Dx(), i%4, got.Pix[i], ref.Pix[i])
					}
					bad++
				}
			}
			if exception {
				mean := float64(sum) / float64(n)
				t.Logf("exception (%s): worst %d, mean %.3f, %d values off by more than 2", why, worst, mean, bad)
				if mean > 3 {
					t.Errorf("mean absolute difference %.3f is too large even for a %s", mean, why)
				}
				return
			}
			worstAll = max(worstAll, worst)
			if bad > 0 {
				t.Errorf("%d channel values differ by more than 2 (worst %d); first: %s", bad, worst, first)
			}
		})
	}
	t.Logf("reference BLPs %s, largest difference outside the exceptions %d", sample, worstAll)
}

func readPNG(t testing.TB, path string) *image.NRGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	im, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return toNRGBA(im)
}
