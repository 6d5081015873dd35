package mdx

import (
	"errors"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// TestMDXGeometryQuota: the binary decoder counts vertices and triangles
// over all geosets, as the MDL decoder does, and stops at the geoset that
// passes a limit with a *budget.Error naming the limit and the total.
func TestMDXGeometryQuota(t *testing.T) {
	w := header(800)
	// Three geosets of 3 vertices and 1 triangle each: 9 vertices, 3
	// triangles in all.
	w.chunk("GEOS", func(c *bb) { geosetV(c, 800); geosetV(c, 800); geosetV(c, 800) })
	for _, c := range []struct {
		l    budget.Limits
		want string // "" for success
	}{
		{budget.Limits{Vertices: 9, Triangles: 3}, ""},
		{budget.Limits{Vertices: 8}, "GEOS at offset 0x402, the geoset that passes it: needs 9 vertices, over the vertices limit of 8"},
		{budget.Limits{Vertices: 5}, "needs 6 vertices, over the vertices limit of 5"},
		{budget.Limits{Triangles: 2}, "needs 3 triangles, over the triangles limit of 2"},
	} {
		m, err := Decode(w.b, c.l)
		if c.want == "" {
			if err != nil || len(m.Geosets) != 3 {
				t.Errorf("%+v: %v", c.l, err)
			}
			continue
		}
		var be *budget.Error
		if !errors.As(err, &be) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want a *budget.Error containing %q", c.l, err, c.want)
		}
	}
	// The limits apply to MDX and MDL alike.
	mdl, err := encodeMDLT(decodeOK(t, w.b))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{w.b, mdl} {
		var be *budget.Error
		if _, err := decodeAny(b, budget.Limits{Vertices: 8}); !errors.As(err, &be) || be.Limit != budget.Vertices {
			t.Errorf("%.4q: got %v, want a vertices *budget.Error", b, err)
		}
	}
}
