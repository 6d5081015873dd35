package m2

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
)

// manifest lists the corpus rows whose magic is MD20 or whose name ends in
// .m2 or .skin.
func manifest(t testing.TB) []testshared.CorpusFile {
	var out []testshared.CorpusFile
	for _, e := range testshared.CorpusFiles(t) {
		low := strings.ToLower(e.Rel)
		if e.Magic == "MD20" || strings.HasSuffix(low, ".m2") || strings.HasSuffix(low, ".skin") {
			out = append(out, e)
		}
	}
	return out
}

func TestCorpus(t *testing.T) {
	var ok, unsupported, notM2 int
	for _, e := range manifest(t) {
		b, err := os.ReadFile(e.Path)
		if err != nil {
			t.Errorf("%s: %v", e.Rel, err)
			continue
		}
		f, err := Decode(b)
		var ue *UnsupportedVersionError
		switch {
		case e.Magic == "MD20" && e.Version >= "256" && e.Version <= "263":
			if err != nil {
				t.Errorf("%s: %v", e.Rel, err)
				continue
			}
			m, err := f.Model(0)
			if err != nil {
				t.Errorf("%s: convert: %v", e.Rel, err)
				continue
			}
			checkModel(t, e.Rel, f, m)
			checkNote(t, e, f)
			ok++
		case e.Magic == "MD20":
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "unsupported M2 version "+e.Version) {
				t.Errorf("%s (v%s): want the unsupported-version error, got %v", e.Rel, e.Version, err)
			}
			unsupported++
		default: // .skin files and other non-MD20 names
			if !errors.Is(err, ErrNotM2) {
				t.Errorf("%s: want ErrNotM2, got %v", e.Rel, err)
			}
			notM2++
		}
	}
	t.Logf("%d pre-Wrath M2 decoded and converted, %d newer M2 refused, %d non-MD20 refused", ok, unsupported, notM2)
	if ok == 0 || unsupported == 0 {
		t.Error("corpus lacks the expected M2 files")
	}
}
