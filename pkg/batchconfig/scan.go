package batchconfig

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// MaxSize is the most bytes a configuration file may have: 1 MiB.
// Real files are a few KB, and one generated with an override for each of
// thousands of models stays far below it. It bounds what a file's long
// strings cost; MaxEntries bounds what its many short ones do.
const MaxSize = 1 << 20

// MaxDepth is how deeply the lists, mappings and tables of a
// configuration file may nest, the document's top level counting as
// one. The schema's deepest key, overrides[].render.size, is four levels
// down, so 64 leaves room for any layout, while no parser or checker
// builds or walks a tree deeper than that.
const MaxDepth = 64

// MaxKeys is how many keys one mapping or table of a configuration
// file may hold. The schema's largest has 18, and a batch of even a
// hundred named views is far-fetched; the bound keeps the duplicate-key
// checks of go-yaml and go-toml, which compare each key with the others,
// to a tenth of a second for the largest file.
const MaxKeys = 256

// MaxEntries is how many keys and list elements a configuration
// file may hold in all. What a parser and the schema check spend grows
// with them (a few hundred bytes each, over a KB in TOML), not with the
// bytes: a 1 MiB file of "1," is half a million list elements. A batch
// of a thousand overrides stays far below; a list of more models than
// fit belongs in inputs.list.
const MaxEntries = 10_000

// lineCounter gives the line of an offset in data, counting newlines
// from the offset asked before, so that asking in file order costs one
// pass over the file.
type lineCounter struct {
	data      []byte
	off, line int
}

func (c *lineCounter) at(off int) int {
	off = min(max(off, 0), len(c.data))
	if c.line == 0 || off < c.off {
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.off:off], []byte{'\n'})
	c.off = off
	return c.line
}

// checkText reports the line of the first byte that has no place in a
// configuration file: one that is not UTF-8, a control character other
// than tab and line breaks, or a Unicode line or paragraph separator
// (which YAML takes for a line break and TOML does not). Refusing them
// here gives every parser the same text, and the error a line.
func checkText(data []byte) (line int, what string) {
	line = 1
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				line++
			case c == '\t' || c == '\r':
			case c < 0x20 || c == 0x7f:
				return line, fmt.Sprintf("control character \\x%02x", c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return line, fmt.Sprintf("byte \\x%02x, which is not UTF-8", c)
		case r < 0xa0:
			return line, fmt.Sprintf("control character \\u%04x", r)
		case r == 0x2028 || r == 0x2029:
			return line, fmt.Sprintf("line separator \\u%04x", r)
		}
		i += size
	}
	return 0, ""
}

// yamlCheck returns the line on which the lists and mappings of a YAML
// document (JSON is YAML) first nest deeper than MaxDepth, or hold
// more than MaxEntries keys and elements, and what it passed; or 0.
// It follows indentation and brackets line by line, skipping comments,
// quoted scalars and block scalars, without building anything, so that
// the parser only ever sees small, shallow documents. Nesting is what the
// text writes: an alias to a deep anchor adds none (the schema check does
// not follow a file's keys past the schema's own, and the decoder bounds
// aliases). Entries are counted by their keys, dashes, commas and
// brackets, which may count an empty list as one.
func yamlCheck(data []byte) (int, string) {
	s := yamlScan{scalar: noBlockScalar}
	for line := 1; len(data) > 0; line++ {
		i := bytes.IndexAny(data, "\r\n")
		l := data
		data = nil
		if i >= 0 {
			crlf := l[i] == '\r' && i+1 < len(l) && l[i+1] == '\n'
			l, data = l[:i], l[i+1:]
			if crlf {
				data = data[1:]
			}
		}
		if s.scanLine(l) {
			if s.entries > MaxEntries {
				return line, tooManyEntries
			}
			return line, tooDeepMsg
		}
	}
	return 0, ""
}

var (
	tooDeepMsg     = fmt.Sprintf("nested deeper than %d levels", MaxDepth)
	tooManyEntries = fmt.Sprintf("more than %d keys and list elements", MaxEntries)
)

// noBlockScalar is yamlScan.scalar outside a block scalar.
const noBlockScalar = -2

