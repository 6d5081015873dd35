package m2

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
)

type entry struct {
	path, rel, magic, version, note string
}

// manifest lists the corpus rows whose magic is MD20 or whose name ends in
// .m2 or .skin.
func manifest(t testing.TB) []entry {
	dir := testshared.Corpus(t)
	f, err := os.Open(filepath.Join(dir, "corpus", "manifest.tsv"))
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	var out []entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 7 || c[0] == "local_path" {
			continue
		}
		low := strings.ToLower(c[0])
		if c[5] == "MD20" || strings.HasSuffix(low, ".m2") || strings.HasSuffix(low, ".skin") {
			note := ""
			if len(c) > 8 {
				note = c[8]
			}
			out = append(out, entry{filepath.Join(dir, "corpus", c[0]), c[0], c[5], c[6], note})
		}
	}
	return out
}

func TestCorpus(t *testing.T) {
	var ok, unsupported, notM2 int
	for _, e := range manifest(t) {
		b, err := os.ReadFile(e.path)
		if err != nil {
			t.Errorf("%s: %v", e.rel, err)
			continue
		}
		f, err := Decode(b)
		var ue *UnsupportedVersionError
		switch {
		case e.magic == "MD20" && e.version >= "256" && e.version <= "263":
			if err != nil {
				t.Errorf("%s: %v", e.rel, err)
				continue
			}
			m, err := f.Model(0)
			if err != nil {
				t.Errorf("%s: convert: %v", e.rel, err)
				continue
			}
			checkModel(t, e.rel, f, m)
			checkNote(t, e, f)
			ok++
		case e.magic == "MD20":
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "unsupported M2 version "+e.version) {
				t.Errorf("%s (v%s): want the unsupported-version error, got %v", e.rel, e.version, err)
			}
			unsupported++
		default: // .skin files and other non-MD20 names
			if !errors.Is(err, ErrNotM2) {
				t.Errorf("%s: want ErrNotM2, got %v", e.rel, err)
			}
			notM2++
		}
	}
	t.Logf("%d pre-Wrath M2 decoded and converted, %d newer M2 refused, %d non-MD20 refused", ok, unsupported, notM2)
	if ok == 0 || unsupported == 0 {
		t.Error("corpus lacks the expected M2 files")
	}
}
