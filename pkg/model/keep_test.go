package model

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestLoadKeepsNoBytes: LoadFile and LoadFS hand their read buffer to the
// next load (fileBufs) once an MDX or MDL file is decoded, which is right
// only if the decoded model keeps none of the file's bytes. Each model is
// decoded from a copy of its file that is then overwritten, and must stay
// equal, bit for bit, to the model decoded from a copy left alone. The
// repository's models run always; the shared corpus's, when it is there.
func TestLoadKeepsNoBytes(t *testing.T) {
	var paths []string
	for _, dir := range []string{"../../testdata/models", "../../testdata/mpq/src/models", "../../cmd/mdxrender/demo"} {
		paths = append(paths, modelFiles(t, dir)...)
	}
	if len(paths) < 5 {
		t.Fatalf("found %d models in the repository's test data", len(paths))
	}
	d := os.Getenv("MDXR_SHARED")
	if d == "" {
		d = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(d, "corpus", "files")); err == nil {
		paths = append(paths, modelFiles(t, filepath.Join(d, "corpus", "files"))...)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := keepsNoBytes(b, p); err != nil {
			t.Error(err)
		}
	}
}

// keepsNoBytes decodes b twice, from two copies, overwrites the second
// copy, and says how the second model (or error) then differs from the
// first, if it does.
func keepsNoBytes(b []byte, name string) error {
	want, werr := DecodeFile(bytes.Clone(b), name)
	c := bytes.Clone(b)
	got, gerr := DecodeFile(c, name)
	for i := range c {
		c[i] ^= 0xa5
	}
	if fmt.Sprint(werr) != fmt.Sprint(gerr) {
		return fmt.Errorf("%s: error %v after the bytes changed, %v before", name, gerr, werr)
	}
	if path := sameBits(reflect.ValueOf(want), reflect.ValueOf(got), ""); path != "" {
		return fmt.Errorf("%s: the decoded model changed with its file's bytes, at %s", name, path)
	}
	return nil
}

// modelFiles lists the MDX and MDL files under dir (M2 files keep their
// bytes and are not pooled).
func modelFiles(t testing.TB, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(p)); !d.IsDir() && (ext == ".mdx" || ext == ".mdl") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameBits compares a and b deeply, floats by their bits (a NaN equals
// itself), and returns the path of the first difference, or "".
func sameBits(a, b reflect.Value, path string) string {
	if a.IsValid() != b.IsValid() {
		return path + " (validity)"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return path + " (type)"
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + " (nil)"
			}
			return ""
		}
		return sameBits(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := sameBits(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return path + " (nil)"
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return path + " (length)"
		}
		for i := range a.Len() {
			if d := sameBits(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Map:
		if a.Len() != b.Len() || a.IsNil() != b.IsNil() {
			return path + " (map size)"
		}
		for _, k := range a.MapKeys() {
			if d := sameBits(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); d != "" {
				return d
			}
		}
	case reflect.Float32, reflect.Float64:
		if math.Float64bits(a.Float()) != math.Float64bits(b.Float()) {
			return path
		}
	case reflect.String:
		if a.String() != b.String() {
			return path
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return path
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return path
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return path
		}
	default:
		return path + " (kind " + a.Kind().String() + ")"
	}
	return ""
}

// FuzzLoadKeepsNoBytes is TestLoadKeepsNoBytes for any bytes: what
// DecodeFile makes of an MDX or MDL file, or the error it gives, must not
// change when the file's bytes change after it returns.
func FuzzLoadKeepsNoBytes(f *testing.F) {
	for _, dir := range []string{"../../testdata/models", "../../cmd/mdxrender/demo"} {
		for _, p := range modelFiles(f, dir) {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if Detect(b) == FormatM2 {
			return // an M2 File keeps its bytes, and is not pooled
		}
		if err := keepsNoBytes(b, "fuzz"); err != nil {
			t.Fatal(err)
		}
	})
}
