package batchconfig

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	yaml "go.yaml.in/yaml/v3"
)

// tomlNode reads a TOML document into the node tree the schema check
// walks, keys folded and split as decodeTOML does, each key and element
// carrying its line. Before go-toml parses anything, tomlCheck bounds the
// nesting of brackets and dotted keys and the number of entries; before
// it decodes, tomlScan bounds the nesting of tables and the keys of each.
func tomlNode(name string, data []byte) (*yaml.Node, error) {
	if line, what := tomlCheck(data); line > 0 {
		return nil, &Error{Where: fmt.Sprintf("%s:%d", name, line), Msg: what}
	}
	lines, stop := tomlScan(data)
	if stop.line > 0 && stop.msg != "" {
		return nil, &Error{Where: fmt.Sprintf("%s:%d", name, stop.line), Msg: stop.msg}
	}
	m, err := decodeTOML(data)
	if err != nil {
		where := name
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, _ := de.Position()
			where = fmt.Sprintf("%s:%d", name, line)
		} else if stop.line > 0 {
			// go-toml gives no position for a key defined twice or a
			// value used as a table; tomlScan found where.
			where = fmt.Sprintf("%s:%d", name, stop.line)
		}
		return nil, &Error{Where: where, Msg: "not valid TOML: " + strings.TrimPrefix(err.Error(), "toml: ")}
	}
	return tomlToNode(m, lines, 1)
}

// keyLines holds where the keys of a TOML table, or the elements of an
// array, are written; the tree follows the one decodeTOML builds.
type keyLines struct {
	line  int
	keys  map[string]*keyLines
	elems []*keyLines
}

func (k *keyLines) key(name string, line int) *keyLines {
	if k.keys == nil {
		k.keys = map[string]*keyLines{}
	}
	c := k.keys[name]
	if c == nil {
		c = &keyLines{line: line}
		k.keys[name] = c
	}
	return c
}

// tomlStop is the line where tomlScan stopped early, for a document that
// nests too deep or has a table of too many keys, and the message; or,
// without a message, the line of the first key go-toml will refuse as
// defined already.
type tomlStop struct {
	line int
	msg  string
}

// tomlScan reads a TOML document's expressions with go-toml's parser,
// which parses a table header or a dotted key as a flat list, and returns
// the line of every key and element. It stops on the line where the
// document first nests deeper than MaxDepth or gives a table more
// than MaxKeys keys, and at a syntax error, where decoding stops
// too and reports it. It notes the first key go-toml will refuse as
// defined already, which go-toml reports without a line, and goes on:
// should it see a conflict go-toml does not, the rest is still checked.
func tomlScan(data []byte) (*keyLines, tomlStop) {
	root := &keyLines{line: 1}
	lc := lineCounter{data: data}
	seen := &tomlSeen{kind: tomlTable}
	var current *tomlSeen
	var p unstable.Parser
	p.Reset(data)
	table, depth, split := root, 1, true
	tooDeep := func(line int) tomlStop { return tomlStop{line, tooDeepMsg} }
	conflict := 0
	for p.NextExpression() {
		e := p.Expression()
		line := 1
		if it := e.Key(); it.Next() {
			line = lc.at(int(it.Node().Raw.Offset))
		}
		var ok bool
		if current, ok = seen.check(e, current); !ok && conflict == 0 {
			conflict = line
		}
		if seen.tooMany {
			return root, tomlStop{line, fmt.Sprintf("more than %d keys in one table", MaxKeys)}
		}
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table, depth, split = root, 1, true
			for it := e.Key(); it.Next(); {
				segs := appendSegments(nil, it.Node().Data, split)
				for i, s := range segs {
					table = table.key(s, line)
					if depth++; depth > MaxDepth {
						return root, tooDeep(line)
					}
					// A table under an array of tables ([[a]], then
					// [a.b]) is in its last element, where decodeTOML
					// no longer splits keys at dots.
					last := i == len(segs)-1 && it.IsLast()
					if n := len(table.elems); n > 0 && !last {
						table, split = table.elems[n-1], false
						if depth++; depth > MaxDepth {
							return root, tooDeep(line)
						}
					}
				}
			}
			if e.Kind == unstable.ArrayTable {
				el := &keyLines{line: line}
				table.elems = append(table.elems, el)
				table, split = el, false
				if depth++; depth > MaxDepth {
					return root, tooDeep(line)
				}
			}
		case unstable.KeyValue:
			// d counts the tables down to the one that holds the key's
			// own entry (a dotted key's parts but the last are tables).
			at, d, first := table, depth, true
			for it := e.Key(); it.Next(); {
				for _, s := range appendSegments(nil, it.Node().Data, split) {
					if !first {
						if d++; d > MaxDepth {
							return root, tooDeep(line)
						}
					}
					first = false
					at = at.key(s, line)
				}
			}
			if d+valueDepth(e.Value(), at, &lc, line, split) > MaxDepth {
				return root, tooDeep(line)
			}
		}
	}
	return root, tomlStop{line: conflict}
}

