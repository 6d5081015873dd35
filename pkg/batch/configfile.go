package batch

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"

	"github.com/pelletier/go-toml/v2"
	yaml "go.yaml.in/yaml/v3"
)

// ConfigFile is a configuration file decoded and checked against the
// Config schema: the layer between the built-in defaults and the MDXR_
// environment variables and flags, which a layered loader merges in that
// order (the command line's loader does).
type ConfigFile struct {
	// Name is the file name as given; relative paths in the file are
	// relative to its folder (Config.File).
	Name string
	// Values holds the keys the file sets as nested map[string]any, lists
	// and scalars, in the shapes a map-merging loader takes; nil for an
	// empty file.
	Values map[string]any
	// Origins maps the keys the file sets, dotted as in error messages
	// ("render.size", "overrides[0].match"), to "name:line" (see
	// Config.SetOrigin). TOML keeps no positions, so it gives none, and
	// errors about its keys name the file.
	Origins map[string]string
}

// DecodeConfigFile decodes a configuration file; its extension picks the
// format: .yaml or .yml, .json (read as YAML, which it is a subset of, so
// one parser gives line numbers for both) or .toml. Every unknown key,
// list or mapping in the wrong place and scalar of the wrong type is
// reported, together, as *ConfigError values naming the file, line and
// key (errors.Join), and the ConfigFile is returned too, without the keys
// in error, so the loader can check the rest in the same pass; a file that
// does not parse gives one error and no ConfigFile. Values are not
// range-checked here: that is Config.Validate's job once all layers are
// merged.
func DecodeConfigFile(name string, data []byte) (*ConfigFile, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	var root *yaml.Node
	hasLines := true
	switch ext {
	case "yaml", "yml", "json":
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("config: %s: %w", name, err)
		}
		if len(doc.Content) > 0 {
			root = doc.Content[0]
		}
	case "toml":
		m, err := decodeTOML(data)
		if err != nil {
			// The wording is what the earlier TOML reader (viper's) said.
			return nil, fmt.Errorf("config: %s: While parsing config: %w", name, err)
		}
		var n yaml.Node
		if err := n.Encode(m); err != nil {
			return nil, fmt.Errorf("config: %s: %w", name, err)
		}
		root, hasLines = &n, false
	default:
		return nil, fmt.Errorf("config: %s: unknown extension %q (want .yaml, .yml, .toml or .json)", name, ext)
	}
	f := &ConfigFile{Name: name, Origins: map[string]string{}}
	if root == nil || root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return f, nil
	}
	w := &walker{file: name, lines: map[string]int{}, hasLines: hasLines}
	if !w.check(root, reflect.TypeOf(Config{}), "") {
		return nil, errors.Join(w.errs...)
	}
	if err := root.Decode(&f.Values); err != nil {
		return nil, errors.Join(append(w.errs, fmt.Errorf("config: %s: %w", name, err))...)
	}
	for k, l := range w.lines {
		if l > 0 {
			f.Origins[k] = fmt.Sprintf("%s:%d", name, l)
		} else {
			f.Origins[k] = name
		}
	}
	// The keys that were wrong are left out of Values; the rest is
	// returned with the errors, so that a loader can range-check it and
	// report every problem of the file in one pass.
	return f, errors.Join(w.errs...)
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

// walker checks a YAML node tree against the Config type: unknown keys,
// wrong shapes and scalars of the wrong type, each with its line.
type walker struct {
	file     string
	lines    map[string]int
	hasLines bool
	errs     []error
	memo     map[memoKey]bool
}

type memoKey struct {
	n *yaml.Node
	t reflect.Type
}

func (w *walker) at(n *yaml.Node) string {
	if w.hasLines && n.Line > 0 {
		return fmt.Sprintf("%s:%d", w.file, n.Line)
	}
	return w.file
}

