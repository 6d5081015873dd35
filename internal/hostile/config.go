package hostile

import (
	"bytes"
	"fmt"
	"strings"
)

// Nesting is a way a configuration file nests its tables, mappings and
// lists.
type Nesting int

// The ways NestedConfig nests.
const (
	// TOMLHeader is one table header of dotted keys, [a.a.a…]: two bytes
	// a level, no brackets to count.
	TOMLHeader Nesting = iota
	// TOMLQuotedKey is one quoted key, "a.a.a…" = 1, which the reader
	// splits at its dots into tables.
	TOMLQuotedKey
	// TOMLInline is inline tables, a = {a = {a = …}}.
	TOMLInline
	// TOMLArray is arrays, a = [[[…]]].
	TOMLArray
	// YAMLFlow is bracketed lists, a: [[[…]]], one bracket a line.
	YAMLFlow
	// YAMLBlock is mappings by indentation, one more space a line
	// (its size grows with the square of the depth).
	YAMLBlock
	// YAMLCompact is block sequences on one line, - - - … a.
	YAMLCompact
	// JSONObject is objects, {"a": {"a": …}}.
	JSONObject
)

// NestedConfig returns a configuration file whose innermost value sits
// depth levels deep, the top level counting as one, and the extension its
// format needs (".toml", ".yaml", ".json"). A valid key (jobs = 1) comes
// first, on line 1; the nesting starts on line 2.
func NestedConfig(how Nesting, depth int) (ext string, data []byte) {
	var w bytes.Buffer
	inner := max(depth-1, 0) // levels below the top one
	switch how {
	case TOMLHeader:
		w.WriteString("jobs = 1\n[")
		for i := range inner {
			if i > 0 {
				w.WriteByte('.')
			}
			w.WriteByte('a')
		}
		w.WriteString("]\nb = 1\n")
		return ".toml", w.Bytes()
	case TOMLQuotedKey:
		w.WriteString("jobs = 1\n\"")
		for i := range inner + 1 {
			if i > 0 {
				w.WriteByte('.')
			}
			w.WriteByte('a')
		}
		w.WriteString("\" = 1\n")
		return ".toml", w.Bytes()
	case TOMLInline:
		w.WriteString("jobs = 1\na = ")
		w.WriteString(strings.Repeat("{a = ", inner))
		w.WriteString("1")
		w.WriteString(strings.Repeat("}", inner))
		w.WriteByte('\n')
		return ".toml", w.Bytes()
	case TOMLArray:
		w.WriteString("jobs = 1\na = ")
		w.WriteString(strings.Repeat("[", inner))
		w.WriteString(strings.Repeat("]", inner))
		w.WriteByte('\n')
		return ".toml", w.Bytes()
	case YAMLFlow:
		w.WriteString("jobs: 1\na:\n")
		w.WriteString(strings.Repeat("[\n", inner))
		w.WriteString(strings.Repeat("]", inner))
		w.WriteByte('\n')
		return ".yaml", w.Bytes()
	case YAMLBlock:
		w.WriteString("jobs: 1\n")
		for i := range inner {
			fmt.Fprintf(&w, "%sa:\n", strings.Repeat(" ", i))
		}
		fmt.Fprintf(&w, "%sa: 1\n", strings.Repeat(" ", inner))
		return ".yaml", w.Bytes()
	case YAMLCompact:
		w.WriteString("jobs: 1\na:\n")
		w.WriteString(strings.Repeat("- ", inner))
		w.WriteString("x\n")
		return ".yaml", w.Bytes()
	case JSONObject:
		w.WriteString("{\"jobs\": 1,\n")
		w.WriteString(strings.Repeat("\"a\": {", inner))
		w.WriteString(strings.Repeat("}", inner))
		w.WriteString("}\n")
		return ".json", w.Bytes()
	}
	panic(fmt.Sprintf("hostile: unknown nesting %d", how))
}

// UnknownKeysConfig returns a configuration in the format of ext
// (".yaml", ".toml" or ".json") that sets n keys no schema has, one a
// line: perMapping of them in each entry of overrides (each entry
// matching "*"), or all at the top level when perMapping is 0.
func UnknownKeysConfig(ext string, n, perMapping int) []byte {
	var w bytes.Buffer
	key := func(i int) string { return fmt.Sprintf("unknown_%07d", i) }
	switch ext {
	case ".toml":
		for i := range n {
			if perMapping > 0 && i%perMapping == 0 {
				w.WriteString("[[overrides]]\nmatch = \"*\"\n")
			}
			fmt.Fprintf(&w, "%s = 1\n", key(i))
		}
	case ".json":
		w.WriteString("{")
		if perMapping > 0 {
			w.WriteString("\"overrides\": [\n")
		}
		for i := range n {
			switch {
			case perMapping > 0 && i%perMapping == 0:
				if i > 0 {
					w.WriteString("},\n")
				}
				w.WriteString("{\"match\": \"*\",\n")
			case i > 0:
				w.WriteString(",\n")
			}
			fmt.Fprintf(&w, "\"%s\": 1", key(i))
		}
		if perMapping > 0 {
			if n > 0 {
				w.WriteString("}")
			}
			w.WriteString("]")
		}
		w.WriteString("}\n")
	default:
		if perMapping > 0 {
			w.WriteString("overrides:\n")
		}
		for i := range n {
			indent := ""
			if perMapping > 0 {
				indent = "    "
				if i%perMapping == 0 {
					w.WriteString("  - match: \"*\"\n")
				}
			}
			fmt.Fprintf(&w, "%s%s: 1\n", indent, key(i))
		}
	}
	return w.Bytes()
}

// ConfigEscapes returns a YAML configuration whose unknown keys and bad
// values, written with escapes so that the file is plain text, decode to
// names and values with terminal escapes (clear the screen, set the
// window title), a carriage return, a bell, a C1 control and a
// right-to-left override: what a message must show, not obey.
func ConfigEscapes() []byte {
	return []byte(`inputs: {files: ["a\e[2J.mdx"]}
"key\e]0;owned\a\rhidden": 1
render:
  background: "\e[31mred\u202Egnp.exe"
  team_color: "x\u0085y\x9b1m"
output:
  formats: ["png\r\nmdxrender: all good"]
views:
  "V\e[1A": {yaw: 1}
`)
}
