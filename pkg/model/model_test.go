package model

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/fsread"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/m2"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Format
	}{
		{"MD20\x00\x01\x00\x00", FormatM2},
		{"MDLXVERS", FormatMDX},
		{"Version {\n\tFormatVersion 800,\n}\n", FormatMDL},
		{"PNG", ""},
	} {
		if got := Detect([]byte(c.in)); got != c.want {
			t.Errorf("Detect(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDecodeErrorsNameTheFile checks that every kind of failure names the
// input, and that a Wrath M2 gives the unsupported-version error.
func TestDecodeErrorsNameTheFile(t *testing.T) {
	wrath := make([]byte, 0x200)
	copy(wrath, "MD20")
	binary.LittleEndian.PutUint32(wrath[4:], 264)
	short := []byte("MD20\x00\x01\x00\x00")
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"wrath.m2", wrath, "unsupported M2 version 264"},
		{"short.m2", short, "m2: header"},
		{"junk.bin", []byte("hello"), "unknown model format"},
		{"empty.mdx", nil, "unknown model format"},
		{"bad.mdx", []byte("MDLXVERS\x04\x00\x00\x00"), "mdx"},
	} {
		_, err := Load(c.in, c.name, budget.Limits{})
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.name+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q should start with the name and mention %q", c.name, err, c.want)
		}
	}
	_, err := Load(wrath, "w.m2", budget.Limits{})
	var uv *m2.UnsupportedVersionError
	if !errors.As(err, &uv) || uv.Version != 264 || !IsUnsupportedVersion(err) {
		t.Errorf("Wrath M2: %v does not wrap *m2.UnsupportedVersionError{264}", err)
	}
}

func TestLoadMDXAndMDL(t *testing.T) {
	m := &mdx.Model{Version: 800, Name: "x"}
	var mb, lb bytes.Buffer
	if err := mdx.Encode(&mb, m); err != nil {
		t.Fatal(err)
	}
	if err := mdx.EncodeMDL(&lb, m); err != nil {
		t.Fatal(err)
	}
	b, mdl := mb.Bytes(), lb.Bytes()
	dir := t.TempDir()
	for _, c := range []struct {
		file string
		data []byte
		want Format
	}{{"a.bin", b, FormatMDX}, {"b.m2", mdl, FormatMDL}} { // names are not used
		p := filepath.Join(dir, c.file)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := loadPath(p)
		if err != nil {
			t.Fatal(err)
		}
		if f.Format != c.want || f.Model.Name != "x" || f.M2 != nil || f.Size != int64(len(c.data)) {
			t.Errorf("%s: format %q name %q size %d, want %q x %d", c.file, f.Format, f.Model.Name, f.Size, c.want, len(c.data))
		}
	}
}

// TestCorpus loads the real WoW files: Boar.mdx (v1300), the vanilla
// interface M2s (v256) and the newer M2s, which must give the
// unsupported-version error.
func TestCorpus(t *testing.T) {
	files := filepath.Join(testshared.Dir(t, "corpus"), "corpus", "files")
	f, err := loadPath(filepath.Join(files, "MDX-Parser", "MDXParser", "Files", "Boar.mdx"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatMDX || f.Model.Version != 1300 || len(f.Model.Geosets) != 2 {
		t.Errorf("Boar.mdx: format %q version %d geosets %d", f.Format, f.Model.Version, len(f.Model.Geosets))
	}
	n := 0
	err = filepath.WalkDir(filepath.Join(files, "vanilla-wow-interface-textures"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".m2") {
			return err
		}
		n++
		f, err := loadPath(p)
		if err != nil {
			t.Error(err)
			return nil
		}
		if f.Format != FormatM2 || f.M2 == nil || f.M2.Header.Version != 256 || f.View != 0 || f.Model.Version != 1500 {
			t.Errorf("%s: format %q view %d model version %d", p, f.Format, f.View, f.Model.Version)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 21 {
		t.Errorf("found %d vanilla M2s, want 21", n)
	}
	for _, p := range []string{
		"jsWoWModelViewer/assets/scourgefemale.m2",
		"jsWoWModelViewer/assets/Creature/Arthaslichking/arthaslichking_unarmed.m2",
		"wowserhq-format/fixture/model/tank.m2",
		"blizzardry/spec/fixtures/Rabbit.m2",
	} {
		p = filepath.Join(files, filepath.FromSlash(p))
		_, err := loadPath(p)
		if !IsUnsupportedVersion(err) || !strings.HasPrefix(err.Error(), p+": ") || !strings.Contains(err.Error(), "unsupported M2 version") {
			t.Errorf("%s: %v, want the unsupported-version error naming the file", p, err)
		}
	}
}

// loadPath reads the model file at path and loads it, as the front door
// does, within the default limits.
func loadPath(path string) (*File, error) {
	b, err := fsread.Path(path, nil, nil)
	if err != nil {
		return nil, err
	}
	return Load(b, path, budget.Limits{})
}
