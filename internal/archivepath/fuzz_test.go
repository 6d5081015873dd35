package archivepath

import (
	"strings"
	"testing"
)

// FuzzClean: what Clean accepts is a plain relative slash path (no empty,
// "." or ".." element; names need not be UTF-8, as archives' are often
// not), and cleaning it again changes nothing.
func FuzzClean(f *testing.F) {
	for _, s := range []string{`Textures\Stone.blp`, `\\a\.\b`, `..\x`, "C:/x", "a\x00b", "", "/", "a/./b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, err := Clean(name)
		if err != nil {
			return
		}
		if strings.Contains(got, `\`) {
			t.Fatalf("Clean(%q) = %q keeps a backslash", name, got)
		}
		for _, e := range strings.Split(got, "/") {
			if e == "" || e == "." || e == ".." || strings.ContainsRune(e, 0) {
				t.Fatalf("Clean(%q) = %q: not a plain relative path", name, got)
			}
		}
		if again, err := Clean(got); err != nil || again != got {
			t.Fatalf("Clean(%q) = %q, but Clean of that = %q, %v", name, got, again, err)
		}
	})
}
