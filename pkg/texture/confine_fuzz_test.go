package texture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzFolderResolve checks a Folder against the operating system's own
// resolution on trees of links the fuzzer makes up: whatever it opens is
// the file the system resolves the name to, and lies below the folder;
// whatever the system resolves to outside the folder, it refuses. (It may
// refuse more: an absolute link, or one that leaves the folder and comes
// back, is refused, never followed.)
func FuzzFolderResolve(f *testing.F) {
	for _, s := range []string{"\x00\x01\x02", "\x05\x06\x03\x07", "\x08\x00\x09\x01\x02\x04", "\x0a\x0b\x00\x0c\x03\x02\x01"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 24 {
			return
		}
		base := t.TempDir()
		root, outside := filepath.Join(base, "root"), filepath.Join(base, "out")
		for _, d := range []string{filepath.Join(root, "a", "b"), filepath.Join(outside, "a")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range []string{filepath.Join(root, "f"), filepath.Join(root, "a", "g"), filepath.Join(outside, "f"), filepath.Join(outside, "a", "g")} {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// Path pieces: names, "..", and absolute starts inside and out.
		pieces := []string{"a", "b", "f", "g", "..", "l0", "l1", "l2", "x", root, outside, filepath.Join(base, "root", "a")}
		piece := func(c byte) string { return pieces[int(c)%len(pieces)] }
		// Bytes come in groups: a link's folder (root or a), its target
		// of up to three pieces ending at a byte ≥ 0x80, and last the path
		// looked up.
		var links int
		i := 0
		for i+1 < len(b) && links < 3 {
			dir := root
			if b[i]&1 == 1 {
				dir = filepath.Join(root, "a")
			}
			i++
			var parts []string
			for i < len(b) && len(parts) < 3 {
				parts = append(parts, piece(b[i]&0x7f))
				i++
				if b[i-1] >= 0x80 {
					break
				}
			}
			target := filepath.Join(parts...)
			_ = os.Symlink(target, filepath.Join(dir, "l"+string(rune('0'+links))))
			links++
		}
		var name []string
		for ; i < len(b); i++ {
			if p := piece(b[i]); !filepath.IsAbs(p) && p != ".." {
				name = append(name, p)
			}
		}
		if len(name) == 0 {
			name = []string{"l0"}
		}
		rel := strings.Join(name, "/")
		f, err := Folder(root).FS.Open(rel)
		want, werr := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
		realRoot, _ := filepath.EvalSymlinks(root)
		if err == nil {
			defer f.Close()
			got, _ := f.Stat()
			sys, serr := os.Stat(want)
			if werr != nil || serr != nil || !os.SameFile(got, sys) {
				t.Fatalf("%s: opened a file the system does not resolve it to (%s, %v)", rel, want, werr)
			}
			if !below(realRoot, want) {
				t.Fatalf("%s: opened a file outside the folder: %s", rel, want)
			}
		} else if werr == nil && !below(realRoot, want) && !strings.Contains(err.Error(), errOutside.Error()) {
			t.Fatalf("%s: leads outside (%s) but refused with %v", rel, want, err)
		}
	})
}

// below reports whether p is dir or lies below it, lexically.
func below(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
