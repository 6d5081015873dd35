package mdx

import (
	"bytes"
	"fmt"
)

// The WoW dialect (v1300–1500) differs from Warcraft III in ways that make a
// separate chunk walker simpler than flags in decode.go:
//   - list chunks (SEQS, MTLS, TXAN, GEOS, GEOA, BONE, LITE, HELP, ATCH,
//     CAMS, EVTS) start with a record count; MTLS and ATCH add an unused u32;
//   - MODL ends with a flags byte (373 bytes), SEQS records are 140 bytes
//     (frequency, replay range and blend time instead of rarity/sync point);
//   - rotations (KGRT, KTAR) are 64-bit compressed quaternions;
//   - KMTF, KRTX and KEVT are "simple" tracks without an interpolation type;
//   - visibility is KVIS everywhere;
//   - v1300/1400 geosets have UVAS with all UV sets inline, u8 PTYP, and
//     BIDX/BWGT words; v1500 geosets are headers then M2-style batches,
//     whose per-vertex bone indices and weights become Geoset.Skin.
//
// Everything lands in the ordinary Model types. Bytes with no public field
// (unused words, padding, the MODL flags byte, v1500 batch fields) are kept
// in wowLayout so that Decode then Encode gives the original file back.
// PREM, PRE2, RIBB, HTST, CLID and any other chunk are kept verbatim in
// Model.Unknown: the renderer does not draw them.

var (
	tKVIS = tagOf("KVIS")
	tBIDX = tagOf("BIDX")
	tBWGT = tagOf("BWGT")
)

var (
	ordWoWLayer  = []uint32{tKMTA, tKMTF}
	ordWoWLight  = []uint32{tKLAS, tKLAE, tKLAC, tKLAI, tKLBC, tKLBI, tKVIS}
	ordWoWAttach = []uint32{tKVIS}
	ordWoWCamera = []uint32{tKCTR, tKCRL, tKTTR}
)

// wowLayout is what a decoded v1300+ model remembers about its bytes.
type wowLayout struct {
	chunks    []wowChunk
	trailing  []byte
	modl      rec
	modlFlags uint8
	modlPad   []byte
	mtlsWord  uint32 // MTLS "unused" (has values, ignored by the client)
	atchWord  uint32 // ATCH "unused"
	attPad    []uint8
	geo       []wow1500Geoset // v1500 only, one per geoset
}

