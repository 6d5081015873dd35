package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mpq"
)

// writeArchive writes an archive's bytes as dir/name and returns its path.
func writeArchive(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// symlinkOrSkip makes a symbolic link or skips the test where there are
// none.
func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// filesBelow lists the files (and links) below dir, slash paths, sorted.
func filesBelow(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// An output folder may hold links planted before the extraction: a folder
// link inside it is not written through, wherever it leads, and is named;
// a link in the place of a file is replaced by the file.
func TestArchiveExtractRefusesLinks(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	elsewhere := filepath.Join(parent, "elsewhere")
	for _, d := range []string{filepath.Join(out, "sub"), elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(parent, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlinkOrSkip(t, filepath.Join("..", "elsewhere"), filepath.Join(out, "link"))
	symlinkOrSkip(t, "sub", filepath.Join(out, "inner"))
	symlinkOrSkip(t, filepath.Join("..", "..", "victim.txt"), filepath.Join(out, "ok", "fine.txt"))
	names := []string{`link\pwned.txt`, `link\deep\pwned.txt`, `inner\also.txt`, `ok\fine.txt`}
	files := map[string][]byte{}
	for _, n := range names {
		files[n] = []byte("from the archive")
	}
	arch := writeArchive(t, parent, "x.mpq", hostile.MPQFiles(files, names))
	stdout, stderr, code := run(t, "archive", "extract", arch, "-o", out)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, link := range []string{"link", "inner"} {
		want := filepath.Join(out, link) + ": a symbolic link inside the output folder; not followed"
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, ".mdxr-tmp-") {
		t.Errorf("stderr names a temporary file:\n%s", stderr)
	}
	if got := filesBelow(t, elsewhere); len(got) != 0 {
		t.Errorf("written through the link, outside the output folder: %v", got)
	}
	if got := filesBelow(t, filepath.Join(out, "sub")); len(got) != 0 {
		t.Errorf("written through the inner link: %v", got)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the file link's target was overwritten: %q", b)
	}
	fi, err := os.Lstat(filepath.Join(out, "ok", "fine.txt"))
	if err != nil || !fi.Mode().IsRegular() {
		t.Errorf("ok/fine.txt is not the extracted file: %v, %v", fi, err)
	}
	if !strings.Contains(stdout, "extracted 2 files") { // ok\fine.txt and (listfile)
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
}

// A zlib bomb is refused before it is read when its declared size does not
// fit in the extraction's budget, under every name it has; a file is
// written while what is left holds it.
func TestArchiveExtractBudget(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for i := range 64 {
		names = append(names, fmt.Sprintf("bomb%02d.bin", i))
	}
	// The default budget against 2 GiB declared (the most this reader
	// takes) in 16 MiB sectors: the block is room for the sector table and
	// nothing else, so an attempt to read it would fail with a format
	// error, not the budget's.
	lying := hostile.MPQBlock{Raw: make([]byte, 1024), Size: 1<<31 - 1, Flags: mpq.FlagExists | mpq.FlagCompress}
	arch := writeArchive(t, dir, "lying.mpq", hostile.MPQBomb(15, lying, names))
	out := filepath.Join(dir, "out")
	_, stderr, code := run(t, "archive", "extract", arch, "-o", out)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	const want = "over the extract_bytes limit of 1Gi (a limit for untrusted files; raise it with --limit extract_bytes=N)"
	// The first 20 are told one by one, then how many more.
	if n := strings.Count(stderr, want); n != 20 || !strings.Contains(stderr, arch+": 44 more files were not extracted") {
		t.Errorf("%d refusals told, want 20 and 44 more:\n%.4000s", n, stderr)
	}
	if !regexp.MustCompile(regexp.QuoteMeta(arch+":bomb") + `\d\d\.bin: extracting it: needs 2147483647 bytes, over`).MatchString(stderr) {
		t.Errorf("the refusal does not name archive:entry:\n%s", stderr)
	}
	if got := filesBelow(t, out); !slices.Equal(got, []string{"(listfile)"}) {
		t.Errorf("wrote %v", got)
	}

	// A real bomb of 1 MiB zero sectors under 64 names, with room for two
	// and a half: two are written, the rest refused; the (listfile) still
	// fits.
	real := hostile.MPQZeros(11, 1<<20)
	arch = writeArchive(t, dir, "real.mpq", hostile.MPQBomb(11, real, names))
	out = filepath.Join(dir, "out2")
	_, stderr, code = run(t, "archive", "extract", arch, "-o", out, "--limit", "extract_bytes=2560Ki")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if n := strings.Count(stderr, "over the extract_bytes limit of 2560Ki"); n != 20 || !strings.Contains(stderr, ": 42 more files were not extracted") {
		t.Errorf("%d refusals told, want 20 and 42 more:\n%.4000s", n, stderr)
	}
	got := filesBelow(t, out)
	if len(got) != 3 || got[0] != "(listfile)" || !strings.HasPrefix(got[1], "bomb") || !strings.HasPrefix(got[2], "bomb") {
		t.Errorf("wrote %v, want the (listfile) and two of the bomb's names", got)
	}
	var total int64
	for _, n := range got {
		fi, _ := os.Stat(filepath.Join(out, n))
		total += fi.Size()
	}
	if total > 2560<<10 {
		t.Errorf("wrote %d bytes, past the budget", total)
	}

	for _, bad := range []string{"nope=5", "extract_bytes=lots", "extract_bytes"} {
		if _, stderr, code := run(t, "archive", "extract", arch, "-o", out, "--limit", bad); code != 2 || !strings.Contains(stderr, "--limit") {
			t.Errorf("--limit %s: exit %d, %s", bad, code, stderr)
		}
	}
	if budget.ExtractBytes.Default() != 1<<30 {
		t.Errorf("the help says the default is 1Gi; it is %d", budget.ExtractBytes.Default())
	}
}

// A file that grows past what is left of the budget while it is written
// is stopped, and nothing of it stays: the declared size is the archive's
// word, the bytes are what count.
func TestExtractorCountsWhileWriting(t *testing.T) {
	d, err := atomicfile.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	x := extractor{archive: "x.mpq", files: d.Group(), max: 100, used: 40}
	err = x.put(context.Background(), "liar.bin", "liar.bin", bytes.NewReader(make([]byte, 61)))
	var be *budget.Error
	if !errors.As(err, &be) || be.File != "x.mpq:liar.bin" || be.Limit != budget.ExtractBytes || be.Value != 101 {
		t.Fatalf("err = %v, want the extract_bytes limit for x.mpq:liar.bin at 101 bytes", err)
	}
	if x.used != 40 {
		t.Errorf("used %d after a refusal, want 40", x.used)
	}
	if es, _ := d.ReadDir("."); len(es) != 0 {
		t.Errorf("left %v", es)
	}
	if err := x.put(context.Background(), "fits.bin", "fits.bin", bytes.NewReader(make([]byte, 60))); err != nil {
		t.Fatal(err)
	}
	if x.used != 100 {
		t.Errorf("used %d, want 100", x.used)
	}
}

// Names holding control characters reach the terminal escaped, and a long
// name is clipped, in the listing and in errors; JSON keeps names whole
// unless they are huge.
func TestArchiveNamesAreEscaped(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("a", 100000) + ".txt"
	names := []string{"bell\x07\x1b[2J.txt", "nul\x00name.txt", "del\x7f.txt", "c1\u0085.txt", long}
	files := map[string][]byte{}
	for _, n := range names {
		files[n] = []byte("x")
	}
	arch := writeArchive(t, dir, "x.mpq", hostile.MPQFiles(files, names))
	rawControl := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 })
	}
	longest := func(s string) int {
		n := 0
		for l := range strings.SplitSeq(s, "\n") {
			n = max(n, len(l))
		}
		return n
	}
	stdout, stderr, code := run(t, "archive", "ls", arch)
	if code != 0 {
		t.Fatalf("ls: exit %d: %s", code, stderr)
	}
	if rawControl(stdout) || rawControl(stderr) {
		t.Errorf("ls printed raw control characters:\n%q", stdout)
	}
	if !strings.Contains(stdout, `nul\x00name.txt`) || longest(stdout) > 400 {
		t.Errorf("ls output (longest line %d bytes):\n%.1000q", longest(stdout), stdout)
	}
	stdout, _, _ = run(t, "archive", "ls", "--json", arch)
	var rep archiveReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	// The reader names no entry by a name longer than 260 bytes (the
	// 100 KB one lists as FileNNNNNNNN); no JSON name is huge.
	var sawNul bool
	for _, f := range rep.Files {
		if f.Name == "nul\x00name.txt" {
			sawNul = !f.NameClipped
		}
		if len(f.Name) > 4200 {
			t.Errorf("a JSON name of %d bytes", len(f.Name))
		}
	}
	if !sawNul {
		t.Errorf("JSON names: NUL name not whole")
	}
	_, stderr, code = run(t, "archive", "extract", arch, "-o", filepath.Join(dir, "out"))
	if code != 1 {
		t.Errorf("extract: exit %d", code)
	}
	if rawControl(stderr) || longest(stderr) > 1200 {
		t.Errorf("extract's errors (longest line %d bytes):\n%.1000q", longest(stderr), stderr)
	}
	if _, stderr, _ := run(t, "archive", "extract", arch, "esc\x1b[2J", "-o", filepath.Join(dir, "out")); rawControl(stderr) || !strings.Contains(stderr, `esc\x1b[2J: not in the archive`) {
		t.Errorf("a missing name: %q", stderr)
	}
}

// A batch whose manifest cannot be written says so and fails, after
// telling the models' outcomes; the models a map holds under names that
// would climb out of the output folder are listed as skipped.
func TestBatchWriteFailuresAreReported(t *testing.T) {
	dir := t.TempDir()
	models := filepath.Join(dir, "models")
	if err := os.MkdirAll(models, 0o755); err != nil {
		t.Fatal(err)
	}
	mdxBytes, err := os.ReadFile(filepath.Join("..", "..", "testdata", "models", "two_sided.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	writeArchive(t, models, "a.mdl", mdxBytes)
	names := []string{`..\up.mdl`, `units\\b.mdl`}
	writeArchive(t, dir, "map.w3x", hostile.MPQFiles(map[string][]byte{names[0]: mdxBytes, names[1]: mdxBytes}, names))
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(filepath.Join(out, "manifest.json", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, "batch", models, filepath.Join(dir, "map.w3x"), "-o", out, "--size", "16")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stdout, "2 models: 2 rendered") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	for _, want := range []string{
		"mdxrender: batch: manifest.json was not written: cannot write " + filepath.Join(out, "manifest.json") + ": a folder is in the way",
		`map.w3x:..\up.mdl: skipped-input: a ".." element would climb out of the output folder; skipped`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "units", "b-default.png")); err != nil {
		t.Errorf("units\\\\b.mdl was not rendered under its plain name: %v", err)
	}
}
