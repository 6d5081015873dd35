package mdx

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unsafe"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// MDLError reports malformed MDL text, or text over a limit: the 1-based
// line and column of the token where reading stopped, and what was
// expected there. Err is the *budget.Error of a limit, nil otherwise.
type MDLError struct {
	Line, Column int
	Reason       string
	Err          error
}

func (e *MDLError) Error() string {
	return fmt.Sprintf("mdl: line %d, column %d: %s", e.Line, e.Column, e.Reason)
}

func (e *MDLError) Unwrap() error { return e.Err }

// Token kinds of the MDL scanner. Commas are separators only and never
// reach the parser: MDL writers disagree about trailing commas.
type tokKind uint8

const (
	tokEOF tokKind = iota
	tokWord
	tokString
	tokLBrace
	tokRBrace
	tokColon
	tokLE // "<=", the v1100 texture-slot arrow
)

func (k tokKind) String() string {
	switch k {
	case tokEOF:
		return "end of file"
	case tokWord:
		return "word"
	case tokString:
		return "string"
	case tokLBrace:
		return `"{"`
	case tokRBrace:
		return `"}"`
	case tokColon:
		return `":"`
	case tokLE:
		return `"<="`
	}
	return "token"
}

// Byte classes for the scanner.
const (
	clWord  = iota // part of a word
	clSpace        // blank or comma
	clNL
	clDelim // { } : " / <
)

var mdlClass = func() (t [256]uint8) {
	for _, c := range []byte{' ', '\t', '\r', ',', '\v', '\f', 0} {
		t[c] = clSpace
	}
	t['\n'] = clNL
	for _, c := range []byte{'{', '}', ':', '"', '/', '<'} {
		t[c] = clDelim
	}
	return
}()

// mdlParser scans and parses MDL text in one pass. The current token is
// (tok, val); val aliases the input, so no token allocates. Errors are
// raised with panic(*MDLError) and recovered by DecodeMDL only.
type mdlParser struct {
	b         []byte
	pos       int
	line      int
	lineStart int

	tok     tokKind
	val     []byte
	tokLine int
	tokCol  int
	blocks  int // top-level blocks read
	budget  int // bytes left for pre-sizing lists from counts
	// vertices and triangles count the model's geometry as it is read,
	// against the limits.
	vertices, triangles geoCount
	faceIndices         int // vertex indices of faces read so far
	// wLine, wCol locate the last word taken by word(), for errors in
	// converting it.
	wLine, wCol int
}

// geoCount counts geometry against a limit while the text is read, so
// that an oversized list fails at its first item over the limit rather
// than once it is all in memory.
type geoCount struct {
	n, limit int64
	kind     budget.Kind
}

// add counts k more items, failing past the limit.
func (p *mdlParser) add(c *geoCount, k int) {
	c.n += int64(k)
	if c.n > c.limit {
		be := &budget.Error{Limit: c.kind, Max: c.limit, Value: c.n, What: "mdl: the geoset that passes it"}
		panic(&MDLError{Line: p.tokLine, Column: p.tokCol, Err: be,
			Reason: fmt.Sprintf("more than %d %s, the %s limit", c.limit, c.kind.Unit(), c.kind)})
	}
}

func (p *mdlParser) failf(format string, args ...any) {
	panic(&MDLError{Line: p.tokLine, Column: p.tokCol, Reason: fmt.Sprintf(format, args...)})
}