type wowChunk struct {
	tag uint32
	raw int // index into Model.Unknown, or -1 for a decoded chunk
	pad []byte
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

type wowDecoder struct {
	r   reader
	v   uint32
	m   *Model
	lay *wowLayout
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

func (d *Decoder) decodeWoW(b []byte, v uint32) (*Model, error) {
	q := d.Quotas
	dec := &wowDecoder{r: reader{b: b, q: &q}, v: v, m: &Model{Version: v}, lay: &wowLayout{}}
	if err := dec.decode(); err != nil {
		return nil, err
	}
	dec.m.file = &fileLayout{wow: dec.lay}
	return dec.m, nil
}

func (d *wowDecoder) decode() error {
	r := &d.r
	b := r.b
	pos := 4
	seen := map[uint32]bool{}
	for len(b)-pos >= 8 {
		tag := le.Uint32(b[pos:])
		size := le.Uint32(b[pos+4:])
		r.chunk = tag
		if int64(size) > int64(len(b)-pos-8) {
			return &FormatError{Offset: int64(pos), Chunk: tagString(tag),
				Reason: fmt.Sprintf("chunk size %d exceeds remaining %d bytes", size, len(b)-pos-8)}
		}
		start, end := pos+8, pos+8+int(size)
		r.pos, r.end = start, end
		ch := wowChunk{tag: tag, raw: -1}
		if seen[tag] || !d.chunk(tag, start, end) {
			ch.raw = len(d.m.Unknown)
			d.m.Unknown = append(d.m.Unknown, RawChunk{Tag: string(b[pos : pos+4]), Data: bytes.Clone(b[start:end])})
			r.pos = end
		}
		if r.err != nil {
			return r.err
		}
		seen[tag] = true
		if r.pos < end {
			ch.pad = bytes.Clone(b[r.pos:end])
		}
		d.lay.chunks = append(d.lay.chunks, ch)
		pos = end
	}
	if pos < len(b) {
		d.lay.trailing = bytes.Clone(b[pos:])
	}
	return nil
}

// listCount reads a record count and checks it against the bytes left,
// given the smallest record size.
func (d *wowDecoder) listCount(min int, what string) int {
	r := &d.r
	c := r.u32()
	n, ok := r.count(c, min, what)
	if !ok {
		return 0
	}
	if q := r.q.MaxRecords; q > 0 && n > q {
		r.quota(r.pos-4, what+" count", n, q)
		return 0
	}
	return n
}

// chunk decodes one chunk; false means "keep it raw".
func (d *wowDecoder) chunk(tag uint32, start, end int) bool {
	r := &d.r
	m := d.m
	switch tag {
	case tVERS:
		m.Version = r.u32()
	case tMODL:
		if !r.need(373, "model header") {
			return true
		}
		m.Name = r.str(80, &d.lay.modl, 0)
		m.AnimationFile = r.str(260, &d.lay.modl, 1)
		m.Extent = r.extent()
		m.BlendTime = r.u32()
		d.lay.modlFlags = r.b[r.pos]
		r.pos++
	case tSEQS:
		n := d.listCount(140, "sequence")
		m.Sequences = mk[Sequence](n)
		for i := 0; i < n && r.err == nil; i++ {
			s := &m.Sequences[i]
			s.Name = r.str(80, &s.rec, 0)
			s.Interval = [2]uint32{r.u32(), r.u32()}
			s.MoveSpeed = r.f32()
			s.Flags = r.u32()
			s.Extent = r.extent()
			s.Frequency = r.f32()
			s.Replay = [2]uint32{r.u32(), r.u32()}
			s.BlendTime = r.u32()
		}
	case tGLBS:
		n := (end - start) / 4
		m.GlobalSequences = mk[uint32](n)
		fillWords(m.GlobalSequences, r.b[start:], 4)
		r.pos = start + 4*n
	case tTEXS:
		n := (end - start) / 268
		if q := r.q.MaxRecords; q > 0 && n > q {
			r.quota(start, "texture count", n, q)
			return true
		}
		m.Textures = mk[Texture](n)
		for i := range m.Textures {
			t := &m.Textures[i]
			t.ReplaceableID = r.u32()
			t.Path = r.str(260, &t.rec, 0)
			t.Flags = r.u32()
		}
	case tPIVT:
		n := (end - start) / 12
		m.PivotPoints = mk[Vec3](n)
		fillWords(m.PivotPoints, r.b[start:], 4)
		r.pos = start + 12*n
	case tMTLS:
		n := d.listCount(12, "material")
		d.lay.mtlsWord = r.u32()
		m.Materials = mk[Material](n)
		for i := 0; i < n && r.err == nil; i++ {
			d.material(&m.Materials[i])
		}
	case tTXAN:
		n := d.listCount(4, "texture animation")
		m.TextureAnims = mk[TextureAnim](n)
		for i := 0; i < n && r.err == nil; i++ {
			t := &m.TextureAnims[i]
			_, old, ok := r.sized("texture animation", 4)
			if !ok {
				break
			}
			r.tracks(&t.rec, ordTexAnim, func(tag uint32) bool {
				switch tag {
				case tKTAT:
					return takeV(r, &t.Translation)
				case tKTAR:
					return takeCQ(r, &t.Rotation)
				case tKTAS:
					return takeV(r, &t.Scaling)
				}
				return false
			})
			r.done(&t.rec, old)
		}
	case tGEOS:
		if d.v >= 1500 {
			d.geosets1500()
		} else {
			n := d.listCount(4, "geoset")
			m.Geosets = mk[Geoset](n)
			for i := 0; i < n && r.err == nil; i++ {
				d.geoset(&m.Geosets[i])
			}
		}
	case tGEOA:
		n := d.listCount(28, "geoset animation")
		m.GeosetAnims = mk[GeosetAnim](n)
		for i := 0; i < n && r.err == nil; i++ {
			g := &m.GeosetAnims[i]
			_, old, ok := r.sized("geoset animation", 28)
			if !ok {
				break
			}
			g.GeosetID = r.i32()
			g.Alpha = r.f32()
			g.Color = r.vec3()
			g.Flags = swapLowBits(r.u32())
			r.tracks(&g.rec, ordGeosetAnim, func(tag uint32) bool {
				switch tag {
				case tKGAO:
					return takeF(r, &g.AlphaTrack)
				case tKGAC:
					return takeV(r, &g.ColorTrack)
				}
				return false
			})
			r.done(&g.rec, old)
		}
	case tBONE:
		n := d.listCount(104, "bone")
		m.Bones = mk[Bone](n)
		for i := 0; i < n && r.err == nil; i++ {
			b := &m.Bones[i]
			d.node(&b.Node)
			b.GeosetID = r.i32()
			b.GeosetAnimID = r.i32()
		}
	case tHELP:
		n := d.listCount(96, "helper")
		m.Helpers = mk[Helper](n)
		for i := 0; i < n && r.err == nil; i++ {
			d.node(&m.Helpers[i].Node)
		}
	case tLITE:
		n := d.listCount(4+96+44, "light")
		m.Lights = mk[Light](n)
		for i := 0; i < n && r.err == nil; i++ {
			d.light(&m.Lights[i])
		}
	case tATCH:
		n := d.listCount(4+96+265, "attachment")
		d.lay.atchWord = r.u32()
		m.Attachments = mk[Attachment](n)
		d.lay.attPad = mk[uint8](n)
		for i := 0; i < n && r.err == nil; i++ {
			a := &m.Attachments[i]
			_, old, ok := r.sized("attachment", 4+96+265)
			if !ok {
				break
			}
			d.node(&a.Node)
			a.AttachmentID = r.i32()
			if r.need(1, "attachment padding") {
				d.lay.attPad[i] = r.b[r.pos]
				r.pos++
			}
			a.Path = r.str(260, &a.rec, 0)
			r.tracks(&a.rec, ordWoWAttach, func(tag uint32) bool {
				if tag == tKVIS {
					return takeF(r, &a.Visibility)
				}
				return false
			})
			r.done(&a.rec, old)
		}
	case tCAMS:
		n := d.listCount(4+80+36, "camera")
		m.Cameras = mk[Camera](n)
		for i := 0; i < n && r.err == nil; i++ {
			c := &m.Cameras[i]
			_, old, ok := r.sized("camera", 4+80+36)
			if !ok {
				break
			}
			c.Name = r.str(80, &c.rec, 0)
			c.Position = r.vec3()
			c.FieldOfView = r.f32()
			c.FarClip = r.f32()
			c.NearClip = r.f32()
			c.TargetPosition = r.vec3()
			r.tracks(&c.rec, ordWoWCamera, func(tag uint32) bool {
				switch tag {
				case tKCTR:
					return takeV(r, &c.Translation)
				case tKTTR:
					return takeV(r, &c.TargetTranslation)
				case tKCRL:
					return takeF(r, &c.Rotation)
				}
				return false
			})
			r.done(&c.rec, old)
		}
	case tEVTS:
		n := d.listCount(4+96, "event object")
		m.EventObjects = mk[EventObject](n)
		for i := 0; i < n && r.err == nil; i++ {
			e := &m.EventObjects[i]
			_, old, ok := r.sized("event object", 4+96)
			if !ok {
				break
			}
			d.node(&e.Node)
			e.GlobalSeqID = -1
			if t, ok := r.peek(); ok && t == tKEVT {
				r.pos += 4
				cnt := r.u32()
				e.GlobalSeqID = r.i32()
				if k, ok := r.count(cnt, 4, "KEVT key"); ok {
					e.Frames = mk[uint32](k)
					fillWords(e.Frames, r.b[r.pos:], 4)
					r.pos += 4 * k
				}
			} else {
				e.rec.flags |= recNoKEVT
			}
			r.done(&e.rec, old)
		}
	default:
		return false
	}
	if r.err == nil && r.pos > end {
		r.failf(end, "records run %d bytes past the chunk end", r.pos-end)
	}
	return true
}

// swapLowBits exchanges bits 0 and 1: the WoW GEOA flag "use colour" is bit
// 0 where Warcraft III has it at bit 1 (GeoaUseColor), and the mapping must
// be reversible for byte-identical encoding.
func swapLowBits(f uint32) uint32 {
	return f&^3 | (f&1)<<1 | (f&2)>>1
}

// node reads a GENOBJECT: the same bytes as in Warcraft III except that
// KGRT holds compressed quaternions.
func (d *wowDecoder) node(n *Node) {
	r := &d.r
	_, old, ok := r.sized("node", 96)
	if !ok {
		return
	}
	n.Name = r.str(80, &n.nrec, 0)
	n.ObjectID = r.i32()
	n.ParentID = r.i32()
	n.Flags = r.u32()
	r.tracks(&n.nrec, ordNode, func(tag uint32) bool {
		switch tag {
		case tKGTR:
			return takeV(r, &n.Translation)
		case tKGRT:
			return takeCQ(r, &n.Rotation)
		case tKGSC:
			return takeV(r, &n.Scaling)
		}
		return false
	})
	r.done(&n.nrec, old)
}

func (d *wowDecoder) material(mt *Material) {
	r := &d.r
	_, old, ok := r.sized("material", 12)
	if !ok {
		return
	}
	mt.PriorityPlane = r.i32()
	n := d.listCount(28, "layer")
	mt.Layers = mk[Layer](n)
	for i := 0; i < n && r.err == nil; i++ {
		l := &mt.Layers[i]
		_, lold, ok := r.sized("layer", 28)
		if !ok {
			break
		}
		l.FilterMode = FilterMode(r.u32())
		l.Flags = r.u32()
		l.TextureID = r.i32()
		l.TextureAnimID = r.i32()
		l.CoordID = r.u32()
		l.Alpha = r.f32()
		r.tracks(&l.rec, ordWoWLayer, func(tag uint32) bool {
			switch tag {
			case tKMTA:
				return takeF(r, &l.AlphaTrack)
			case tKMTF:
				if l.TextureIDTrack != nil {
					return false
				}
				l.TextureIDTrack = readSimpleTrack(r)
				return true
			}
			return false
		})
		r.done(&l.rec, lold)
	}
	r.done(&mt.rec, old)
}

func (d *wowDecoder) light(l *Light) {
	r := &d.r
	_, old, ok := r.sized("light", 4+96+44)
	if !ok {
		return
	}
	d.node(&l.Node)
	l.Type = LightType(r.u32())
	l.AttenuationStart = r.f32()
	l.AttenuationEnd = r.f32()
	l.Color = r.vec3()
	l.Intensity = r.f32()
	l.AmbColor = r.vec3()
	l.AmbIntensity = r.f32()
	r.tracks(&l.rec, ordWoWLight, func(tag uint32) bool {
		switch tag {
		case tKLAS:
			return takeF(r, &l.AttenuationStartTrack)
		case tKLAE:
			return takeF(r, &l.AttenuationEndTrack)
		case tKLAC:
			return takeV(r, &l.ColorTrack)
		case tKLAI:
			return takeF(r, &l.IntensityTrack)
		case tKLBI:
			return takeF(r, &l.AmbIntensityTrack)
		case tKLBC:
			return takeV(r, &l.AmbColorTrack)
		case tKVIS:
			return takeF(r, &l.Visibility)
		}
		return false
	})
	r.done(&l.rec, old)
}

// geoset reads a v1300/1400 geoset. BIDX/BWGT are kept as words in
// Geoset.BoneIndices/BoneWeights, not turned into Skin: they are not in
// vertex order (see Geoset.BoneIndices), and the matrix groups, which the
// pose stage already uses, skin these models correctly.
func (d *wowDecoder) geoset(g *Geoset) {
	r := &d.r
	_, old, ok := r.sized("geoset", 4)
	if !ok {
		return
	}
	g.Vertices = words[Vec3](r, tVRTX, 12, 4, "vertex")
	g.Normals = words[Vec3](r, tNRMS, 12, 4, "normal")
	if r.expect(tUVAS) {
		sets := r.u32()
		nv := len(g.Vertices)
		if nv == 0 {
			// Sets of zero coordinates take no bytes; keep the count.
			if n, ok := r.count(sets, 0, "UV set"); ok && n <= 1<<16 {
				g.UVSets = make([][]Vec2, n)
			} else if ok {
				r.failf(r.pos-4, "UV set count %d with no vertices", sets)
			}
		} else if n, ok := r.count(sets, 8*nv, "UV set"); ok {
			g.UVSets = mk[[]Vec2](n)
			for i := range g.UVSets {
				g.UVSets[i] = make([]Vec2, nv)
				fillWords(g.UVSets[i], r.b[r.pos:], 4)
				r.pos += 8 * nv
			}
		}
	}
	types := words[uint8](r, tPTYP, 1, 1, "face type group")
	if types != nil {
		g.FaceTypes = make([]uint32, len(types))
		for i, t := range types {
			g.FaceTypes[i] = uint32(t)
		}
	}
	g.FaceGroups = words[uint32](r, tPCNT, 4, 4, "face group")
	g.Faces = words[uint16](r, tPVTX, 2, 2, "face index")
	g.VertexGroups = words[uint8](r, tGNDX, 1, 1, "vertex group")
	g.MatrixGroups = words[uint32](r, tMTGC, 4, 4, "matrix group")
	g.MatrixIndices = words[uint32](r, tMATS, 4, 4, "matrix index")
	at := r.pos
	bidx := words[uint32](r, tBIDX, 4, 4, "bone index")
	bwgt := words[uint32](r, tBWGT, 4, 4, "bone weight")
	if r.err != nil {
		return
	}
	if len(bidx) != len(bwgt) {
		r.failf(at, "BIDX has %d entries but BWGT has %d", len(bidx), len(bwgt))
		return
	}
	g.BoneIndices, g.BoneWeights = bidx, bwgt
	g.MaterialID = r.u32()
	g.SelectionGroup = r.u32()
	g.SelectionFlags = r.u32()
	g.Extent = r.extent()
	cnt := r.u32()
	n, ok := r.count(cnt, 28, "sequence extent")
	if !ok {
		return
	}
	g.SequenceExtents = mk[Extent](n)
	fillWords(g.SequenceExtents, r.b[r.pos:], 4)
	r.pos += 28 * n
	r.done(&g.rec, old)
}

// geosets1500 reads the v1500 GEOS: count, then count 64-byte headers, then
// count batches of M2-style vertices and u16 triangle indices.
func (d *wowDecoder) geosets1500() {
	r := &d.r
	m := d.m
	n := d.listCount(64, "geoset")
	m.Geosets = mk[Geoset](n)
	d.lay.geo = mk[wow1500Geoset](n)
	for i := 0; i < n && r.err == nil; i++ {
		g, x := &m.Geosets[i], &d.lay.geo[i]
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
		g, x := &m.Geosets[i], &d.lay.geo[i]
		nv, ok := r.count(x.nVerts, 48, "v1500 vertex")
		if !ok {
			return
		}
		// count checked nv*48 against what is left; r.count reads the count
		// from r.pos-4, which is only used for the error offset.
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
		g.Faces = mk[uint16](ni)
		fillWords(g.Faces, r.b[r.pos:], 2)
		r.pos += 2 * ni
		x.pad = bytes.Clone(r.b[r.pos : r.pos+2*padN])
		r.pos += 2 * padN
		g.FaceTypes = []uint32{4}
		g.FaceGroups = []uint32{uint32(ni)}
	}
}

// takeCQ reads a compressed-quaternion track (8 bytes per value).
func takeCQ(r *reader, p **Track[Quat]) bool {
	return take(r, p, func(b []byte) Quat { return DecompressQuat(int64(le.Uint64(b))) }, 8)
}

// readSimpleTrack reads an MDLSIMPLEKEYTRACK of (time, value) keys: tag,
// count, globalSeqId, keys; no interpolation type (decoded as DontInterp).
func readSimpleTrack(r *reader) *Track[uint32] {
	at := r.pos
	r.pos += 4
	n := r.u32()
	gs := r.i32()
	cnt, ok := r.count(n, 8, tagString(le.Uint32(r.b[at:]))+" key")
	if !ok {
		return nil
	}
	if r.q.MaxKeys > 0 && cnt > r.q.MaxKeys {
		r.quota(at, "key count", cnt, r.q.MaxKeys)
		return nil
	}
	t := &Track[uint32]{Interpolation: DontInterp, GlobalSeqID: gs, Keys: make([]Key[uint32], cnt)}
	for i := range t.Keys {
		t.Keys[i].Frame = int32(le.Uint32(r.b[r.pos:]))
		t.Keys[i].Value = le.Uint32(r.b[r.pos+4:])
		r.pos += 8
	}
	return t
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
