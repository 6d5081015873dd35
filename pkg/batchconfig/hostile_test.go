package batchconfig

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

var nestings = map[hostile.Nesting]string{
	hostile.TOMLHeader: "toml header", hostile.TOMLQuotedKey: "toml quoted key", hostile.TOMLInline: "toml inline",
	hostile.TOMLArray: "toml array", hostile.YAMLFlow: "yaml flow", hostile.YAMLBlock: "yaml block",
	hostile.YAMLCompact: "yaml compact", hostile.JSONObject: "json",
}

// The line on which each nesting of hostile.NestedConfig passes the cap:
// the brackets of YAMLFlow and the indentation of YAMLBlock open a level
// a line from line 3 and 2 on, the others all theirs on line 2 or 3.
func capLine(how hostile.Nesting) int {
	switch how {
	case hostile.YAMLFlow, hostile.YAMLBlock:
		return 2 + MaxDepth
	case hostile.YAMLCompact:
		return 3
	}
	return 2
}

// A file nested one level deeper than MaxDepth is refused, naming
// the line where it passed the cap, in every format and every way of
// nesting; one at the cap is not (it may have other problems).
func TestConfigNestingCapped(t *testing.T) {
	for how, label := range nestings {
		ext, at := hostile.NestedConfig(how, MaxDepth)
		if _, err := DecodeFile("c"+ext, at); err != nil && strings.Contains(err.Error(), "nested deeper") {
			t.Errorf("%s at the cap: %v", label, err)
		}
		_, over := hostile.NestedConfig(how, MaxDepth+1)
		f, err := DecodeFile("c"+ext, over)
		want := fmt.Sprintf("c%s:%d: nested deeper than %d levels", ext, capLine(how), MaxDepth)
		var ce *Error
		if f != nil || !errors.As(err, &ce) || err.Error() != want {
			t.Errorf("%s over the cap: %v; want %s", label, err, want)
		}
	}
}

// The cases of the attack sweep, and the same as deep as fits the size
// cap, end with the depth error having allocated a few MB: 32 KB of TOML
// nested 16,000 deep took 1.9 GB, 200 KB nested 100,000 deep more than
// 18 GB.
func TestConfigNestingBoundedAtScale(t *testing.T) {
	for how, label := range nestings {
		for _, depth := range []int{16_000, 100_000, 500_000} {
			if how == hostile.YAMLBlock {
				// Its size grows with the square of the depth: the
				// deepest that fits the size cap.
				depth = min(depth, 1400)
			}
			ext, data := hostile.NestedConfig(how, depth)
			if len(data) > MaxSize {
				continue // refused for its size
			}
			alloc := allocated(func() {
				_, err := DecodeFile("c"+ext, data)
				if err == nil || !strings.Contains(err.Error(), "nested deeper than 64 levels") {
					t.Errorf("%s, %d deep: %v", label, depth, err)
				}
			})
			if alloc > 4<<20 {
				t.Errorf("%s, %d deep: %d MB allocated", label, depth, alloc>>20)
			}
		}
	}
}

