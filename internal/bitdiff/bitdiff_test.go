package bitdiff

import (
	"math"
	"testing"
)

type inner struct {
	F    float32
	hide int
}

type value struct {
	A []inner
	M map[string]float64
	P *inner
	I any
	S string
}

func TestDiff(t *testing.T) {
	nan := float32(math.NaN())
	base := func() value {
		return value{A: []inner{{F: nan, hide: 1}}, M: map[string]float64{"x": 1}, P: &inner{F: 2}, I: inner{F: 3}, S: "s"}
	}
	if d := Diff(base(), base(), 10, true); len(d) != 0 {
		t.Errorf("equal values (a NaN included) differ: %v", d)
	}
	for _, c := range []struct {
		name       string
		change     func(*value)
		unexported bool
		want       int
	}{
		{"negative zero", func(v *value) { v.P.F = float32(math.Copysign(0, -1)) }, false, 1},
		{"float", func(v *value) { v.A[0].F = 1 }, false, 1},
		{"unexported skipped", func(v *value) { v.A[0].hide = 2 }, false, 0},
		{"unexported compared", func(v *value) { v.A[0].hide = 2 }, true, 1},
		{"map key", func(v *value) { v.M = map[string]float64{"y": 1} }, false, 1},
		{"nil pointer", func(v *value) { v.P = nil }, false, 1},
		{"interface", func(v *value) { v.I = inner{F: 4} }, false, 1},
		{"interface type", func(v *value) { v.I = 3 }, false, 1},
		{"length", func(v *value) { v.A = append(v.A, inner{}) }, false, 1},
		{"string", func(v *value) { v.S = "t" }, false, 1},
	} {
		a, b := base(), base()
		if c.name == "negative zero" {
			a.P.F = 0
		}
		c.change(&b)
		if d := Diff(a, b, 10, c.unexported); len(d) != c.want {
			t.Errorf("%s: %d differences %v, want %d", c.name, len(d), d, c.want)
		}
	}
	if d := Diff([]float32{1, 2, 3}, []float32{4, 5, 6}, 2, false); len(d) != 2 {
		t.Errorf("max 2 gave %d differences", len(d))
	}
}
