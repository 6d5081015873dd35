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
// character (C0, DEL, C1), and every byte that is not UTF-8, written as a
// Go escape (\x1b, \u0085), so that a name from a file cannot move the
// cursor, clear the screen or hide what follows it.
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
		case r >= 0x80 && r < 0xa0:
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