// next scans the next token into (tok, val).
func (p *mdlParser) next() {
	b := p.b
	i := p.pos
	for i < len(b) {
		c := b[i]
		switch mdlClass[c] {
		case clSpace:
			i++
			continue
		case clNL:
			i++
			p.line++
			p.lineStart = i
			continue
		case clDelim:
			if c == '/' {
				if i+1 < len(b) && b[i+1] == '/' {
					for i < len(b) && b[i] != '\n' {
						i++
					}
					continue
				}
				if i+1 < len(b) && b[i+1] == '*' {
					i += 2
					for {
						if i+1 >= len(b) {
							p.tokLine, p.tokCol = p.line, i-p.lineStart+1
							p.failf("unterminated /* comment")
						}
						if b[i] == '\n' {
							p.line++
							p.lineStart = i + 1
						}
						if b[i] == '*' && b[i+1] == '/' {
							i += 2
							break
						}
						i++
					}
					continue
				}
			}
		}
		break
	}
	p.tokLine, p.tokCol = p.line, i-p.lineStart+1
	if i >= len(b) {
		p.pos = i
		p.tok, p.val = tokEOF, nil
		return
	}
	c := b[i]
	switch c {
	case '{':
		p.tok, p.val, p.pos = tokLBrace, b[i:i+1], i+1
		return
	case '}':
		p.tok, p.val, p.pos = tokRBrace, b[i:i+1], i+1
		return
	case ':':
		p.tok, p.val, p.pos = tokColon, b[i:i+1], i+1
		return
	case '<':
		if i+1 < len(b) && b[i+1] == '=' {
			p.tok, p.val, p.pos = tokLE, b[i:i+2], i+2
			return
		}
	case '"':
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\n' {
				p.line++
				p.lineStart = j + 1
			}
			j++
		}
		if j >= len(b) {
			p.failf("unterminated string")
		}
		p.tok, p.val, p.pos = tokString, b[i+1:j], j+1
		return
	}
	// A word: everything up to a blank, comma, brace, colon or quote. A
	// lone '/' or '<' is part of a word.
	j := i + 1
	for j < len(b) {
		k := mdlClass[b[j]]
		if k == clWord {
			j++
			continue
		}
		if k == clDelim && (b[j] == '/' || b[j] == '<') {
			if j+1 < len(b) && (b[j+1] == '/' || b[j+1] == '*' || b[j+1] == '=') {
				break
			}
			j++
			continue
		}
		break
	}
	p.tok, p.val, p.pos = tokWord, b[i:j], j
}

// describe names the current token for error messages.
func (p *mdlParser) describe() string {
	switch p.tok {
	case tokWord:
		return clip.Quote(string(p.val))
	case tokString:
		return "string " + clip.Quote(string(p.val))
	}
	return p.tok.String()
}

func (p *mdlParser) expect(k tokKind, what string) {
	if p.tok != k {
		p.failf("expected %s %s, found %s", k, what, p.describe())
	}
	p.next()
}

// word returns the current word and advances.
func (p *mdlParser) word(what string) []byte {
	if p.tok != tokWord {
		p.failf("expected %s, found %s", what, p.describe())
	}
	v := p.val
	p.wLine, p.wCol = p.tokLine, p.tokCol
	p.next()
	return v
}

// failWord reports a bad value at the last word taken.
func (p *mdlParser) failWord(format string, args ...any) {
	p.failAt(p.wLine, p.wCol, format, args...)
}

// str reads a quoted string (or, leniently, a bare word) and advances.
func (p *mdlParser) str(what string) string {
	if p.tok != tokString && p.tok != tokWord {
		p.failf("expected %s, found %s", what, p.describe())
	}
	s := string(p.val)
	p.next()
	return s
}

// remaining is the number of input bytes after the current token; counts in
// the text are bounded by it before anything is allocated.
func (p *mdlParser) remaining() int { return len(p.b) - p.pos }

// capFor bounds a count from the text, used to pre-size a list, by how many
// items of at least minLen bytes the remaining input could hold, and by the
// parser's pre-size budget (a few times the input size over the whole
// parse): lying counts on many lists cannot add up to more than that.
func (p *mdlParser) capFor(n int64, minLen, elemSize int) int {
	if n <= 0 {
		return 0
	}
	lim := int64(p.remaining()/minLen + 1)
	if n > lim {
		n = lim
	}
	if n*int64(elemSize) > int64(p.budget) {
		n = int64(p.budget / elemSize)
	}
	p.budget -= int(n) * elemSize
	return int(n)
}

// presize returns an empty slice with room for the count n (see capFor).
func presize[T any](p *mdlParser, n int64, minLen int) []T {
	var zero T
	return make([]T, 0, p.capFor(n, minLen, int(unsafe.Sizeof(zero))))
}

