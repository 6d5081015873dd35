// Package clip bounds what messages quote, so that an error or warning
// about a hostile value (a 50 MB configuration string, a model naming a
// thousand nodes) stays a readable line instead of echoing the value.
package clip

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxQuote is the number of bytes of a value Quote shows.
const MaxQuote = 200

// Quote quotes s as strconv.Quote does, but only its first MaxQuote bytes
// (cut at a rune boundary), followed by how long the value was.
func Quote(s string) string {
	if len(s) <= MaxQuote {
		return strconv.Quote(s)
	}
	return strconv.Quote(prefix(s, MaxQuote)) + fmt.Sprintf("… (%d bytes)", len(s))
}

// String returns s if it is at most n bytes long; otherwise its first
// bytes (at a rune boundary) and a note of how many were left out, n bytes
// or a few more in all.
func String(s string, n int) string {
	if len(s) <= n {
		return s
	}
	p := prefix(s, n)
	return p + fmt.Sprintf("… (%d more bytes)", len(s)-len(p))
}

// prefix cuts s to at most n bytes without splitting a UTF-8 sequence.
func prefix(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Display returns s fit to print unquoted in a terminal, a log or a page:
// at most n of its bytes, cut as String cuts, with every control
// character (C0, DEL, C1), every character that reorders or breaks the
// text around it (the bidirectional controls such as U+202E, the line and
// paragraph separators) and every byte that is not UTF-8 written as a Go
// escape (\x1b, \u0085, \u202e), so that a name from a file cannot move
// the cursor, clear the screen, start a line of its own or show its text
// backwards.
func Display(s string, n int) string {
	p := prefix(s, n)
	var b strings.Builder
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, p[i])
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0, reorders(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(p[i : i+size])
		}
		i += size
	}
	if len(p) < len(s) {
		fmt.Fprintf(&b, "… (%d more bytes)", len(s)-len(p))
	}
	return b.String()
}

// reorders reports whether r changes the direction or the lines of the
// text that follows it: the bidirectional marks, embeddings, overrides and
// isolates, and the line and paragraph separators.
func reorders(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x2028 && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
