package mdx

import (
	"fmt"
	"math"
	"reflect"
)

// modelDiff lists up to max differences between two values of the same type,
// comparing floats by their bits (so NaN equals the same NaN, which
// reflect.DeepEqual does not allow) and skipping unexported fields (file
// layout details). Shared with the MDL tests.
func modelDiff(a, b any, max int) []string {
	var out []string
	diffValue("", reflect.ValueOf(a), reflect.ValueOf(b), &out, max)
	return out
}

func diffValue(path string, a, b reflect.Value, out *[]string, max int) {
	if len(*out) >= max {
		return
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				*out = append(*out, fmt.Sprintf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil()))
			}
			return
		}
		diffValue(path, a.Elem(), b.Elem(), out, max)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			diffValue(path+"."+f.Name, a.Field(i), b.Field(i), out, max)
		}
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			*out = append(*out, fmt.Sprintf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil()))
			return
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			*out = append(*out, fmt.Sprintf("%s: len %d vs %d", path, a.Len(), b.Len()))
			return
		}
		for i := 0; i < a.Len() && len(*out) < max; i++ {
			diffValue(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i), out, max)
		}
	case reflect.Float32:
		if math.Float32bits(float32(a.Float())) != math.Float32bits(float32(b.Float())) {
			*out = append(*out, fmt.Sprintf("%s: %v vs %v", path, a.Float(), b.Float()))
		}
	case reflect.String:
		if a.String() != b.String() {
			*out = append(*out, fmt.Sprintf("%s: %q vs %q", path, a.String(), b.String()))
		}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		if a.Int() != b.Int() {
			*out = append(*out, fmt.Sprintf("%s: %d vs %d", path, a.Int(), b.Int()))
		}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		if a.Uint() != b.Uint() {
			*out = append(*out, fmt.Sprintf("%s: %d vs %d", path, a.Uint(), b.Uint()))
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			*out = append(*out, fmt.Sprintf("%s: %v vs %v", path, a.Bool(), b.Bool()))
		}
	default:
		*out = append(*out, fmt.Sprintf("%s: cannot compare kind %s", path, a.Kind()))
	}
}