// appendSegments appends a key's folded parts: lower case and, where
// decodeTOML splits them (outside arrays), cut at dots. A key of more
// parts than a document may nest is cut after MaxDepth of them,
// which is enough to refuse it.
func appendSegments(segs []string, key []byte, split bool) []string {
	k := strings.ToLower(string(key))
	if !split {
		return append(segs, k)
	}
	return append(segs, strings.SplitN(k, ".", MaxDepth+1)...)
}

// valueDepth notes the lines of the elements and keys inside a value and
// returns how many levels it nests (0 for a scalar); split says whether
// decodeTOML splits its keys at dots (not inside arrays). Recursion
// follows brackets, which tomlCheck has bounded.
func valueDepth(v *unstable.Node, at *keyLines, lc *lineCounter, line int, split bool) int {
	switch v.Kind {
	case unstable.Array:
		deepest := 0
		for it := v.Children(); it.Next(); {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			l := line
			if off, ok := nodeOffset(lc.data, c); ok {
				l = lc.at(off)
			}
			el := &keyLines{line: l}
			at.elems = append(at.elems, el)
			deepest = max(deepest, valueDepth(c, el, lc, l, false))
		}
		return 1 + deepest
	case unstable.InlineTable:
		deepest := 0
		for it := v.Children(); it.Next(); {
			kv := it.Node()
			if kv.Kind != unstable.KeyValue {
				continue
			}
			k, d, l := at, 0, line
			for kit := kv.Key(); kit.Next(); {
				kn := kit.Node()
				l = lc.at(int(kn.Raw.Offset))
				for _, s := range appendSegments(nil, kn.Data, split) {
					k = k.key(s, l)
					if d++; d > MaxDepth {
						return d
					}
				}
			}
			deepest = max(deepest, d-1+valueDepth(kv.Value(), k, lc, l, split))
		}
		return 1 + deepest
	}
	return 0
}

// nodeOffset returns where in data a value starts: its Raw range, or
// where its bytes are (go-toml keeps no range for numbers, booleans and
// dates, but their bytes are the document's), or for an array where its
// first element starts.
func nodeOffset(data []byte, n *unstable.Node) (int, bool) {
	if n.Raw.Length > 0 {
		return int(n.Raw.Offset), true
	}
	if len(n.Data) > 0 {
		// The bytes are the document's if their first is: a slice of
		// data ends where data's storage ends.
		if off := cap(data) - cap(n.Data); off >= 0 && off < len(data) && &data[off] == &n.Data[0] {
			return off, true
		}
	}
	if n.Kind == unstable.Array {
		for it := n.Children(); it.Next(); {
			if off, ok := nodeOffset(data, it.Node()); ok {
				return off, true
			}
		}
	}
	return 0, false
}

// tomlToNode builds the node tree of a decoded TOML value: mappings with
// sorted keys, lists, and scalars as the YAML encoder writes them (so
// that the schema check reads TOML and YAML alike), with the lines of at
// (or the line of the parent where at has none).
func tomlToNode(v any, at *keyLines, line int) (*yaml.Node, error) {
	if at != nil && at.line > 0 {
		line = at.line
	}
	switch v := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: line}
		keyLine := func(k string) int {
			if at != nil {
				if sub := at.keys[k]; sub != nil && sub.line > 0 {
					return sub.line
				}
			}
			return line
		}
		// In the file's order, so that problems are reported in it too.
		keys := slices.Sorted(maps.Keys(v))
		slices.SortStableFunc(keys, func(a, b string) int { return keyLine(a) - keyLine(b) })
		for _, k := range keys {
			var sub *keyLines
			if at != nil {
				sub = at.keys[k]
			}
			kl := keyLine(k)
			c, err := tomlToNode(v[k], sub, kl)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Line: kl}, c)
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: line}
		for i, e := range v {
			var sub *keyLines
			if at != nil && i < len(at.elems) {
				sub = at.elems[i]
			}
			c, err := tomlToNode(e, sub, line)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: line}, nil
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatInt(v, 10), Line: line}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatBool(v), Line: line}, nil
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Value: s, Line: line}, nil
	}
	// Dates and times, which no key takes: as the encoder writes them.
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	n.Line = line
	return &n, nil
}

// decodeTOML parses TOML into nested maps with the keys folded to lower
// case and dotted keys ("render.size" = 64) split into tables, which is
// what configuration files written for the earlier, viper-based reader
// rely on. Where two spellings collide, the later in sorted order wins, so
// the result does not depend on map order.
func decodeTOML(data []byte) (map[string]any, error) {
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	flat := map[string]any{}
	flattenFolded(flat, "", m)
	keys := slices.Sorted(maps.Keys(flat))
	out := map[string]any{}
	for _, k := range keys {
		path := strings.Split(k, ".")
		t := out
		for _, p := range path[:len(path)-1] {
			sub, ok := t[p].(map[string]any)
			if !ok {
				sub = map[string]any{}
				t[p] = sub
			}
			t = sub
		}
		t[path[len(path)-1]] = flat[k]
	}
	return out, nil
}