func (w *walker) fail(n *yaml.Node, key, format string, a ...any) {
	w.errs = append(w.errs, &ConfigError{Where: w.at(n), Key: key, Msg: fmt.Sprintf(format, a...)})
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// check walks n against t and reports whether n is usable as a value of
// t. A key that is unknown, given twice or holds an unusable value is
// reported and removed from its mapping, so that what is left decodes and
// the remaining values can still be range-checked in the same pass; a
// list with an unusable element is unusable as a whole.
func (w *walker) check(n *yaml.Node, t reflect.Type, path string) bool {
	aliased := false
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n, aliased = n.Alias, true
	}
	if aliased {
		// An anchored node is checked once per type, however often it is
		// aliased: a few bytes of aliases to a large anchor must not make
		// the walk quadratic (the decoder refuses such documents later).
		k := memoKey{n, t}
		if ok, seen := w.memo[k]; seen {
			return ok
		}
		if w.memo == nil {
			w.memo = map[memoKey]bool{}
		}
		w.memo[k] = true // a cycle through an alias is taken as fine here
		ok := w.check(n, t, path)
		w.memo[k] = ok
		return ok
	}
	if w.hasLines {
		if _, ok := w.lines[path]; !ok && path != "" {
			w.lines[path] = n.Line
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return true // an empty value leaves the default
	}
	if isText(t) {
		if n.Kind != yaml.ScalarNode {
			w.fail(n, path, "want a value, got %s", describe(n))
			return false
		}
		if err := n.Decode(reflect.New(t).Interface()); err != nil {
			w.fail(n, path, "%v", err)
			return false
		}
		return true
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			w.fail(n, path, "want a mapping of keys, got %s", describe(n))
			return false
		}
		fields := map[string]reflect.Type{}
		var names []string
		for i := 0; i < t.NumField(); i++ {
			if tag, ok := fieldKey(t.Field(i)); ok {
				fields[tag] = t.Field(i).Type
				names = append(names, tag)
			}
		}
		seen := map[string]bool{}
		kept := n.Content[:0:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			key := join(path, kn.Value)
			if seen[kn.Value] {
				w.fail(kn, key, "key given twice")
				continue
			}
			seen[kn.Value] = true
			ft, ok := fields[kn.Value]
			if !ok {
				w.fail(kn, key, "unknown key (known here: %s)", strings.Join(names, ", "))
				continue
			}
			if w.hasLines {
				w.lines[key] = kn.Line
			}
			if w.check(vn, ft, key) {
				kept = append(kept, kn, vn)
			}
		}
		n.Content = kept
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			w.fail(n, path, "want a mapping of names, got %s", describe(n))
			return false
		}
		seen := map[string]bool{}
		kept := n.Content[:0:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			key := join(path, kn.Value)
			if !validName(kn.Value) {
				w.fail(kn, key, "name %s must be lower-case letters, digits, '-' or '_' (keys are case-blind)", clip.Quote(kn.Value))
				continue
			}
			if seen[kn.Value] {
				w.fail(kn, key, "name given twice")
				continue
			}
			seen[kn.Value] = true
			if w.hasLines {
				w.lines[key] = kn.Line
			}
			if w.check(vn, t.Elem(), key) {
				kept = append(kept, kn, vn)
			}
		}
		n.Content = kept
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			w.fail(n, path, "want a list, got %s", describe(n))
			return false
		}
		ok := true
		for i, c := range n.Content {
			ok = w.check(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i)) && ok
		}
		return ok
	default:
		if n.Kind != yaml.ScalarNode {
			w.fail(n, path, "want %s, got %s", kindName(t.Kind()), describe(n))
			return false
		}
		p := reflect.New(t)
		// YAML reads 12.5 into an integer as 12; a size or count written
		// with a fraction is a mistake to report, not to round.
		isInt := t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64
		if err := n.Decode(p.Interface()); err != nil || isInt && n.ShortTag() != "!!int" {
			w.fail(n, path, "want %s, got %s", kindName(t.Kind()), clip.Quote(n.Value))
			return false
		}
	}
	return true
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	default:
		return clip.Quote(n.Value)
	}
}

func kindName(k reflect.Kind) string {
	switch k {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	}
	return k.String()
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// fieldKey returns the key of a Config field in files (its yaml tag), or
// false for a field that is not a key.
func fieldKey(f reflect.StructField) (string, bool) {
	tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return tag, tag != "" && tag != "-" && f.IsExported()
}
