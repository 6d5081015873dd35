package mdx

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/allocs"
	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
)

// TestMDLGeometryQuota: geometry over the limits fails with a *MDLError
// at the item that passes the limit, wrapping a *budget.Error, without
// the rest of the list being read.
func TestMDLGeometryQuota(t *testing.T) {
	small := hostile.MDLGeometry(300, 200)
	if m, err := decodeMDL(small); err != nil || len(m.Geosets[0].Vertices) != 300 || len(m.Geosets[0].Faces) != 600 {
		t.Fatalf("within the quotas: %v", err)
	}
	for _, c := range []struct {
		l    budget.Limits
		want string
	}{
		{budget.Limits{Vertices: 299}, "more than 299 vertices, the vertices limit"},
		{budget.Limits{Triangles: 199}, "more than 199 triangles, the triangles limit"},
	} {
		_, err := DecodeMDL(small, c.l)
		var me *MDLError
		var be *budget.Error
		if !errors.As(err, &me) || !errors.As(err, &be) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want a *MDLError wrapping a *budget.Error, containing %q", c.l, err, c.want)
		}
	}
	if _, err := DecodeMDL(small, budget.Limits{Vertices: 300, Triangles: 200}); err != nil {
		t.Errorf("at the limits: %v", err)
	}
	_, err := DecodeMDL(small, budget.Limits{Vertices: 10})
	var me *MDLError
	line := 1 + strings.Count(string(small[:strings.Index(string(small), "Vertices")]), "\n")
	if errors.As(err, &me); me == nil || me.Line != line || me.Column < 100 || me.Column > 200 {
		t.Errorf("got %v, want the error on line %d (the Vertices line) at the 11th vertex", err, line)
	}
}

// TestHostileMDLVertexLine is the hostile-input table's MDL whose one line
// holds millions of vertices, at the smallest size over the default quota
// (the 6.5 million vertex, 100 MB case is in testdata/hostile): it fails at
// vertex 524,289 having allocated little more than the vertices read.
func TestHostileMDLVertexLine(t *testing.T) {
	b := hostile.MDLGeometry(512<<10+1, 1)
	var err error
	n := allocs.Bytes(func() { _, err = decodeMDL(b) })
	if err == nil || !strings.Contains(err.Error(), "more than 524288 vertices") {
		t.Errorf("got %v, want the vertices limit's error", err)
	}
	if n > 64<<20 {
		t.Errorf("allocated %d bytes", n)
	}
}

// TestMDLCorpusWithinQuotas parses every corpus MDL model with a
// sixteenth of the default geometry limits: the defaults are at least
// sixteen times what real models have.
func TestMDLCorpusWithinQuotas(t *testing.T) {
	var lim budget.Limits
	lim.Vertices = budget.Vertices.Default() / 16
	lim.Triangles = budget.Triangles.Default() / 16
	n := 0
	for _, e := range corpusMDL(t) {
		if _, skip := mdlNotAModel(e); skip {
			continue
		}
		b, err := os.ReadFile(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		var be *budget.Error
		if _, err := DecodeMDL(b, lim); errors.As(err, &be) {
			t.Errorf("%s: %v", e.Rel, err)
		}
		n++
	}
	if n == 0 {
		t.Skip("no corpus MDL files")
	}
}
