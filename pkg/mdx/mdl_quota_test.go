package mdx

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

// TestMDLGeometryQuota: geometry over the quotas fails with a *MDLError
// at the item that passes the limit, wrapping a *QuotaError, without the
// rest of the list being read.
func TestMDLGeometryQuota(t *testing.T) {
	small := hostile.MDLGeometry(300, 200)
	if m, err := DecodeMDL(small); err != nil || len(m.Geosets[0].Vertices) != 300 || len(m.Geosets[0].Faces) != 600 {
		t.Fatalf("within the quotas: %v", err)
	}
	for _, c := range []struct {
		q    ReadQuotas
		want string
	}{
		{ReadQuotas{MaxVertices: 299}, "more than 299 vertices, the ReadQuotas.MaxVertices quota"},
		{ReadQuotas{MaxTriangles: 199}, "more than 199 triangles, the ReadQuotas.MaxTriangles quota"},
		{ReadQuotas{MaxFileSize: len(small) - 1}, "more than the ReadQuotas.MaxFileSize quota"},
	} {
		_, err := (&Decoder{Quotas: c.q}).DecodeMDL(small)
		var me *MDLError
		var qe *QuotaError
		if !errors.As(err, &me) || !errors.As(err, &qe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want a *MDLError wrapping a *QuotaError, containing %q", c.q, err, c.want)
		}
	}
	if _, err := (&Decoder{Quotas: ReadQuotas{MaxVertices: 300, MaxTriangles: 200}}).DecodeMDL(small); err != nil {
		t.Errorf("at the quotas: %v", err)
	}
	_, err := (&Decoder{Quotas: ReadQuotas{MaxVertices: 10}}).DecodeMDL(small)
	var me *MDLError
	line := 1 + strings.Count(string(small[:strings.Index(string(small), "Vertices")]), "\n")
	if errors.As(err, &me); me == nil || me.Line != line || me.Column < 100 || me.Column > 200 {
		t.Errorf("got %v, want the error on line %d (the Vertices line) at the 11th vertex", err, line)
	}
}

// TestHostileMDLVertexLine is the hostile-input table's MDL whose one line
// holds millions of vertices, at the smallest size over the default quota
// (the 6.5 million vertex, 100 MB case is in testdata/hostile): it fails at
// vertex 1,048,577 having allocated little more than the vertices read.
func TestHostileMDLVertexLine(t *testing.T) {
	b := hostile.MDLGeometry(1<<20+1, 1)
	var a, z runtime.MemStats
	runtime.ReadMemStats(&a)
	_, err := DecodeMDL(b)
	runtime.ReadMemStats(&z)
	if err == nil || !strings.Contains(err.Error(), "more than 1048576 vertices") {
		t.Errorf("got %v, want the MaxVertices quota error", err)
	}
	if n := z.TotalAlloc - a.TotalAlloc; n > 64<<20 {
		t.Errorf("allocated %d bytes", n)
	}
}

// TestMDLCorpusWithinQuotas parses every corpus MDL model with a
// sixteenth of the default geometry quotas: the defaults are at least
// sixteen times what real models have.
func TestMDLCorpusWithinQuotas(t *testing.T) {
	d := Decoder{Quotas: DefaultQuotas}
	d.Quotas.MaxVertices /= 16
	d.Quotas.MaxTriangles /= 16
	n := 0
	for _, e := range corpusMDL(t) {
		if _, skip := mdlNotAModel(e); skip {
			continue
		}
		b, err := os.ReadFile(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		var qe *QuotaError
		if _, err := d.DecodeMDL(b); errors.As(err, &qe) {
			t.Errorf("%s: %v", e.Rel, err)
		}
		n++
	}
	if n == 0 {
		t.Skip("no corpus MDL files")
	}
}
