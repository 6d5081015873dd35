package mdx

import "bytes"

// This file holds the readers of what only the WoW dialect has (see
// dialect.go); the records it shares with Warcraft III are read in
// decode.go.

// wowLayout is what a decoded WoW model remembers about its bytes beyond
// fileLayout.
type wowLayout struct {
	modlFlags uint8
	mtlsWord  uint32 // MTLS "unused" (has values, ignored by the client)
	atchWord  uint32 // ATCH "unused"
	attPad    []uint8
	geo       []wow1500Geoset // v1500 only, one per geoset
}

// wow1500Geoset is a v1500 geoset's bytes that have no Geoset field.
type wow1500Geoset struct {
	center                   Vec3
	index                    uint32
	tags                     [3]uint32
	nVerts, nTypes, nIndices uint32
	unused                   uint64
	primType, unknown        uint32
	minV, maxV, unused16     uint16
	pad                      []byte
}

// wowVersion returns the version of a file whose first chunk is a VERS
// naming a WoW version.
func wowVersion(b []byte) (uint32, bool) {
	if len(b) < 16 || le.Uint32(b[4:]) != tVERS || le.Uint32(b[8:]) < 4 {
		return 0, false
	}
	v := le.Uint32(b[12:])
	return v, IsWoWVersion(v)
}

// swapLowBits exchanges bits 0 and 1: the WoW GEOA flag "use colour" is bit
// 0 where Warcraft III has it at bit 1 (GeoaUseColor), and the mapping must
// be reversible for byte-identical encoding.
func swapLowBits(f uint32) uint32 {
	return f&^3 | (f&1)<<1 | (f&2)>>1
}

// uvas reads a v1300/1400 UVAS: the set count, then every set's
// coordinates inline, one per vertex (Warcraft III has a UVBS per set).
func (d *decoder) uvas(g *Geoset) {
	r := &d.r
	if !r.expect(tUVAS) {
		return
	}
	sets := r.u32()
	nv := len(g.Vertices)
	if nv == 0 {
		// Sets of zero coordinates take no bytes; keep the count.
		if n, ok := r.count(sets, 0, "UV set"); ok && n <= 1<<16 {
			g.UVSets = make([][]Vec2, n)
		} else if ok {
			r.failf(r.pos-4, "UV set count %d with no vertices", sets)
		}
		return
	}
	if n, ok := r.count(sets, 8*nv, "UV set"); ok {
		g.UVSets = mk[[]Vec2](n)
		for i := range g.UVSets {
			g.UVSets[i] = make([]Vec2, nv)
			fillWords(g.UVSets[i], r.b[r.pos:], 4)
			r.pos += 8 * nv
		}
	}
}

// boneWords reads a v1300/1400 geoset's BIDX and BWGT and reports whether
// they are well formed. They are kept as words in Geoset.BoneIndices and
// BoneWeights, not turned into Skin: they are not in vertex order (see
// Geoset.BoneIndices), and the matrix groups, which the pose stage already
// uses, skin these models correctly.
func (d *decoder) boneWords(g *Geoset) bool {
	r := &d.r
	at := r.pos
	bidx := words[uint32](r, tBIDX, 4, 4, "bone index")
	bwgt := words[uint32](r, tBWGT, 4, 4, "bone weight")
	if r.err != nil {
		return false
	}
	if len(bidx) != len(bwgt) {
		r.failf(at, "BIDX has %d entries but BWGT has %d", len(bidx), len(bwgt))
		return false
	}
	g.BoneIndices, g.BoneWeights = bidx, bwgt
	return true
}

