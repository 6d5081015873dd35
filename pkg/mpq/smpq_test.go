package mpq

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// TestMatchesStormLib extracts every shared archive with smpq (StormLib's
// command-line tool, Debian package smpq) and compares each file byte for
// byte with this reader's output. It runs only where smpq is installed.
func TestMatchesStormLib(t *testing.T) {
	smpq, err := exec.LookPath("smpq")
	if err != nil {
		t.Skip("smpq (StormLib) is not installed")
	}
	if testing.Short() {
		t.Skip("extracting the corpus with smpq takes seconds; skipped in -short mode")
	}
	cantRead := regexp.MustCompile("Cannot read file `([^']*)'")
	pseudo := regexp.MustCompile(`^File(\d{8})\.[A-Za-z0-9]+$`)
	// The fixtures (which smpq made) and, where ../shared is present, the
	// corpus of real archives.
	var archives []corpusArchive
	fixtures, _ := filepath.Glob(filepath.Join(fixtureDir, "*.[mw][p3][qx]"))
	for _, f := range fixtures {
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		archives = append(archives, corpusArchive{path: abs, rel: "fixture/" + filepath.Base(f)})
	}
	if _, err := os.Stat(filepath.Join(testshared.Root(), "corpus", "archives", "manifest.tsv")); err == nil {
		archives = append(archives, corpusArchives(t)...)
	}
	total, same := 0, 0
	for _, ca := range archives {
		t.Run(ca.rel, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(smpq, "-x", ca.path)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			_ = cmd.Run() // it exits non-zero when a file fails; those are listed on stderr
			failed := map[string]bool{}
			for _, m := range cantRead.FindAllStringSubmatch(stderr.String(), -1) {
				failed[m[1]] = true
			}
			a, err := Open(ca.path, budget.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			renumber := stormIndexes(a)
			// smpq writes every file it lists, a failed one as 0 bytes.
			var names []string
			err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(dir, p)
					names = append(names, filepath.ToSlash(rel))
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range names {
				total++
				f, ok := a.Lookup(name)
				if m := pseudo.FindStringSubmatch(name); !ok && m != nil {
					i, _ := strconv.Atoi(m[1])
					f, ok = renumber[i]
				}
				if !ok {
					t.Errorf("%s: smpq lists it, this reader does not find it", name)
					continue
				}
				ours, ourErr := f.ReadAll()
				if failed[name] {
					if ourErr == nil {
						t.Errorf("%s: StormLib fails to read it, this reader returns %d bytes", name, len(ours))
					} else {
						same++
					}
					continue
				}
				theirs, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				var ue *UnsupportedError
				if errors.As(ourErr, &ue) {
					t.Logf("%s: not compared: %v", name, ourErr)
					continue
				}
				if ourErr != nil {
					t.Errorf("%s: StormLib reads %d bytes, this reader fails: %v", name, len(theirs), ourErr)
					continue
				}
				if !bytes.Equal(ours, theirs) {
					t.Errorf("%s: %d bytes differ from StormLib's %d", name, len(ours), len(theirs))
					continue
				}
				same++
			}
		})
	}
	t.Logf("%d files listed by smpq, %d identical (or refused by both)", total, same)
}

// stormIndexes maps StormLib's pseudo-name numbers (File%08u) to entries.
// They are block indexes, except that when a table was clipped StormLib
// renumbers the blocks in the order the hash table first points at them.
func stormIndexes(a *Archive) map[int]*File {
	h := a.Header()
	files := a.Files()
	out := map[int]*File{}
	if h.HashEntriesRead == h.HashTableEntries && h.BlockEntriesRead == h.BlockTableEntries {
		for _, f := range files {
			out[f.BlockIndex] = f
		}
		return out
	}
	sort.Slice(files, func(i, j int) bool { return files[i].HashIndex < files[j].HashIndex })
	seen := map[int]bool{}
	for _, f := range files {
		if !seen[f.BlockIndex] {
			seen[f.BlockIndex] = true
			out[len(seen)-1] = f
		}
	}
	return out
}
