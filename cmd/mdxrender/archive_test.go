package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const mpqFixtures = "../../testdata/mpq"

func fixtureSource(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(mpqFixtures, "src", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestArchiveLs(t *testing.T) {
	out, _, code := run(t, "archive", "ls", filepath.Join(mpqFixtures, "no-listfile.mpq"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"war3map.j", "File00000001.xxx", "File00000002.mdx", "encrypted", "zlib", "4 files"} {
		if !strings.Contains(out, want) {
			t.Errorf("listing lacks %q:\n%s", want, out)
		}
	}
	out, _, code = run(t, "archive", "ls", "--json", filepath.Join(mpqFixtures, "locales.mpq"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var rep archiveReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Header.Format != 1 || len(rep.Files) != 5 {
		t.Fatalf("report %+v", rep)
	}
	f := rep.Files[1]
	if f.Name != "hello.txt" || !f.Named || f.Locale != 0x409 || f.Size != 15108 || len(f.Compression) == 0 {
		t.Errorf("second entry %+v", f)
	}
	_, stderr, code := run(t, "archive", "ls", filepath.Join(mpqFixtures, "src", "text.txt"))
	if code != 1 || !strings.Contains(stderr, "no MPQ header") {
		t.Errorf("not an archive: exit %d, %s", code, stderr)
	}
}

func TestArchiveExtractAll(t *testing.T) {
	dir := t.TempDir()
	out, stderr, code := run(t, "archive", "extract", filepath.Join(mpqFixtures, "encrypted.mpq"), "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "extracted 10 files") {
		t.Errorf("output %q", out)
	}
	text := fixtureSource(t, "text.txt")
	for name, want := range map[string]string{
		"plain.txt": text, "fixkey.txt": text, "stored.txt": text, "imploded.txt": text, "single.txt": text,
		"dir/sub/deep.mdx": fixtureSource(t, "models/unit.mdx"), "hello.txt": fixtureSource(t, "hello.txt"),
	} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s: %d bytes, %v", name, len(got), err)
		}
	}
	for _, n := range listDir(t, dir) {
		if strings.HasPrefix(n, ".mdxrender-") {
			t.Errorf("temporary file %s left behind", n)
		}
	}
}

func TestArchiveExtractNamed(t *testing.T) {
	dir := t.TempDir()
	// Names need not be listed, and case and separator do not matter.
	_, stderr, code := run(t, "archive", "extract", filepath.Join(mpqFixtures, "no-listfile.mpq"), "HIDDEN.TXT", "models/unit.mdx", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "HIDDEN.TXT")); string(got) != fixtureSource(t, "text.txt") {
		t.Errorf("HIDDEN.TXT: %d bytes", len(got))
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "models", "unit.mdx")); string(got) != fixtureSource(t, "models/unit.mdx") {
		t.Errorf("models/unit.mdx: %d bytes", len(got))
	}
	if n := listDir(t, dir); len(n) != 2 {
		t.Errorf("wrote %v", n)
	}
	_, stderr, code = run(t, "archive", "extract", filepath.Join(mpqFixtures, "no-listfile.mpq"), "missing.txt", "-o", dir)
	if code != 1 || !strings.Contains(stderr, "missing.txt: not in the archive") {
		t.Errorf("missing name: exit %d, %s", code, stderr)
	}
	if _, stderr, code := run(t, "archive", "extract", filepath.Join(mpqFixtures, "v1.mpq")); code != exitUsage || !strings.Contains(stderr, "-o DIR is required") {
		t.Errorf("extract without -o: exit %d, %s", code, stderr)
	}
}

func TestArchiveExtractKeepsGoing(t *testing.T) {
	// single.txt does not read (SINGLE_UNIT inside a map); the rest is
	// written, the failure named, the exit status 1.
	dir := t.TempDir()
	_, stderr, code := run(t, "archive", "extract", filepath.Join(mpqFixtures, "map-single-unit.w3x"), "-o", dir)
	if code != 1 || !strings.Contains(stderr, "single.txt") || strings.Count(stderr, "map-single-unit.w3x") != 1 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "single.txt")); !os.IsNotExist(err) {
		t.Error("a failed file was written")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "single-stored.txt")); string(got) != fixtureSource(t, "hello.txt") {
		t.Errorf("single-stored.txt: %q", got)
	}
}