// A file of more than MaxEntries keys and list elements is refused
// before it is parsed, however small they are: half a million list
// elements in 1 MiB would cost the parsers hundreds of MB.
func TestConfigEntriesCapped(t *testing.T) {
	for name, c := range map[string]struct{ head, elem, tail string }{
		"c.yaml": {"team_colors: [", "1,", "1]\n"},
		"c.json": {"{\"team_colors\": [", "1,", "1]}\n"},
		"c.toml": {"team_colors = [", "1,", "1]\n"},
		"d.yaml": {"team_colors:\n", "- 1\n", "- 1\n"},
		"d.toml": {"", "[[overrides]]\n", ""},
		"e.toml": {"", "a = 1\n", ""},
		"f.toml": {"a = {", "b = 1, ", "b = 1}\n"},
		"e.yaml": {"", "a: 1\n", ""},
		"f.yaml": {"a: {", "b: 1, ", "b: 1}\n"},
		"g.yaml": {"a:\n", "- - - 1\n", ""},
	} {
		for _, n := range []int{MaxEntries / 4, (MaxSize - len(c.head) - len(c.tail)) / len(c.elem)} {
			data := c.head + strings.Repeat(c.elem, n) + c.tail
			var err error
			alloc := allocated(func() { _, err = DecodeFile(name, []byte(data)) })
			refused := err != nil && strings.Contains(err.Error(), "more than 10000 keys and list elements")
			if refused != (n > MaxEntries/4) {
				t.Errorf("%s, %d × %q: %.200v", name, n, c.elem, err)
			}
			if alloc > 32<<20 {
				t.Errorf("%s, %d × %q: %d MB allocated", name, n, c.elem, alloc>>20)
			}
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Brackets, indentation and dots inside strings, comments and block
// scalars are text, not nesting.
func TestConfigNestingIgnoresText(t *testing.T) {
	deep := strings.Repeat("[{", 100)
	for name, doc := range map[string]string{
		"quoted.yaml":   "shard: \"" + deep + "\"\ngame_data: '" + deep + "'\n",
		"comment.yaml":  "jobs: 1 # " + deep + "\n# " + deep + "\n",
		"block.yaml":    "output:\n  name: |\n    " + deep + "\n    " + deep + "\n\n    " + strings.Repeat("- ", 100) + "\n  dir: x\n",
		"folded.yaml":   "game_data: >-\n  " + deep + "\n  - - - - -\n",
		"plain.yaml":    "shard: a[b{c\ngame_data: x: y\n",
		"multi.yaml":    "shard: \"a\n  " + deep + "\n  b\"\n",
		"flow.json":     "{\"shard\": \"" + strings.ReplaceAll(deep, "{", "\\\"{") + "\", \"jobs\": 1}\n",
		"strings.toml":  "shard = \"" + deep + "\"\ngame_data = '" + deep + "'\n# " + deep + "\n",
		"multi.toml":    "shard = \"\"\"\n" + deep + "\n\"\"\"\ngame_data = '''" + deep + "'''\n",
		"dots.toml":     "shard = \"" + strings.Repeat("a.", 100) + "\"\n",
		"escaped.toml":  "shard = \"\\\"" + deep + "\"\n",
		"crlf.yaml":     "output:\r\n  name: |\r\n    " + deep + "\r\n  dir: x\r\n",
		"document.yaml": "--- |\n  " + deep + "\n",
	} {
		if _, err := DecodeFile(name, []byte(doc)); err != nil && strings.Contains(err.Error(), "nested deeper") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A file larger than MaxSize is refused before it is parsed, and
// ReadFile reads no more than one byte past the cap of a file that
// never ends.
func TestConfigSizeCapped(t *testing.T) {
	big := append([]byte("jobs: 1\n"), bytes.Repeat([]byte("# filler\n"), MaxSize/9)...)
	want := "c.yaml: larger than 1048576 bytes (1 MiB), the most a configuration file may have"
	if _, err := DecodeFile("c.yaml", big); err == nil || err.Error() != want {
		t.Errorf("%d bytes: %v", len(big), err)
	}
	if _, err := DecodeFile("c.yaml", big[:MaxSize]); err != nil {
		t.Errorf("%d bytes: %v", MaxSize, err)
	}
	if runtime.GOOS != "linux" {
		t.Skip("needs /dev/zero")
	}
	p := filepath.Join(t.TempDir(), "zero.yaml")
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Skip(err)
	}
	if _, err := ReadFile(p); err == nil || !strings.Contains(err.Error(), "larger than 1048576 bytes") {
		t.Errorf("/dev/zero: %v", err)
	}
}

// A file that is not text is refused with the line of the first byte
// that has no place in it.
func TestConfigTextChecked(t *testing.T) {
	for doc, want := range map[string]string{
		"jobs: 1\nshard: \x1b[2J\n":    `c.yaml:2: control character \x1b: a configuration file is UTF-8 text`,
		"jobs: 1\n\nshard: a\xffb\n":   `c.yaml:3: byte \xff, which is not UTF-8: a configuration file is UTF-8 text`,
		"shard: a\u0085b\n":            `c.yaml:1: control character \u0085: a configuration file is UTF-8 text`,
		"jobs: 1\nshard: a\u2028b\n":   `c.yaml:2: line separator \u2028: a configuration file is UTF-8 text`,
		"jobs: 1\r\nforce: true\n\x00": `c.yaml:3: control character \x00: a configuration file is UTF-8 text`,
	} {
		if _, err := DecodeFile("c.yaml", []byte(doc)); err == nil || err.Error() != want {
			t.Errorf("%q: %v; want %s", doc, err, want)
		}
	}
}

// A mapping or table of more than MaxKeys keys is refused at the
// key past the cap: the parsers' duplicate checks compare every key with
// every other.
func TestConfigKeysPerMappingCapped(t *testing.T) {
	for _, ext := range []string{".yaml", ".toml", ".json"} {
		data := hostile.UnknownKeysConfig(ext, MaxKeys+1, 0)
		_, err := DecodeFile("c"+ext, data)
		line := MaxKeys + 1 // one key a line
		want := fmt.Sprintf("c%s:%d: more than %d keys in one mapping", ext, line, MaxKeys)
		if ext == ".toml" {
			want = fmt.Sprintf("c.toml:%d: more than %d keys in one table", line, MaxKeys)
		}
		if err == nil || err.Error() != want {
			t.Errorf("%s: %.300v; want %s", ext, err, want)
		}
		// At the cap, every key is reported, twenty in words.
		_, err = DecodeFile("c"+ext, hostile.UnknownKeysConfig(ext, MaxKeys, 0))
		var ces *Errors
		if !errors.As(err, &ces) || ces.Len() != MaxKeys {
			t.Errorf("%s at the cap: %.300v", ext, err)
		}
	}
}

// However many problems a file has, MaxErrors are spelled out and
// the rest counted, in every format; the message stays a screenful.
func TestConfigErrorsCapped(t *testing.T) {
	for _, ext := range []string{".yaml", ".toml", ".json"} {
		const n = 5000
		data := hostile.UnknownKeysConfig(ext, n, 100)
		_, err := DecodeFile("c"+ext, data)
		var ces *Errors
		if !errors.As(err, &ces) || ces.Len() != n || len(ces.Errs) != MaxErrors {
			t.Fatalf("%s: %.300v", ext, err)
		}
		msg := err.Error()
		lines := strings.Split(msg, "\n")
		if len(lines) != MaxErrors+1 || lines[MaxErrors] != fmt.Sprintf("and %d more problems", n-MaxErrors) {
			t.Errorf("%s: %d lines, last %q", ext, len(lines), lines[len(lines)-1])
		}
		// The first problem is the first key, on its line: the entry's
		// match, then the key.
		first := fmt.Sprintf("c%s:3: overrides[0].unknown_0000000: unknown key", ext)
		if ext == ".json" {
			first = fmt.Sprintf("c%s:3: overrides[0].unknown_0000000: unknown key", ext)
		}
		if !strings.HasPrefix(lines[0], first) {
			t.Errorf("%s: first %q, want %q", ext, lines[0], first)
		}
		if len(msg) > 8000 {
			t.Errorf("%s: %d bytes of errors", ext, len(msg))
		}
	}
}

// A million unknown keys (the sweep's 242 MB of messages and 1.4 GB):
// a file that size is refused at the size cap, a flood that fits it at
// the entry cap, and the largest flood under that costs tens of MB and
// twenty lines.
func TestUnknownKeyFloodBounded(t *testing.T) {
	million := hostile.UnknownKeysConfig(".yaml", 1_000_000, 0)
	if _, err := DecodeFile("c.yaml", million); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a million keys: %.200v", err)
	}
	for _, ext := range []string{".yaml", ".toml", ".json"} {
		for _, n := range []int{40_000, MaxEntries - 200} {
			data := hostile.UnknownKeysConfig(ext, n, 200)
			var err error
			alloc := allocated(func() { _, err = DecodeFile("c"+ext, data) })
			var ces *Errors
			switch {
			case n > MaxEntries:
				if err == nil || !strings.Contains(err.Error(), "more than 10000 keys and list elements") {
					t.Errorf("%s, %d keys: %.200v", ext, n, err)
				}
			case !errors.As(err, &ces) || ces.Len() != n || strings.Count(err.Error(), "\n") != MaxErrors:
				t.Errorf("%s, %d keys: %.200v", ext, n, err)
			}
			if alloc > 64<<20 {
				t.Errorf("%s, %d keys in %d bytes: %d MB allocated", ext, n, len(data), alloc>>20)
			}
		}
	}
}

// What a file names reaches messages with its control characters
// escaped: no terminal escape, carriage return or text-reversing mark
// gets through, and the file, line and key are still named.
func TestConfigMessagesEscaped(t *testing.T) {
	_, err := DecodeFile("c.yaml", hostile.ConfigEscapes())
	if err == nil {
		t.Fatal("accepted")
	}
	// Values from elsewhere than a file (variables, flags) may hold
	// anything.
	c := Default()
	c.Inputs.Files = []string{"a.mdx"}
	c.Render.Background = "\x1b[31mred\u202egnp.exe"
	c.Output.Formats = []string{"png\r\nmdxrender: all good"}
	c.TeamColors = []string{"x\u0085y\u009b1m"}
	c.Views = map[string]View{"V\x1b[1A": {}}
	var errs Errors
	(&layers{file: "c.yaml", origins: map[string]string{}, pinned: map[string]bool{}}).options(&c, &errs)
	verr := errs.Err()
	for _, e := range []error{err, verr} {
		msg := e.Error()
		if bad := rawControl(msg); bad != "" {
			t.Errorf("raw %s in\n%s", bad, msg)
		}
	}
	for _, want := range []string{`c.yaml:2: key\x1b]0;owned\x07\x0dhidden: unknown key`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("lacks %s:\n%s", want, err)
		}
	}
	for _, want := range []string{`render.background`, `\x1b[31mred\u202egnp.exe`, `output.formats[0]`, `png\r\nmdxrender: all good`, `views.V\x1b[1A`} {
		if !strings.Contains(verr.Error(), want) {
			t.Errorf("lacks %s:\n%s", want, verr)
		}
	}
}

// rawControl names the first character of s, other than the line breaks
// between problems, that a terminal would obey.
func rawControl(s string) string {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return fmt.Sprintf("byte %#x", s[i])
			}
		}
		if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 || r == 0x202e {
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}