// geosets1500 reads the v1500 GEOS: count, then count 64-byte headers, then
// count batches of M2-style vertices and u16 triangle indices.
func (d *decoder) geosets1500() {
	r := &d.r
	m := d.m
	n := d.listCount(64, "geoset")
	m.Geosets = mk[Geoset](n)
	d.lay.wow.geo = mk[wow1500Geoset](n)
	for i := 0; i < n && r.err == nil; i++ {
		g, x := &m.Geosets[i], &d.lay.wow.geo[i]
		g.MaterialID = r.u32()
		x.center = r.vec3()
		// The file has a bounding sphere only; Extent gets its radius and
		// the box of the batch's vertices (set below), so that framing code
		// sees a real box and a re-encode from Extent alone is stable.
		g.Extent.BoundsRadius = r.f32()
		g.SelectionGroup = r.u32()
		x.index = r.u32()
		g.SelectionFlags = r.u32()
		x.tags[0], x.nVerts = r.u32(), r.u32()
		x.tags[1], x.nTypes = r.u32(), r.u32()
		x.tags[2], x.nIndices = r.u32(), r.u32()
		x.unused = uint64(r.u32()) | uint64(r.u32())<<32
	}
	for i := 0; i < n && r.err == nil; i++ {
		g, x := &m.Geosets[i], &d.lay.wow.geo[i]
		nv, ok := r.count(x.nVerts, 48, "v1500 vertex")
		if !ok {
			return
		}
		// count checked nv*48 against what is left; r.count reads the count
		// from r.pos-4, which is only used for the error offset.
		if d.geometry(r.pos, nv, 0); r.err != nil {
			return
		}
		g.Vertices = mk[Vec3](nv)
		g.Normals = mk[Vec3](nv)
		g.Skin = mk[byte](8 * nv)
		uv0, uv1 := mk[Vec2](nv), mk[Vec2](nv)
		for k := 0; k < nv; k++ {
			b := r.b[r.pos:]
			g.Vertices[k] = getVec3(b)
			s := g.Skin[8*k:]
			copy(s[4:8], b[12:16]) // weights
			copy(s[0:4], b[16:20]) // bone indices
			g.Normals[k] = getVec3(b[20:])
			uv0[k] = Vec2{f32(b[32:]), f32(b[36:])}
			uv1[k] = Vec2{f32(b[40:]), f32(b[44:])}
			r.pos += 48
		}
		g.UVSets = [][]Vec2{uv0, uv1}
		g.Extent.Min, g.Extent.Max = vertexBox(g.Vertices)
		if nv == 0 {
			g.UVSets = [][]Vec2{nil, nil}
		}
		x.primType = r.u32()
		x.unknown = r.u32()
		if !r.need(8, "batch header") {
			return
		}
		ni := int(le.Uint16(r.b[r.pos:]))
		x.minV = le.Uint16(r.b[r.pos+2:])
		x.maxV = le.Uint16(r.b[r.pos+4:])
		x.unused16 = le.Uint16(r.b[r.pos+6:])
		r.pos += 8
		padN := 0
		if ni%8 != 0 {
			padN = 8 - ni%8
		}
		if !r.need(2*(ni+padN), "batch indices") {
			return
		}
		if d.geometry(r.pos, 0, ni); r.err != nil {
			return
		}
		g.Faces = mk[uint16](ni)
		fillWords(g.Faces, r.b[r.pos:], 2)
		r.pos += 2 * ni
		x.pad = bytes.Clone(r.b[r.pos : r.pos+2*padN])
		r.pos += 2 * padN
		g.FaceTypes = []uint32{4}
		g.FaceGroups = []uint32{uint32(ni)}
	}
}

// getCQuat reads a 64-bit compressed quaternion.
func getCQuat(b []byte) Quat { return DecompressQuat(int64(le.Uint64(b))) }

// takeSimple reads an MDLSIMPLEKEYTRACK of (time, value) keys into *p
// unless one is there already (see take): tag, count, globalSeqId, keys; no
// interpolation type (decoded as DontInterp).
func takeSimple(r *reader, p **Track[uint32]) bool {
	if *p != nil {
		return false
	}
	at := r.pos
	r.pos += 4
	n := r.u32()
	gs := r.i32()
	cnt, ok := r.keys(at, n, 8)
	if !ok {
		return true
	}
	t := &Track[uint32]{Interpolation: DontInterp, GlobalSeqID: gs, Keys: make([]Key[uint32], cnt)}
	for i := range t.Keys {
		t.Keys[i].Frame = int32(le.Uint32(r.b[r.pos:]))
		t.Keys[i].Value = le.Uint32(r.b[r.pos+4:])
		r.pos += 8
	}
	*p = t
	return true
}

// vertexBox is the bounding box of vs (zero for none).
func vertexBox(vs []Vec3) (lo, hi Vec3) {
	if len(vs) == 0 {
		return
	}
	lo, hi = vs[0], vs[0]
	for _, v := range vs[1:] {
		for k := 0; k < 3; k++ {
			lo[k] = min(lo[k], v[k])
			hi[k] = max(hi[k], v[k])
		}
	}
	return
}
