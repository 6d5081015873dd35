package clip

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	if got := Quote("abc"); got != `"abc"` {
		t.Errorf("short value: %s", got)
	}
	long := strings.Repeat("é", 50<<20/2) // 50 MB of two-byte runes
	got := Quote(long)
	if len(got) > MaxQuote+40 || !strings.Contains(got, "(52428800 bytes)") {
		t.Errorf("long value quoted as %d bytes: %.80s…", len(got), got)
	}
	if strings.Contains(got, `\x`) {
		t.Errorf("a rune was split: %s", got)
	}
}

func TestString(t *testing.T) {
	if got := String("abc", 10); got != "abc" {
		t.Error(got)
	}
	got := String(strings.Repeat("x", 1000), 100)
	if !strings.HasPrefix(got, strings.Repeat("x", 100)+"…") || !strings.HasSuffix(got, "(900 more bytes)") {
		t.Error(got)
	}
}

func TestDisplay(t *testing.T) {
	for in, want := range map[string]string{
		"plain/name.mdx":      "plain/name.mdx",
		"esc\x1b[2Jhere":      `esc\x1b[2Jhere`,
		"nul\x00":             `nul\x00`,
		"del\x7f":             `del\x7f`,
		"c1\u0085":            `c1\u0085`,
		"bad\xffutf8":         `bad\xffutf8`,
		"ünïcödé ok":          "ünïcödé ok",
		"tab\tnewline\n":      `tab\x09newline\x0a`,
		"evil\u202egpj.exe":   `evil\u202egpj.exe`,
		"iso\u2066late\u2069": `iso\u2066late\u2069`,
		"ls\u2028ps\u2029":    `ls\u2028ps\u2029`,
		"mark\u200f\u061c":    `mark\u200f\u061c`,
		"zwj 👩\u200d💻":        "zwj 👩\u200d💻",
	} {
		if got := Display(in, 100); got != want {
			t.Errorf("Display(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("a", 1000)
	if got := Display(long, 10); got != "aaaaaaaaaa… (990 more bytes)" {
		t.Errorf("long: %q", got)
	}
}