// yamlScan is yamlCheck's state between lines.
type yamlScan struct {
	entries int         // keys and elements so far
	blocks  []yamlBlock // the block collections open, outermost first
	flows   []yamlFlow  // the bracketed collections open, outermost first
	pairs   int         // single-pair mappings open inside brackets ([a: b])
	tok     bool        // in brackets: a scalar may start here (after [ { , :)
	json    bool        // in brackets: a quoted scalar or a collection just ended
	quote   byte        // the quote of a quoted scalar going on to the next line
	// scalar is, inside a block scalar (| or >), the indentation of its
	// parent: lines indented more, and blank lines, are its text.
	scalar int
}

// yamlBlock is a block mapping or sequence and the column of its keys or
// entries.
type yamlBlock struct {
	col int
	seq bool
}

// yamlFlow is a bracketed collection; pair marks a sequence whose
// current entry is a single-pair mapping ([a: b]).
type yamlFlow struct {
	seq, pair bool
}

func (s *yamlScan) depth() int { return len(s.blocks) + len(s.flows) + s.pairs }

// scanLine reads one line and reports whether it nests too deep.
func (s *yamlScan) scanLine(l []byte) bool {
	if s.quote != 0 {
		end, ok := quoteEnd(l, 0, s.quote)
		if !ok {
			return false
		}
		s.quote = 0
		s.json = true
		if len(s.flows) > 0 {
			over, _, _ := s.flowScan(l, end)
			return over
		}
		return false // the rest can only be a comment, or what the parser refuses
	}
	if len(s.flows) > 0 {
		over, _, _ := s.flowScan(l, 0)
		return over
	}
	col := 0
	for col < len(l) && l[col] == ' ' {
		col++
	}
	rest := l[col:]
	if s.scalar != noBlockScalar {
		docMark := col == 0 && (marker(l, "---") || marker(l, "..."))
		if !docMark && (len(bytes.TrimSpace(rest)) == 0 || col > s.scalar) {
			return false
		}
		s.scalar = noBlockScalar
	}
	if len(rest) == 0 || rest[0] == '#' || col == 0 && rest[0] == '%' {
		return false
	}
	if col == 0 && (marker(l, "---") || marker(l, "...")) {
		s.blocks = s.blocks[:0]
		if l[0] == '.' {
			return false
		}
		return s.node(l, 3)
	}
	for n := len(s.blocks); n > 0 && s.blocks[n-1].col > col; n-- {
		s.blocks = s.blocks[:n-1]
	}
	return s.node(l, col)
}

// node reads the nodes that start on a line at p in block context: the
// entries, keys and values written one after another ("- - a: b").
func (s *yamlScan) node(l []byte, p int) bool {
	for {
		p = skipBlank(l, p)
		if p >= len(l) || l[p] == '#' {
			return false
		}
		switch c := l[p]; {
		case (c == '-' || c == '?') && indicator(l, p):
			if s.level(p, c == '-') {
				return true
			}
			p++
		case c == ':' && indicator(l, p):
			p++ // the value of an explicit key ("? k" then ": v")
		case c == '&' || c == '!':
			for p < len(l) && l[p] != ' ' && l[p] != '\t' {
				p++
			}
		case c == '[' || c == '{':
			over, end, closed := s.flowScan(l, p)
			if over || !closed {
				return over
			}
			// a bracketed collection closed on its line may be a key
			if !isKey(l, end) {
				return false
			}
			if s.level(p, false) {
				return true
			}
			p = skipBlank(l, end) + 1
		case c == '|' || c == '>':
			s.scalar = -1
			if n := len(s.blocks); n > 0 {
				s.scalar = s.blocks[n-1].col
			}
			return false
		case c == '"' || c == '\'':
			end, ok := quoteEnd(l, p+1, c)
			if !ok {
				s.quote = c
				return false
			}
			if !isKey(l, end) {
				return false
			}
			if s.level(p, false) {
				return true
			}
			p = skipBlank(l, end) + 1
		default:
			k := plainKeyEnd(l, p)
			if k < 0 {
				return false
			}
			if s.level(p, false) {
				return true
			}
			p = k + 1
		}
	}
}

// isKey reports whether the scalar or collection that ends at end is a
// key: a ':' and a blank or the line's end follow it.
func isKey(l []byte, end int) bool {
	q := skipBlank(l, end)
	return q < len(l) && l[q] == ':' && indicator(l, q)
}