// parseInt parses a decimal integer word (an integral float like "3.0" is
// accepted too, as some exporters write them).
func (p *mdlParser) parseInt(w []byte, lo, hi int64, what string) int64 {
	i := 0
	neg := false
	if len(w) > 0 && (w[0] == '-' || w[0] == '+') {
		neg = w[0] == '-'
		i = 1
	}
	if i == len(w) {
		p.failWord("expected a whole number for %s, found %s", what, clip.Quote(string(w)))
	}
	var v int64
	for ; i < len(w); i++ {
		c := w[i] - '0'
		if c > 9 {
			f, err := strconv.ParseFloat(unsafe.String(&w[0], len(w)), 64)
			if err == nil && f == math.Trunc(f) && f >= float64(lo) && f <= float64(hi) {
				return int64(f)
			}
			p.failWord("expected a whole number for %s, found %s", what, clip.Quote(string(w)))
		}
		v = v*10 + int64(c)
		if v > 1<<40 {
			p.failWord("%s %s out of range", what, clip.Quote(string(w)))
		}
	}
	if neg {
		v = -v
	}
	if v < lo || v > hi {
		p.failWord("%s %d out of range [%d, %d]", what, v, lo, hi)
	}
	return v
}

// u32 reads a word as a u32; -1 and other negative i32 values are accepted
// as their two's-complement bit pattern (MDL writes 0xFFFFFFFF as -1).
func (p *mdlParser) u32(what string) uint32 {
	return uint32(p.parseInt(p.word(what), math.MinInt32, math.MaxUint32, what))
}

// i32 reads a word as an i32; values up to 0xFFFFFFFF wrap to negative.
func (p *mdlParser) i32(what string) int32 {
	return int32(uint32(p.parseInt(p.word(what), math.MinInt32, math.MaxUint32, what)))
}

// f32 reads a word as a float32.
func (p *mdlParser) f32(what string) float32 {
	return p.parseFloat(p.word(what), what)
}

var pow10f32 = [...]float32{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}

// parseFloat converts a word to float32 exactly as strconv.ParseFloat(s, 32)
// would, without allocating. Short decimals take an exact fast path: a
// mantissa below 2^24 and a power of ten up to 1e10 are both exact in
// float32, so one division rounds correctly.
func (p *mdlParser) parseFloat(w []byte, what string) float32 {
	// Trailing zeros of a fraction ("0.500000", as most exporters print)
	// do not change the value; dropping them keeps the fast path.
	if n := len(w); n > 1 && w[n-1] == '0' {
		if d := bytes.IndexByte(w, '.'); d >= 0 && allDigits(w[d+1:]) {
			for n > d+1 && w[n-1] == '0' {
				n--
			}
			w = w[:n]
		}
	}
	i := 0
	neg := false
	if len(w) > 0 && (w[0] == '-' || w[0] == '+') {
		neg = w[0] == '-'
		i = 1
	}
	var m uint32
	digits, frac := 0, 0
	dot := false
	ok := i < len(w)
	for ; i < len(w); i++ {
		c := w[i]
		if c == '.' && !dot {
			dot = true
			continue
		}
		d := c - '0'
		if d > 9 {
			ok = false
			break
		}
		if m == 0 && d == 0 && !dot {
			digits++
			continue
		}
		if m >= 1<<24/10 {
			ok = false
			break
		}
		m = m*10 + uint32(d)
		digits++
		if dot {
			frac++
		}
	}
	if ok && digits > 0 && frac < len(pow10f32) {
		f := float32(m)
		if frac > 0 {
			f /= pow10f32[frac]
		}
		if neg {
			f = -f
		}
		return f
	}
	return p.slowFloat(w, what)
}

func (p *mdlParser) slowFloat(w []byte, what string) float32 {
	if len(w) == 0 {
		p.failWord("expected %s", what)
	}
	f, err := strconv.ParseFloat(unsafe.String(&w[0], len(w)), 32)
	if err == nil {
		return float32(f)
	}
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return float32(f) // ±Inf or 0, as ParseFloat rounds
	}
	// Old exporters print MSVC's "1.#INF", "-1.#IND", "1.#QNAN".
	for j := 0; j+1 < len(w); j++ {
		if w[j] == '#' {
			switch w[j+1] {
			case 'I', 'i':
				if j+3 < len(w) && (w[j+2] == 'N' || w[j+2] == 'n') && (w[j+3] == 'F' || w[j+3] == 'f') {
					if w[0] == '-' {
						return float32(math.Inf(-1))
					}
					return float32(math.Inf(1))
				}
				return float32(math.NaN())
			case 'Q', 'q', 'S', 's':
				return float32(math.NaN())
			}
		}
	}
	p.failWord("expected a number for %s, found %s", what, clip.Quote(string(w)))
	return 0
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c-'0' > 9 {
			return false
		}
	}
	return true
}
