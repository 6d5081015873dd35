package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

func TestConvertMDXToMDXIsByteIdentical(t *testing.T) {
	dir := t.TempDir()
	in := writeModel(t, dir, "in.mdx", testModel())
	// Upper-case extension: the output format is chosen case-insensitively.
	out := filepath.Join(dir, "out.MDX")
	if _, stderr, code := run(t, "convert", in, out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(in)
	b, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(a, b) {
		t.Fatalf("output differs from input (err %v)", err)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o644 {
		t.Errorf("output mode %v", fi.Mode())
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{"in.mdx", "out.MDX"}) {
		t.Errorf("directory holds %v", names)
	}
}

func TestConvertRoundTripThroughMDL(t *testing.T) {
	dir := t.TempDir()
	in := writeModel(t, dir, "in.mdx", testModel())
	roundTripMDL(t, in, dir)
}

// roundTripMDL converts in (MDX) to MDL and back with the command and checks
// the model is unchanged, and that the MDL rewritten from the MDL is the
// same text.
func roundTripMDL(t *testing.T, in, dir string) {
	t.Helper()
	mdl := filepath.Join(dir, "mid.MDL") // any case
	mdl2 := filepath.Join(dir, "again.mdl")
	back := filepath.Join(dir, "back.mdx")
	for _, step := range [][2]string{{in, mdl}, {mdl, back}, {mdl, mdl2}} {
		if _, stderr, code := run(t, "convert", step[0], step[1]); code != 0 {
			t.Fatalf("convert %s %s: exit %d: %s", step[0], step[1], code, stderr)
		}
	}
	text, _ := os.ReadFile(mdl)
	if mdx.Detect(text) != mdx.FormatMDL {
		t.Fatalf("%s is not MDL text", mdl)
	}
	if again, _ := os.ReadFile(mdl2); !bytes.Equal(text, again) {
		t.Errorf("%s: MDL → MDL changed the text", in)
	}
	want := decodeFile(t, in)
	got := decodeFile(t, back)
	want.ClearFileDetails()
	got.ClearFileDetails()
	if !reflect.DeepEqual(want, got) {
		t.Errorf("%s: MDX→MDL→MDX changed the model", in)
	}
}

// TestConvertCorpus round-trips a few corpus MDX files of each Warcraft III
// version through MDL with the command.
func TestConvertCorpus(t *testing.T) {
	shared := sharedDir(t)
	for _, rel := range []string{
		"files/warcraft3-icc/ICC.w3x/Aegis.mdx",
		"files/war3mdlx/test/all.mdx",
		"files/dbz-tribute-reforged/maps/Tribute_Reforged.w3x/SwordTrailPurple.mdx",
		"files/HiveWE/data/overrides/Objects/InvalidObject/invalidobject.mdx",
		"files/pqhuy98-Warcraft3/frozen-throne/maps/frozen-throne.w3x/Models/BossMinimapIcon/BossMinimapIcon.mdx",
	} {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			in := filepath.Join(shared, "corpus", filepath.FromSlash(rel))
			if _, err := os.Stat(in); err != nil {
				t.Skip(err)
			}
			roundTripMDL(t, in, t.TempDir())
		})
	}
}

func decodeFile(t *testing.T, path string) *mdx.Model {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mdx.Decode(b, budget.Limits{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func TestConvertDetectsInputByContent(t *testing.T) {
	dir := t.TempDir()
	// MDX bytes under an .mdl name are still read as MDX.
	in := writeModel(t, dir, "misnamed.mdl", testModel())
	out := filepath.Join(dir, "out.mdx")
	if _, stderr, code := run(t, "convert", in, out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	in := writeModel(t, dir, "in.mdx", testModel())
	garbage := filepath.Join(dir, "garbage.mdx")
	if err := os.WriteFile(garbage, []byte("MDLXVERS\xff\xff\xff\xff\x20\x03"), 0o644); err != nil {
		t.Fatal(err)
	}
	prev := filepath.Join(dir, "prev.mdx")
	if err := os.WriteFile(prev, []byte("previous contents"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"unknown extension", []string{in, filepath.Join(dir, "out.obj")}, `unknown output extension ".obj"`},
		{"no extension", []string{in, filepath.Join(dir, "out")}, "no extension"},
		{"bad input names the file", []string{garbage, prev}, garbage + ": mdx: "},
		{"missing input", []string{filepath.Join(dir, "nope.mdx"), prev}, "nope.mdx"},
		{"output is the input", []string{in, in}, "output is the input file"},
		{"output is the input, spelled differently", []string{in, filepath.Join(dir, ".", "in.mdx")}, "output is the input file"},
		{"output folder missing", []string{in, filepath.Join(dir, "no", "such", "out.mdx")}, "out.mdx"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := run(t, append([]string{"convert"}, c.args...)...)
			if code == 0 || !strings.Contains(stderr, c.want) || !strings.HasPrefix(stderr, "mdxrender: ") {
				t.Errorf("exit %d, stderr %q, want it to contain %q", code, stderr, c.want)
			}
		})
	}
	// Nothing was created or replaced by the failures.
	if b, _ := os.ReadFile(prev); string(b) != "previous contents" {
		t.Errorf("a failed convert changed the existing output: %q", b)
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{"garbage.mdx", "in.mdx", "prev.mdx"}) {
		t.Errorf("directory holds %v after failures", names)
	}
}

func TestConvertOverwriteInput(t *testing.T) {
	dir := t.TempDir()
	in := writeModel(t, dir, "in.mdx", testModel())
	before, _ := os.ReadFile(in)
	if _, stderr, code := run(t, "convert", "--overwrite-input", in, in); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	after, _ := os.ReadFile(in)
	if !bytes.Equal(before, after) {
		t.Error("rewriting an MDX in place changed its bytes")
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{"in.mdx"}) {
		t.Errorf("directory holds %v", names)
	}
}

// TestConvertEncodeFailureLeavesNothing fails after the output file was
// opened: a model the MDX encoder refuses (version 700, read from MDL).
func TestConvertEncodeFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "old.mdl")
	if err := os.WriteFile(in, []byte("Version {\n\tFormatVersion 700,\n}\nModel \"Old\" {\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "old.mdx")
	if err := os.WriteFile(out, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, "convert", in, out)
	if code == 0 || !strings.Contains(stderr, in+": cannot be written as MDX") || !strings.Contains(stderr, "version 700") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "previous" {
		t.Errorf("existing output changed to %q", b)
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{"old.mdl", "old.mdx"}) {
		t.Errorf("directory holds %v: temporary file left behind", names)
	}
}

// TestConvertV1200 converts a version 1200 MDL (the Reforged editors'
// current version) to MDX and back.
func TestConvertV1200(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "light.mdl")
	text := "Version {\n\tFormatVersion 1200,\n}\nModel \"L\" {\n}\nLight \"Omni\" {\n\tObjectId 0,\n\tOmnidirectional,\n\tstatic ShadowIntensity 0.3,\n}\nPivotPoints 1 {\n\t{ 0, 0, 0 },\n}\n"
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "light.mdx")
	if _, stderr, code := run(t, "convert", in, out); code != 0 {
		t.Fatalf("to MDX: exit %d: %s", code, stderr)
	}
	back := filepath.Join(dir, "back.mdl")
	if _, stderr, code := run(t, "convert", out, back); code != 0 {
		t.Fatalf("to MDL: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(back)
	if !strings.Contains(string(b), "FormatVersion 1200,") || !strings.Contains(string(b), "static ShadowIntensity 0.3,") {
		t.Errorf("round trip lost the version or the shadow intensity:\n%s", b)
	}
}