// level notes an entry of a block sequence (seq) or a key of a block
// mapping at column col, and reports whether it makes the document too
// deep. An entry or key at the column of the innermost open collection
// of its kind continues it; a sequence may sit at the column of the
// mapping it is a value of ("a:" then "- b"), and a key at that column
// ends it.
func (s *yamlScan) level(col int, seq bool) bool {
	if s.entries++; s.entries > MaxEntries {
		return true
	}
	if n := len(s.blocks); n > 0 && s.blocks[n-1].col == col {
		top := s.blocks[n-1]
		switch {
		case top.seq == seq:
			return false
		case top.seq: // a key after the sequence that was its mapping's value
			s.blocks = s.blocks[:n-1]
			if n > 1 && s.blocks[n-2].col == col {
				return false
			}
		}
	}
	s.blocks = append(s.blocks, yamlBlock{col, seq})
	return s.depth() > MaxDepth
}

// flowScan reads bracketed collections from p. It reports whether they
// nest too deep and, if the outermost closes on this line, where it ends.
func (s *yamlScan) flowScan(l []byte, p int) (over bool, end int, closed bool) {
	for ; p < len(l); p++ {
		c := l[p]
		json := false
		switch c {
		case '[', '{':
			s.flows = append(s.flows, yamlFlow{seq: c == '['})
			s.tok = true
			if s.entries++; s.depth() > MaxDepth || s.entries > MaxEntries {
				return true, 0, false
			}
		case ']', '}':
			if n := len(s.flows); n > 0 {
				if s.flows[n-1].pair {
					s.pairs--
				}
				s.flows = s.flows[:n-1]
			}
			s.tok, json = false, true
			if len(s.flows) == 0 {
				s.json = false
				return false, p + 1, true
			}
		case ',':
			if n := len(s.flows); n > 0 && s.flows[n-1].pair {
				s.flows[n-1].pair = false
				s.pairs--
			}
			s.tok = true
			if s.entries++; s.entries > MaxEntries {
				return true, 0, false
			}
		case ':':
			// A value indicator inside a sequence opens a single-pair
			// mapping ([a: b]); after a quoted key or a collection it may
			// touch what follows ("a":b).
			if n := len(s.flows); n > 0 && s.flows[n-1].seq && !s.flows[n-1].pair && (s.json || flowIndicator(l, p)) {
				s.flows[n-1].pair = true
				s.pairs++
				if s.depth() > MaxDepth {
					return true, 0, false
				}
			}
			s.tok = true
		case ' ', '\t':
			json = s.json
		case '#':
			if p == 0 || l[p-1] == ' ' || l[p-1] == '\t' {
				return false, 0, false
			}
			s.tok = false
		case '"', '\'':
			if s.tok {
				e, ok := quoteEnd(l, p+1, c)
				if !ok {
					s.quote = c
					return false, 0, false
				}
				p = e - 1
				json = true
			}
			s.tok = false
		default:
			s.tok = false
		}
		s.json = json
	}
	return false, 0, false
}

// flowIndicator reports whether the ':' at p is an indicator inside
// brackets: a blank, a bracket, a comma or the line's end follows it.
func flowIndicator(l []byte, p int) bool {
	if p+1 >= len(l) {
		return true
	}
	switch l[p+1] {
	case ' ', '\t', ',', '[', ']', '{', '}':
		return true
	}
	return false
}

// quoteEnd returns the index after the quote q that closes a scalar
// whose text goes on at p, or false if it does not close on this line.
// Double quotes escape with a backslash, single quotes by doubling.
func quoteEnd(l []byte, p int, q byte) (int, bool) {
	for ; p < len(l); p++ {
		switch {
		case q == '"' && l[p] == '\\':
			p++
		case l[p] == q:
			if q == '\'' && p+1 < len(l) && l[p+1] == '\'' {
				p++
				continue
			}
			return p + 1, true
		}
	}
	return 0, false
}

// plainKeyEnd returns the index of the ':' that makes the plain scalar
// at p a key, or -1 if it is a value (a comment may end it first).
func plainKeyEnd(l []byte, p int) int {
	for i := p; i < len(l); i++ {
		switch l[i] {
		case ':':
			if indicator(l, i) {
				return i
			}
		case '#':
			if l[i-1] == ' ' || l[i-1] == '\t' {
				return -1
			}
		}
	}
	return -1
}

// indicator reports whether the character at p stands alone: a blank
// or the end of the line follows it.
func indicator(l []byte, p int) bool {
	return p+1 >= len(l) || l[p+1] == ' ' || l[p+1] == '\t'
}

