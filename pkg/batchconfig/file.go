package batchconfig

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/batch"

	yaml "go.yaml.in/yaml/v3"
)

// File is a configuration file decoded and checked against the Config
// schema: the layer between the built-in defaults and the MDXR_
// environment variables and flags (Load).
type File struct {
	// Name is the file name as given; relative paths in the file are
	// relative to its folder (batch.Options.Base).
	Name string
	// Origins maps the keys the file sets, dotted as in error messages
	// ("render.size", "overrides[0].match"), to "name:line".
	Origins map[string]string
	// root is the document, its keys in error and its empty values left
	// out; nil for an empty file.
	root *yaml.Node
}

// Apply sets the keys the file sets in c, leaving the others as they are.
func (f *File) Apply(c *Config) error {
	if f.root == nil {
		return nil
	}
	return f.root.Decode(c)
}

// DecodeFile decodes a configuration file; its extension picks the
// format: .yaml or .yml, .json (read as YAML, which it is a subset of, so
// one parser gives line numbers for both) or .toml. A file larger than
// MaxSize, one that is not UTF-8 text or holds control characters,
// and one nested deeper than MaxDepth are refused before a parser
// builds anything. Every unknown key, list or mapping in the wrong place
// and scalar of the wrong type is reported, together, as a *Errors
// of *Error values naming the file, line and key, and the
// File is returned too, without the keys in error, so the loader
// can check the rest in the same pass; a file that cannot be read gives
// one *Error, naming the line where it can be, and no File.
// Values are not range-checked here: that is Config.Validate's job once
// all layers are merged.
func DecodeFile(name string, data []byte) (*File, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	switch ext {
	case "yaml", "yml", "json", "toml":
	default:
		return nil, &Error{Where: name, Msg: fmt.Sprintf("unknown extension %s (want .yaml, .yml, .toml or .json)", clip.Quote(ext))}
	}
	if len(data) > MaxSize {
		return nil, &Error{Where: name, Msg: fmt.Sprintf("larger than %d bytes (1 MiB), the most a configuration file may have", MaxSize)}
	}
	if line, what := checkText(data); line > 0 {
		return nil, &Error{Where: fmt.Sprintf("%s:%d", name, line), Msg: what + ": a configuration file is UTF-8 text"}
	}
	var root *yaml.Node
	if ext == "toml" {
		var err error
		if root, err = tomlNode(name, data); err != nil {
			return nil, err
		}
	} else {
		if line, what := yamlCheck(data); line > 0 {
			return nil, &Error{Where: fmt.Sprintf("%s:%d", name, line), Msg: what}
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, yamlError(name, ext, data, err, 0)
		}
		if len(doc.Content) > 0 {
			root = doc.Content[0]
		}
	}
	f := &File{Name: name, Origins: map[string]string{}}
	if root == nil || root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return f, nil
	}
	w := &walker{file: name, lines: map[string]int{}}
	if !w.check(root, reflect.TypeOf(Config{}), "") {
		return nil, w.errs.Err()
	}
	f.root = root
	if err := f.Apply(&Config{}); err != nil {
		// The decoder's only refusal here is of a document whose
		// aliases expand too far: it names no line, the first alias has
		// one.
		w.errs.Add(yamlError(name, ext, data, err, w.aliasLine))
		return nil, w.errs.Err()
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
	return f, w.errs.Err()
}

// ReadFile reads the configuration file at path name and decodes it
// with DecodeFile. It reads at most one byte more than
// MaxSize, so that a larger file, or a device that never ends, is
// refused without being read whole.
func ReadFile(name string) (*File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return DecodeFile(name, data)
}

// yamlLine matches the position go-yaml puts in front of a message.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlParserProblems are the messages of go-yaml's parser, which give
// the line counted from 0 (its scanner's count from 1); at the end of a
// document without a final newline, the count is the last line's.
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true,
	"did not find expected '-' indicator": true, "did not find expected <document start>": true,
	"did not find expected <stream-start>": true, "did not find expected key": true,
	"did not find expected node content": true, "found duplicate %TAG directive": true,
	"found duplicate %YAML directive": true, "found incompatible YAML document": true,
	"found undefined tag handle": true,
}

