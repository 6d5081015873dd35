package batchconfig

import (
	"encoding"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mdxrender/mdxrender/internal/clip"
)

// Key is a configuration key whose value is a scalar or a list of
// scalars: the keys that environment variables (EnvName) and flags can
// set. Named maps (views) and lists of blocks (overrides) come from the
// file only.
type Key struct {
	// Name is the dotted key, as in the file: "render.size".
	Name string
	kind reflect.Kind // of the value, or of the elements of a list
	list bool
	// text is the value's type when it reads itself from text (Size).
	text reflect.Type
	// index is the field's index path in the struct the key was listed
	// from (Config for Keys).
	index []int
}

// Keys lists the keys environment variables and flags can set, in the
// order of Config's fields.
func Keys() []Key { return slices.Clone(configKeys()) }

// configKeys are Keys, listed once: Load gets and sets every key through
// viper, and finding fields by their tags each time cost more than viper.
var configKeys = sync.OnceValue(func() []Key { return leafKeys(reflect.TypeOf(Config{}), "", nil) })

// lookupKey returns the key named name.
func lookupKey(name string) (Key, bool) {
	for _, k := range configKeys() {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}

// parse reads s, as an environment variable spells a value of the key:
// list keys take comma-separated values. The error says what was wanted;
// the caller adds where s came from.
func (k Key) parse(s string) (any, error) {
	if k.text != nil {
		p := reflect.New(k.text)
		if err := p.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			return nil, err
		}
		return p.Elem().Interface(), nil
	}
	if !k.list {
		return parseScalar(k.kind, s)
	}
	out := reflect.MakeSlice(reflect.SliceOf(reflect.TypeOf(zero(k.kind))), 0, 0)
	if s == "" {
		return out.Interface(), nil
	}
	for _, p := range strings.Split(s, ",") {
		v, err := parseScalar(k.kind, p)
		if err != nil {
			return nil, err
		}
		out = reflect.Append(out, reflect.ValueOf(v))
	}
	return out.Interface(), nil
}

// parseScalar reads one value of kind k; numbers and booleans may have
// spaces around them, strings are taken as they are.
func parseScalar(k reflect.Kind, s string) (any, error) {
	t := strings.TrimSpace(s)
	var v any
	var err error
	switch k {
	case reflect.Int:
		v, err = strconv.Atoi(t)
	case reflect.Int64:
		v, err = strconv.ParseInt(t, 10, 64)
	case reflect.Float64:
		v, err = strconv.ParseFloat(t, 64)
	case reflect.Bool:
		v, err = strconv.ParseBool(t)
	default:
		v = s
	}
	if err != nil {
		return nil, fmt.Errorf("want %s, got %s", kindName(k), clip.Quote(t))
	}
	return v, nil
}

// zero is a zero value of a scalar kind, for the type of a list of it.
func zero(k reflect.Kind) any {
	switch k {
	case reflect.Int:
		return 0
	case reflect.Int64:
		return int64(0)
	case reflect.Float64:
		return 0.0
	case reflect.Bool:
		return false
	}
	return ""
}

// set sets the key in c to v, a value of its type or one that converts to
// it: an integer of another size, a number for a float, text for a type
// that reads itself from text.
func (k Key) set(c *Config, v any) error {
	f := reflect.ValueOf(c).Elem().FieldByIndex(k.index)
	rv := reflect.ValueOf(v)
	switch {
	case !rv.IsValid():
		return fmt.Errorf("no value")
	case rv.Type().AssignableTo(f.Type()):
		f.Set(rv)
	case k.text != nil && rv.Kind() == reflect.String:
		return f.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(rv.String()))
	case isNumber(rv.Kind()) && isNumber(f.Kind()):
		f.Set(rv.Convert(f.Type()))
	default:
		return fmt.Errorf("want %s, got %v", kindName(k.kind), v)
	}
	return nil
}

// get returns the key's value in c.
func (k Key) get(c *Config) any {
	return reflect.ValueOf(c).Elem().FieldByIndex(k.index).Interface()
}

// convert returns v as a value of the key's field type, as set would set
// it, so that a value is checked, and its error blamed on its source,
// before viper weighs it against the other layers'.
func (k Key) convert(v any) (any, error) {
	var c Config
	if err := k.set(&c, v); err != nil {
		return nil, err
	}
	return k.get(&c), nil
}

func isNumber(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Float64
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// isText reports whether values of t are scalars that read themselves
// from text (Size), not blocks of keys.
func isText(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && reflect.PointerTo(t).Implements(textUnmarshaler)
}

// leafKeys lists the keys with scalar or scalar-list values below structs,
// which are the keys environment variables and flags can set; t's fields
// are at index below the struct the listing started from.
func leafKeys(t reflect.Type, prefix string, index []int) []Key {
	var out []Key
	for i := 0; i < t.NumField(); i++ {
		tag, ok := fieldKey(t.Field(i))
		if !ok {
			continue
		}
		key := join(prefix, tag)
		at := append(slices.Clip(index), i)
		ft := t.Field(i).Type
		if isText(ft) {
			out = append(out, Key{Name: key, kind: reflect.String, text: ft, index: at})
			continue
		}
		switch ft.Kind() {
		case reflect.Struct:
			out = append(out, leafKeys(ft, key, at)...)
		case reflect.Map, reflect.Pointer:
			// named maps and optional blocks come from the file only
		case reflect.Slice:
			if ft.Elem().Kind() != reflect.Struct {
				out = append(out, Key{Name: key, kind: ft.Elem().Kind(), list: true, index: at})
			}
		default:
			out = append(out, Key{Name: key, kind: ft.Kind(), index: at})
		}
	}
	return out
}

// fieldKey returns the key of a Config field in files (its yaml tag), or
// false for a field that is not a key.
func fieldKey(f reflect.StructField) (string, bool) {
	tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return tag, tag != "" && tag != "-" && f.IsExported()
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
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