// marker reports whether l starts with a document marker ("---", "...").
func marker(l []byte, m string) bool {
	return bytes.HasPrefix(l, []byte(m)) && (len(l) == 3 || l[3] == ' ' || l[3] == '\t')
}

func skipBlank(l []byte, p int) int {
	for p < len(l) && (l[p] == ' ' || l[p] == '\t') {
		p++
	}
	return p
}

// tomlCheck returns the line on which a TOML document's arrays, inline
// tables and dotted keys first nest deeper than MaxDepth, or it
// holds more than MaxEntries keys and elements, and what it passed;
// or 0. It skips strings and comments. go-toml's parser descends once
// per bracket and keeps a node for each part of a dotted key, each
// element and each key; this runs first, so that it keeps few and never
// descends far. (Table headers and dotted keys nest without brackets;
// tomlScan counts them exactly once the parser is safe to run.)
func tomlCheck(data []byte) (int, string) {
	line, entries := 1, 0
	var open []byte // the brackets open, innermost last: '[' or '{'
	atKey := true   // a key may start here
	for i := 0; i < len(data); {
		switch c := data[i]; {
		case c == '\n':
			line++
			atKey = atKey || len(open) == 0
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case atKey:
			atKey = false
			header := len(open) == 0 && c == '['
			if header { // [a.b] or [[a.b]]
				i++
				if i < len(data) && data[i] == '[' {
					i++
				}
			}
			parts, end := tomlKeyParts(data, i)
			if parts > MaxDepth {
				return line, tooDeepMsg
			}
			if header {
				entries++
			}
			i = max(end, i+1) // a line of stray bytes: the parser refuses it
		case c == '"' || c == '\'':
			end := tomlStringEnd(data, i)
			line += bytes.Count(data[i:end], []byte{'\n'})
			i = end
		case c == '=':
			entries++
			i++
		case c == '[' || c == '{':
			if open = append(open, c); len(open) > MaxDepth {
				return line, tooDeepMsg
			}
			if c == '[' {
				entries++
			}
			atKey = c == '{'
			i++
		case c == ']' || c == '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
			i++
		case c == ',':
			if n := len(open); n > 0 && open[n-1] == '[' {
				entries++
			} else {
				atKey = n > 0
			}
			i++
		default:
			i++
		}
		if entries > MaxEntries {
			return line, tooManyEntries
		}
	}
	return 0, ""
}

// tomlKeyParts counts the parts of the TOML key at i (a.b."c.d" has
// three) and returns where it ends; it stops counting past
// MaxDepth.
func tomlKeyParts(data []byte, i int) (parts, end int) {
	for parts <= MaxDepth {
		i = skipBlank(data, i)
		if i >= len(data) {
			break
		}
		if c := data[i]; c == '"' || c == '\'' {
			i = tomlStringEnd(data, i)
		} else {
			j := i
			for j < len(data) && (data[j] >= 'a' && data[j] <= 'z' || data[j] >= 'A' && data[j] <= 'Z' ||
				data[j] >= '0' && data[j] <= '9' || data[j] == '_' || data[j] == '-') {
				j++
			}
			if j == i {
				break
			}
			i = j
		}
		parts++
		if i = skipBlank(data, i); i >= len(data) || data[i] != '.' {
			break
		}
		i++
	}
	return parts, i
}

// tomlStringEnd returns the index after the TOML string that starts at
// i: basic ("…", escapes with a backslash) or literal ('…'), on one line
// or, tripled, on several. An unclosed string ends at its line's end (at
// the end of the document if tripled), where the parser will refuse it.
func tomlStringEnd(data []byte, i int) int {
	q := data[i]
	if bytes.HasPrefix(data[i:], []byte{q, q, q}) {
		for j := i + 3; j < len(data); j++ {
			switch {
			case q == '"' && data[j] == '\\':
				j++
			case data[j] == q && bytes.HasPrefix(data[j:], []byte{q, q, q}):
				// a closing delimiter may carry one or two quotes of the text
				for j+3 < len(data) && data[j+3] == q {
					j++
				}
				return j + 3
			}
		}
		return len(data)
	}
	for j := i + 1; j < len(data); j++ {
		switch {
		case q == '"' && data[j] == '\\':
			j++
		case data[j] == q:
			return j + 1
		case data[j] == '\n':
			return j
		}
	}
	return len(data)
}