// yamlAnchor matches go-yaml's messages about an anchor, which give no
// line: the line is that of the alias or anchor named.
var yamlAnchor = regexp.MustCompile(`^yaml: (unknown anchor|anchor) '([^']*)' `)

// yamlError turns an error of go-yaml about data into a *Error
// naming the file and line, and the format the file was meant to be in
// (JSON is read as YAML); line is the line for an error that has none.
func yamlError(name, ext string, data []byte, err error, line int) error {
	format := "YAML"
	if ext == "json" {
		format = "JSON"
	}
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
		if yamlParserProblems[msg] {
			last := bytes.Count(data, []byte{'\n'})
			if len(data) > 0 && data[len(data)-1] != '\n' {
				last++
			}
			line = min(line+1, max(last, 1))
		}
	} else if m := yamlAnchor.FindStringSubmatch(msg); m != nil {
		mark := "*"
		if m[1] == "anchor" {
			mark = "&"
		}
		if i := bytes.Index(data, []byte(mark+m[2])); i >= 0 {
			line = bytes.Count(data[:i], []byte{'\n'}) + 1
		}
	}
	if line == 0 {
		line = 1 // go-yaml leaves the line out when it is the first
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	return &Error{Where: fmt.Sprintf("%s:%d", name, line), Msg: fmt.Sprintf("not valid %s: %s", format, msg)}
}

// walker checks a YAML node tree against the Config type: unknown keys,
// wrong shapes and scalars of the wrong type, each with its line. It
// descends only into keys the schema has, so however a file nests, the
// walk goes no deeper than the schema.
type walker struct {
	file      string
	lines     map[string]int
	errs      Errors
	memo      map[memoKey]bool
	aliasLine int // of the first alias the walk met
}

type memoKey struct {
	n *yaml.Node
	t reflect.Type
}

func (w *walker) at(n *yaml.Node) string {
	if n.Line > 0 {
		return fmt.Sprintf("%s:%d", w.file, n.Line)
	}
	return w.file
}

// fail reports a problem; past the problems shown it only counts, so a
// file of a million unknown keys costs no million messages.
func (w *walker) fail(n *yaml.Node, key, format string, a ...any) {
	w.errs.addf(w.at(n), key, format, a...)
}

// check walks n against t and reports whether n is usable as a value of
// t. A key that is unknown, given twice or holds an unusable value is
// reported and removed from its mapping, so that what is left decodes and
// the remaining values can still be range-checked in the same pass; a
// list with an unusable element is unusable as a whole. A key with an
// empty value is removed too: it leaves the value below it (a default)
// alone.
func (w *walker) check(n *yaml.Node, t reflect.Type, path string) bool {
	aliased := false
	if n.Kind == yaml.AliasNode && w.aliasLine == 0 {
		w.aliasLine = n.Line
	}
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
	if _, ok := w.lines[path]; !ok && path != "" {
		w.lines[path] = n.Line
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
	if n.Kind == yaml.MappingNode && len(n.Content) > 2*MaxKeys {
		// go-yaml's decoder compares each key with every other.
		w.fail(n.Content[2*MaxKeys], path, "more than %d keys in one mapping", MaxKeys)
		return false
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
			w.lines[key] = kn.Line
			if w.check(vn, ft, key) && !isNull(vn) {
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
			if !batch.ValidViewName(kn.Value) {
				w.fail(kn, key, "name %s must be lower-case letters, digits, '-' or '_' (keys are case-blind)", clip.Quote(kn.Value))
				continue
			}
			if seen[kn.Value] {
				w.fail(kn, key, "name given twice")
				continue
			}
			seen[kn.Value] = true
			w.lines[key] = kn.Line
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
		// YAML reads 12.5 into an integer as 12, and yes into a bool as
		// true; a size or count written with a fraction, or a switch
		// written otherwise than true or false, is a mistake to report,
		// not to round or guess.
		isInt := t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64
		isBool := t.Kind() == reflect.Bool
		if err := n.Decode(p.Interface()); err != nil || isInt && n.ShortTag() != "!!int" || isBool && n.ShortTag() != "!!bool" {
			w.fail(n, path, "want %s, got %s", kindName(t.Kind()), clip.Quote(n.Value))
			return false
		}
	}
	return true
}

// isNull reports whether n, through its aliases, is an empty value.
func isNull(n *yaml.Node) bool {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
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
