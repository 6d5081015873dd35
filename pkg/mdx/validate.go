package mdx

import "fmt"

// ValidationError reports a model whose parts are individually well formed
// but refer to each other inconsistently (an index out of range, list lengths
// that disagree), which would make code that poses or draws it index out of
// bounds.
type ValidationError struct {
	Object string // e.g. "geoset 2"
	Reason string
}

func (e *ValidationError) Error() string { return "mdx: " + e.Object + ": " + e.Reason }

// Validate checks the cross-references a renderer relies on: per geoset,
// that faces index existing vertices, that per-vertex lists (normals, vertex
// groups unless SKIN is present, UV sets, tangents, skin) have one entry per
// vertex, and that the matrix groups fit in the matrix index list; and that
// the WoW emitters name existing bones and textures. Decode does not call it, so
// that odd files still load (and re-save) unchanged.
func (m *Model) Validate() error {
	for i := range m.Geosets {
		g := &m.Geosets[i]
		obj := fmt.Sprintf("geoset %d", i)
		nv := len(g.Vertices)
		bad := func(format string, args ...any) error {
			return &ValidationError{Object: obj, Reason: fmt.Sprintf(format, args...)}
		}
		if len(g.Normals) != nv {
			return bad("%d normals for %d vertices", len(g.Normals), nv)
		}
		for j, f := range g.Faces {
			if int(f) >= nv {
				return bad("face index %d (position %d) is out of range of %d vertices", f, j, nv)
			}
		}
		// A geoset with SKIN is skinned by it; Reforged files leave GNDX
		// empty or fill it with 255 then.
		if g.Skin == nil {
			if len(g.VertexGroups) != nv {
				return bad("%d vertex groups (GNDX) for %d vertices", len(g.VertexGroups), nv)
			}
			for j, vg := range g.VertexGroups {
				if int(vg) >= len(g.MatrixGroups) {
					return bad("vertex %d uses matrix group %d of %d", j, vg, len(g.MatrixGroups))
				}
			}
		}
		sum := 0
		for _, n := range g.MatrixGroups {
			sum += int(n)
		}
		if sum > len(g.MatrixIndices) {
			return bad("matrix groups (MTGC) list %d bones but MATS has %d indices", sum, len(g.MatrixIndices))
		}
		for j, uv := range g.UVSets {
			if len(uv) != nv {
				return bad("UV set %d has %d coordinates for %d vertices", j, len(uv), nv)
			}
		}
		if g.Tangents != nil && len(g.Tangents) != nv {
			return bad("%d tangents for %d vertices", len(g.Tangents), nv)
		}
		if g.Skin != nil && len(g.Skin) != 8*nv {
			return bad("%d skin bytes for %d vertices (want 8 each)", len(g.Skin), nv)
		}
	}
	return m.validateWoWEmitters()
}
