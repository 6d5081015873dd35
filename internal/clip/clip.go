// Package clip bounds what messages quote, so that an error or warning
// about a hostile value (a 50 MB configuration string, a model naming a
// thousand nodes) stays a readable line instead of echoing the value.
package clip

import (
	"fmt"
	"strconv"
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