// flattenFolded adds the leaves of m to flat under their lower-case dotted
// paths; tables inside lists are folded but stay in their lists, and
// empty tables set nothing.
func flattenFolded(flat map[string]any, prefix string, m map[string]any) {
	keys := slices.Sorted(maps.Keys(m))
	for _, k := range keys {
		key := strings.ToLower(k)
		if prefix != "" {
			key = prefix + "." + key
		}
		if sub, ok := m[k].(map[string]any); ok {
			flattenFolded(flat, key, sub)
			continue
		}
		flat[key] = foldValue(m[k])
	}
}

// foldValue folds the keys of the tables inside a value to lower case.
func foldValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		keys := slices.Sorted(maps.Keys(v))
		for _, k := range keys {
			out[strings.ToLower(k)] = foldValue(v[k])
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = foldValue(e)
		}
		return out
	}
	return v
}

// tomlSeen mirrors the bookkeeping go-toml's decoder keeps of a
// document's keys (internal/tracker), to find the line of what it
// refuses without one: a key or table defined twice, a value used as a
// table, a table extended after it was closed. Its entries are keyed by
// the keys as written, as go-toml's are, and it counts them: go-toml
// looks a key up among its siblings one by one, so a table of a hundred
// thousand keys would take it minutes.
type tomlSeen struct {
	kind     tomlKind
	explicit bool // a header defined it, or its table was closed
	kv       bool // a dotted key made it
	keys     map[string]*tomlSeen
	// tooMany is set on the root when a table got more than
	// MaxKeys keys.
	tooMany bool
}

type tomlKind uint8

const (
	tomlValue tomlKind = iota + 1
	tomlTable
	tomlArrayTable
)

// child returns the entry of key k, or creates it; it notes on root a
// table that gets too many keys.
func (s *tomlSeen) child(root *tomlSeen, k []byte, kind tomlKind, explicit, kv bool) (c *tomlSeen, created bool) {
	if c = s.keys[string(k)]; c != nil {
		return c, false
	}
	if s.keys == nil {
		s.keys = map[string]*tomlSeen{}
	}
	if len(s.keys) >= MaxKeys {
		root.tooMany = true
	}
	c = &tomlSeen{kind: kind, explicit: explicit, kv: kv}
	s.keys[string(k)] = c
	return c, true
}

// check takes one top-level expression, with current the table the
// expressions before left open, and returns the table open after it, or
// false where go-toml refuses it.
func (s *tomlSeen) check(e *unstable.Node, current *tomlSeen) (*tomlSeen, bool) {
	if e.Kind == unstable.KeyValue {
		if current == nil {
			current = s
		}
		return current, s.checkKeyValue(e, current)
	}
	if current != nil {
		current.close()
	}
	parent := s
	it := e.Key()
	for it.Next() && !it.IsLast() {
		c, created := parent.child(s, it.Node().Data, tomlTable, false, false)
		if !created && c.kind == tomlValue {
			return nil, false
		}
		parent = c
	}
	k := it.Node().Data
	if e.Kind == unstable.ArrayTable {
		c, created := parent.child(s, k, tomlArrayTable, true, false)
		if !created {
			if c.kind != tomlArrayTable {
				return nil, false
			}
			c.keys = nil // a new element
		}
		return c, true
	}
	c, created := parent.child(s, k, tomlTable, true, false)
	if !created {
		if c.kind != tomlTable || c.explicit {
			return nil, false
		}
		c.explicit = true
	}
	return c, true
}

// checkKeyValue checks a key and value set in table t.
func (s *tomlSeen) checkKeyValue(e *unstable.Node, t *tomlSeen) bool {
	for it := e.Key(); it.Next(); {
		c, created := t.child(s, it.Node().Data, tomlTable, false, true)
		if !created && (it.IsLast() || c.kind != tomlTable || c.explicit) {
			return false
		}
		t = c
	}
	t.kind = tomlValue
	return s.checkValue(e.Value())
}

// checkValue checks the keys of the inline tables in a value, each on
// its own as go-toml does.
func (s *tomlSeen) checkValue(v *unstable.Node) bool {
	switch v.Kind {
	case unstable.InlineTable:
		t := &tomlSeen{kind: tomlTable}
		for it := v.Children(); it.Next(); {
			if !t.checkKeyValue(it.Node(), t) {
				return false
			}
			s.tooMany = s.tooMany || t.tooMany
		}
	case unstable.Array:
		for it := v.Children(); it.Next(); {
			if !s.checkValue(it.Node()) {
				return false
			}
		}
	}
	return true
}

// close marks the tables dotted keys made under t as defined, as go-toml
// does when a header leaves t: no later header may define them.
func (s *tomlSeen) close() {
	for _, c := range s.keys {
		if c.kv {
			c.explicit, c.kv = true, false
		}
		c.close()
	}
}
