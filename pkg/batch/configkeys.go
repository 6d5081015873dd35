package batch

import (
	"encoding"

	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
)

// ConfigKey is a configuration key whose value is a scalar or a list of
// scalars: the keys that environment variables (EnvName) and flags can
// set. Named maps (views) and lists of blocks (overrides) come from the
// file only.
type ConfigKey struct {
	// Name is the dotted key, as in the file: "render.size".
	Name string
	kind reflect.Kind // of the value, or of the elements of a list
	// text is the value's type when it reads itself from text (Size).
	text reflect.Type
}

// ConfigKeys lists the keys environment variables and flags can set, in
// the order of Config's fields.
func ConfigKeys() []ConfigKey {
	var out []ConfigKey
	for _, l := range leafKeys(reflect.TypeOf(Config{}), "") {
		out = append(out, ConfigKey{Name: l.key, kind: l.kind, text: l.text})
	}
	return out
}

// Value returns the key's value in c, such as a default for a layered
// loader to start from. A value that writes itself as text (a Size) is
// given as that text, the form files and variables use.
func (k ConfigKey) Value(c *Config) any {
	v := fieldByKey(reflect.ValueOf(c).Elem(), k.Name).Interface()
	if m, ok := v.(encoding.TextMarshaler); ok && k.text != nil {
		if b, err := m.MarshalText(); err == nil {
			return string(b)
		}
	}
	return v
}

// IsText reports whether the key's value is a type that reads itself from
// text (such as Size), and Parse reads a value of it; loaders use them to
// turn strings and numbers from variables, flags and files into it.
func (k ConfigKey) IsText() bool { return k.text != nil }

// CheckString reports whether s, as an environment variable spells it, is
// a value of the key's type: list keys take comma-separated values. The
// error says what was wanted; the caller adds where s came from.
func (k ConfigKey) CheckString(s string) error {
	if k.text != nil {
		return reflect.New(k.text).Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
	}
	return checkScalarString(k.kind, s)
}

type leaf struct {
	key  string
	kind reflect.Kind // element kind for slices
	text reflect.Type // set for a type that reads itself from text
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// isText reports whether values of t are scalars that read themselves
// from text (Size), not blocks of keys.
func isText(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && reflect.PointerTo(t).Implements(textUnmarshaler)
}

// leafKeys lists the keys with scalar or scalar-list values below structs,
// which are the keys environment variables and flags can set.
func leafKeys(t reflect.Type, prefix string) []leaf {
	var out []leaf
	for i := 0; i < t.NumField(); i++ {
		tag, ok := fieldKey(t.Field(i))
		if !ok {
			continue
		}
		key := join(prefix, tag)
		ft := t.Field(i).Type
		switch {
		case isText(ft):
			out = append(out, leaf{key: key, kind: reflect.String, text: ft})
			continue
		}
		switch ft.Kind() {
		case reflect.Struct:
			out = append(out, leafKeys(ft, key)...)
		case reflect.Map, reflect.Pointer:
			// named maps and optional blocks come from the file only
		case reflect.Slice:
			if ft.Elem().Kind() != reflect.Struct {
				out = append(out, leaf{key: key, kind: ft.Elem().Kind()})
			}
		default:
			out = append(out, leaf{key: key, kind: ft.Kind()})
		}
	}
	return out
}

func fieldByKey(v reflect.Value, key string) reflect.Value {
	for _, part := range strings.Split(key, ".") {
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if tag, _ := fieldKey(t.Field(i)); tag == part {
				v = v.Field(i)
				break
			}
		}
	}
	return v
}

// checkScalarString checks an environment string against a key's kind; list
// keys take comma-separated values.
func checkScalarString(k reflect.Kind, s string) error {
	parts := []string{s}
	if strings.Contains(s, ",") {
		parts = strings.Split(s, ",")
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		var err error
		switch k {
		case reflect.Int:
			_, err = strconv.Atoi(p)
		case reflect.Float64:
			_, err = strconv.ParseFloat(p, 64)
		case reflect.Bool:
			_, err = strconv.ParseBool(p)
		}
		if err != nil {
			return fmt.Errorf("want %s, got %s", kindName(k), clip.Quote(p))
		}
	}
	return nil
}
