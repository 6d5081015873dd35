package mdx

// This file holds the writers of what only the WoW dialect has (see
// dialect.go); the records it shares with Warcraft III are written in
// encode.go.

// putCQuat writes q as a 64-bit compressed quaternion (see getCQuat).
func putCQuat(b []byte, q Quat) []byte { return le.AppendUint64(b, uint64(CompressQuat(q))) }

// putSimpleTrack writes t, if any, as a track without interpolation type
// (see takeSimple).
func putSimpleTrack(e *encoder, tag uint32, t *Track[uint32]) {
	if t == nil {
		return
	}
	e.u32(tag)
	e.u32(uint32(len(t.Keys)))
	e.i32(t.GlobalSeqID)
	for _, k := range t.Keys {
		e.i32(k.Frame)
		e.u32(k.Value)
	}
}

// uvas writes a v1300/1400 UVAS (see decoder.uvas): every set must have a
// coordinate per vertex.
func (e *encoder) uvas(g *Geoset) {
	nv := len(g.Vertices)
	e.u32(tUVAS)
	e.u32(uint32(len(g.UVSets)))
	for _, uv := range g.UVSets {
		if len(uv) != nv {
			e.failf("geoset UV set has %d coordinates for %d vertices", len(uv), nv)
		}
		e.b = appendWords(e.b, uv, 4)
	}
}

// boneWords writes a v1300/1400 geoset's BIDX and BWGT (see
// decoder.boneWords).
func (e *encoder) boneWords(g *Geoset) {
	putWords(e, tBIDX, g.BoneIndices, 4)
	putWords(e, tBWGT, g.BoneWeights, 4)
	if len(g.BoneIndices) != len(g.BoneWeights) {
		e.failf("geoset has %d BIDX but %d BWGT entries", len(g.BoneIndices), len(g.BoneWeights))
	}
}

// geosets1500 writes the v1500 headers then batches. For a geoset built in
// code the centre is the middle of Extent, the index its position, the tags
// PVTX/PTYP/PVTX and the triangle range the one Faces spans.
func (e *encoder) geosets1500() {
	m := e.m
	xs := make([]wow1500Geoset, len(m.Geosets))
	for i := range m.Geosets {
		g := &m.Geosets[i]
		x := &xs[i]
		if i < len(e.wow.geo) {
			*x = e.wow.geo[i]
		} else {
			x.center = Vec3{(g.Extent.Min[0] + g.Extent.Max[0]) / 2, (g.Extent.Min[1] + g.Extent.Max[1]) / 2, (g.Extent.Min[2] + g.Extent.Max[2]) / 2}
			x.index = uint32(i)
			x.tags = [3]uint32{tPVTX, tPTYP, tPVTX}
			x.nTypes = 1
			x.primType = 3
			x.nVerts, x.nIndices = uint32(len(g.Vertices)), uint32(len(g.Faces))
			if len(g.Faces) > 0 {
				lo, hi := g.Faces[0], g.Faces[0]
				for _, f := range g.Faces {
					lo, hi = min(lo, f), max(hi, f)
				}
				x.minV, x.maxV = lo, hi
			}
		}
		if int(x.nVerts) != len(g.Vertices) {
			x.nVerts = uint32(len(g.Vertices))
		}
		if len(g.Faces) > 0xFFFF {
			e.failf("geoset %d has %d indices; a v1500 batch holds at most 65535", i, len(g.Faces))
		}
		e.u32(g.MaterialID)
		e.vec3(x.center)
		e.f32(g.Extent.BoundsRadius)
		e.u32(g.SelectionGroup)
		e.u32(x.index)
		e.u32(g.SelectionFlags)
		e.u32(x.tags[0])
		e.u32(x.nVerts)
		e.u32(x.tags[1])
		e.u32(x.nTypes)
		e.u32(x.tags[2])
		e.u32(x.nIndices)
		e.u32(uint32(x.unused))
		e.u32(uint32(x.unused >> 32))
	}
	for i := range m.Geosets {
		g := &m.Geosets[i]
		x := &xs[i]
		nv := len(g.Vertices)
		if len(g.Normals) != nv || len(g.Skin) != 8*nv {
			e.failf("geoset %d: v1500 vertices need one normal and 8 skin bytes each", i)
			return
		}
		var uv [2][]Vec2
		for k := 0; k < 2 && k < len(g.UVSets); k++ {
			uv[k] = g.UVSets[k]
			if len(uv[k]) != nv && len(uv[k]) != 0 {
				e.failf("geoset %d: UV set %d has %d coordinates for %d vertices", i, k, len(uv[k]), nv)
				return
			}
		}
		for k := 0; k < nv; k++ {
			e.vec3(g.Vertices[k])
			s := g.Skin[8*k:]
			e.b = append(e.b, s[4], s[5], s[6], s[7], s[0], s[1], s[2], s[3])
			e.vec3(g.Normals[k])
			for _, set := range uv {
				var t Vec2
				if len(set) > 0 {
					t = set[k]
				}
				e.f32(t[0])
				e.f32(t[1])
			}
		}
		e.u32(x.primType)
		e.u32(x.unknown)
		ni := len(g.Faces)
		e.b = le.AppendUint16(e.b, uint16(ni))
		e.b = le.AppendUint16(e.b, x.minV)
		e.b = le.AppendUint16(e.b, x.maxV)
		e.b = le.AppendUint16(e.b, x.unused16)
		e.b = appendWords(e.b, g.Faces, 2)
		padN := 0
		if ni%8 != 0 {
			padN = 8 - ni%8
		}
		if len(x.pad) == 2*padN {
			e.b = append(e.b, x.pad...)
		} else {
			e.b = append(e.b, make([]byte, 2*padN)...)
		}
	}
}
