// Package bitdiff compares two values deeply for tests, floats by their
// bits: a NaN equals the same NaN, which reflect.DeepEqual does not
// allow, and +0 differs from −0, which == does not see.
package bitdiff

import (
	"fmt"
	"math"
	"reflect"
)

// Diff lists up to max differences between a and b, each as a path and
// the two values. With unexported false it skips unexported struct fields
// (an MDX file's layout details, which a round trip need not keep); with
// it set it compares them too.
func Diff(a, b any, max int, unexported bool) []string {
	d := differ{max: max, unexported: unexported}
	d.value("", reflect.ValueOf(a), reflect.ValueOf(b))
	return d.out
}

type differ struct {
	out        []string
	max        int
	unexported bool
}

func (d *differ) add(format string, args ...any) {
	d.out = append(d.out, fmt.Sprintf(format, args...))
}

func (d *differ) value(path string, a, b reflect.Value) {
	if len(d.out) >= d.max {
		return
	}
	if a.IsValid() != b.IsValid() || a.IsValid() && a.Type() != b.Type() {
		d.add("%s: %v vs %v", path, a, b)
		return
	}
	if !a.IsValid() {
		return
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				d.add("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
			}
			return
		}
		d.value(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			if !f.IsExported() && !d.unexported {
				continue
			}
			d.value(path+"."+f.Name, a.Field(i), b.Field(i))
		}
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			d.add("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
			return
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			d.add("%s: len %d vs %d", path, a.Len(), b.Len())
			return
		}
		for i := 0; i < a.Len() && len(d.out) < d.max; i++ {
			d.value(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i))
		}
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			d.add("%s: map of %d vs %d", path, a.Len(), b.Len())
			return
		}
		for _, k := range a.MapKeys() {
			d.value(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), b.MapIndex(k))
		}
	case reflect.Float32:
		if math.Float32bits(float32(a.Float())) != math.Float32bits(float32(b.Float())) {
			d.add("%s: %v vs %v", path, a.Float(), b.Float())
		}
	case reflect.Float64:
		if math.Float64bits(a.Float()) != math.Float64bits(b.Float()) {
			d.add("%s: %v vs %v", path, a.Float(), b.Float())
		}
	case reflect.String:
		if a.String() != b.String() {
			d.add("%s: %q vs %q", path, a.String(), b.String())
		}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		if a.Int() != b.Int() {
			d.add("%s: %d vs %d", path, a.Int(), b.Int())
		}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			d.add("%s: %d vs %d", path, a.Uint(), b.Uint())
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			d.add("%s: %v vs %v", path, a.Bool(), b.Bool())
		}
	default:
		d.add("%s: cannot compare kind %s", path, a.Kind())
	}
}
