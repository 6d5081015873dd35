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
