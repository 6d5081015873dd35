package mdx

import (
	"errors"
	"strings"
	"testing"
)

// TestMDXGeometryQuota: the binary decoder counts vertices and triangles
// over all geosets, as the MDL decoder does, and stops at the geoset that
// passes a quota with a *QuotaError naming the quota and the total.
func TestMDXGeometryQuota(t *testing.T) {
	w := header(800)
	// Three geosets of 3 vertices and 1 triangle each: 9 vertices, 3
	// triangles in all.
	w.chunk("GEOS", func(c *bb) { geosetV(c, 800); geosetV(c, 800); geosetV(c, 800) })
	for _, c := range []struct {
		q    ReadQuotas
		want string // "" for success
	}{
		{ReadQuotas{MaxVertices: 9, MaxTriangles: 3}, ""},
		{ReadQuotas{MaxVertices: 8}, "9 vertices over all geosets (ReadQuotas.MaxVertices) exceeds the quota of 8"},
		{ReadQuotas{MaxVertices: 5}, "6 vertices over all geosets (ReadQuotas.MaxVertices) exceeds the quota of 5"},
		{ReadQuotas{MaxTriangles: 2}, "3 triangles over all geosets (ReadQuotas.MaxTriangles) exceeds the quota of 2"},
	} {
		m, err := (&Decoder{Quotas: c.q}).DecodeBytes(w.b)
		if c.want == "" {
			if err != nil || len(m.Geosets) != 3 {
				t.Errorf("%+v: %v", c.q, err)
			}
			continue
		}
		var qe *QuotaError
		if !errors.As(err, &qe) || qe.Chunk != "GEOS" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want a GEOS *QuotaError containing %q", c.q, err, c.want)
		}
	}
	// DecodeAny applies the decoder's quotas to MDX and MDL alike.
	mdl, err := EncodeMDLBytes(decodeOK(t, w.b))
	if err != nil {
		t.Fatal(err)
	}
	d := &Decoder{Quotas: ReadQuotas{MaxVertices: 8}}
	for _, b := range [][]byte{w.b, mdl} {
		var qe *QuotaError
		if _, err := d.DecodeAny(b); !errors.As(err, &qe) {
			t.Errorf("DecodeAny %.4q: got %v, want a *QuotaError", b, err)
		}
	}
}
