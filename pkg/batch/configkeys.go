package batch

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// ConfigKey is a configuration key whose value is a scalar or a list of
// scalars: the keys that environment variables (EnvName) and flags can
// set. Named maps (views) and lists of blocks (overrides) come from the
// file only.
type ConfigKey struct {
	// Name is the dotted key, as in the file: "render.size".
	Name string
	kind reflect.Kind // of the value, or of the elements of a list
}

// ConfigKeys lists the keys environment variables and flags can set, in
// the order of Config's fields.
func ConfigKeys() []ConfigKey {
	var out []ConfigKey
	for _, l := range leafKeys(reflect.TypeOf(Config{}), "") {
		out = append(out, ConfigKey{Name: l.key, kind: l.kind})
	}
	return out
}

// Value returns the key's value in c, such as a default for a layered
// loader to start from.
func (k ConfigKey) Value(c *Config) any {
	return fieldByKey(reflect.ValueOf(c).Elem(), k.Name).Interface()
}

// CheckString reports whether s, as an environment variable spells it, is
// a value of the key's type: list keys take comma-separated values. The
// error says what was wanted; the caller adds where s came from.
func (k ConfigKey) CheckString(s string) error {
	return checkScalarString(k.kind, s)
}

type leaf struct {
	key  string
	kind reflect.Kind // element kind for slices
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
		switch ft.Kind() {
		case reflect.Struct:
			out = append(out, leafKeys(ft, key)...)
		case reflect.Map, reflect.Pointer:
			// named maps and optional blocks come from the file only
		case reflect.Slice:
			if ft.Elem().Kind() != reflect.Struct {
				out = append(out, leaf{key, ft.Elem().Kind()})
			}
		default:
			out = append(out, leaf{key, ft.Kind()})
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
			return fmt.Errorf("want %s, got %q", kindName(k), p)
		}
	}
	return nil
}
