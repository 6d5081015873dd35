package mdx

import (
	"bytes"
	"fmt"
	"io"
	"slices"
)

// Encode writes m as MDX to w. A model returned by Decode and not modified
// encodes to exactly the bytes it was decoded from.
func Encode(w io.Writer, m *Model) error {
	b, err := encodeBytes(m)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("mdx: writing: %w", err)
	}
	return nil
}

// encodeBytes returns m encoded as MDX.
func encodeBytes(m *Model) ([]byte, error) {
	e := &encoder{m: m, v: ver(m.Version)}
	if e.v == 0 {
		e.v = 800
	}
	if !e.v.wow() && !wc3Version(uint32(e.v)) {
		return nil, UnsupportedError(fmt.Sprintf("MDX version %d (want %s, or a WoW version)", m.Version, wc3Versions))
	}
	e.dl = e.v.dialect()
	for _, u := range m.Unknown {
		if len(u.Tag) != 4 {
			return nil, fmt.Errorf("mdx: unknown chunk tag %q is not four bytes", u.Tag)
		}
	}
	// A layout remembered from a file of the other dialect says nothing
	// about this one's bytes.
	if lay := m.file; lay != nil && (lay.wow != nil) == e.v.wow() {
		e.lay = lay
	}
	if e.v.wow() {
		e.wow = &wowLayout{}
		if e.lay != nil {
			e.wow = e.lay.wow
		}
	}
	e.b = make([]byte, 0, e.estimate())
	e.b = putU32(e.b, tMDLX)
	e.chunks()
	if e.err != nil {
		return nil, e.err
	}
	return e.b, nil
}

type encoder struct {
	b  []byte
	m  *Model
	v  ver
	dl *dialect
	// lay is the layout of the file m was decoded from, nil for canonical
	// form. wow is its WoW part when encoding WoW (zero for a model built
	// in code).
	lay *fileLayout
	wow *wowLayout
	// err is the first record the dialect cannot hold (only WoW has such
	// limits).
	err error
}

func (e *encoder) failf(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("mdx: encoding v%d: "+format, append([]any{uint32(e.v)}, args...)...)
	}
}

// estimate guesses the output size so the buffer is allocated once for the
// bulk of a model (its geosets).
func (e *encoder) estimate() int {
	n := 4096
	for i := range e.m.Geosets {
		g := &e.m.Geosets[i]
		n += 24*len(g.Vertices) + 2*len(g.Faces) + len(g.VertexGroups) + 16*len(g.Tangents) + len(g.Skin) + 256
		for _, uv := range g.UVSets {
			n += 8 * len(uv)
		}
	}
	return n
}

// canonicalOrder is the chunk order of a model built in code: the order the
// reference viewer writes, plus SNDS last.
var canonicalOrder = []uint32{tVERS, tMODL, tSEQS, tGLBS, tMTLS, tTEXS, tTXAN, tGEOS, tGEOA, tBONE, tLITE,
	tHELP, tATCH, tPIVT, tPREM, tPRE2, tCORN, tRIBB, tCAMS, tEVTS, tCLID, tFAFX, tBPOS, tSNDS}

// count returns how many records the model holds for a list chunk, or -1 for
// VERS and MODL, which hold no list.
func (e *encoder) count(tag uint32) int {
	m := e.m
	switch tag {
	case tVERS, tMODL:
		return -1
	case tSEQS:
		return len(m.Sequences)
	case tGLBS:
		return len(m.GlobalSequences)
	case tMTLS:
		return len(m.Materials)
	case tTEXS:
		return len(m.Textures)
	case tTXAN:
		return len(m.TextureAnims)
	case tGEOS:
		return len(m.Geosets)
	case tGEOA:
		return len(m.GeosetAnims)
	case tBONE:
		return len(m.Bones)
	case tLITE:
		return len(m.Lights)
	case tHELP:
		return len(m.Helpers)
	case tATCH:
		return len(m.Attachments)
	case tPIVT:
		return len(m.PivotPoints)
	case tPREM:
		return len(m.ParticleEmitters)
	case tPRE2:
		return len(m.ParticleEmitters2)
	case tCORN:
		return len(m.PopcornEmitters)
	case tRIBB:
		return len(m.RibbonEmitters)
	case tCAMS:
		return len(m.Cameras)
	case tEVTS:
		return len(m.EventObjects)
	case tCLID:
		return len(m.CollisionShapes)
	case tFAFX:
		return len(m.FaceEffects)
	case tBPOS:
		return len(m.BindPose)
	case tSNDS:
		return len(m.SoundTracks)
	}
	return 0
}

// wanted reports whether a list chunk that the decoded file did not have, or
// that a model built in code may have, is written: when it has records. A
// WoW decoder keeps all but the first chunk of a tag raw (see decoder.once),
// so a raw chunk of a tag the dialect decodes needs a decoded one, even
// empty, before it.
func (e *encoder) wanted(tag uint32) bool {
	if e.count(tag) > 0 {
		return true
	}
	if e.v.wow() {
		for _, u := range e.m.Unknown {
			if tagOf(u.Tag) == tag {
				return true
			}
		}
	}
	return false
}

func (e *encoder) chunks() {
	m := e.m
	if e.lay == nil {
		for _, tag := range e.dl.chunks {
			// VERS and MODL are always written.
			if e.count(tag) < 0 || e.wanted(tag) {
				e.chunk(chunkRef{tag: tag}, 0, max(e.count(tag), 0))
			}
		}
		for i := range m.Unknown {
			e.unknown(i)
		}
		return
	}
	refs := e.lay.chunks
	last := map[uint32]int{}
	for i, ref := range refs {
		if !ref.raw {
			last[ref.tag] = i
		}
	}
	next := map[uint32]int{}
	usedUnknown := make([]bool, len(m.Unknown))
	for i, ref := range refs {
		n := e.count(ref.tag)
		switch {
		case ref.raw || e.dl.index(ref.tag) < 0:
			if ref.n < len(m.Unknown) && !usedUnknown[ref.n] {
				usedUnknown[ref.n] = true
				e.unknown(ref.n)
			}
		case n < 0:
			e.chunk(ref, 0, 0)
		default:
			from := next[ref.tag]
			to := min(from+ref.n, n)
			if last[ref.tag] == i {
				to = n
			}
			from = min(from, to)
			e.chunk(ref, from, to)
			next[ref.tag] = to
		}
	}
	for _, tag := range e.dl.chunks {
		if _, seen := last[tag]; seen {
			continue
		}
		// VERS and MODL stay absent if the file had none.
		if e.wanted(tag) {
			e.chunk(chunkRef{tag: tag}, 0, max(e.count(tag), 0))
		}
	}
	for i, used := range usedUnknown {
		if !used {
			e.unknown(i)
		}
	}
	e.b = append(e.b, e.lay.trailing...)
}

func (e *encoder) unknown(i int) {
	u := e.m.Unknown[i]
	e.b = append(e.b, u.Tag...)
	e.b = putU32(e.b, uint32(len(u.Data)))
	e.b = append(e.b, u.Data...)
}

// begin reserves an inclusive or exclusive u32 size and returns its offset.
func (e *encoder) begin() int {
	at := len(e.b)
	e.b = append(e.b, 0, 0, 0, 0)
	return at
}

// endSized patches the inclusive size of a record started at at.
func (e *encoder) endSized(at int, rc *rec) {
	e.b = append(e.b, rc.tail...)
	le.PutUint32(e.b[at:], uint32(len(e.b)-at))
}

func (e *encoder) u32(v uint32)    { e.b = putU32(e.b, v) }
func (e *encoder) i32(v int32)     { e.b = putU32(e.b, uint32(v)) }
func (e *encoder) f32(v float32)   { e.b = putF32(e.b, v) }
func (e *encoder) vec3(v Vec3)     { e.b = putVec3(e.b, v) }
func (e *encoder) extent(x Extent) { e.f32(x.BoundsRadius); e.vec3(x.Min); e.vec3(x.Max) }

// str writes a fixed-size string field, reusing the decoded raw bytes when
// they still spell the same string.
func (e *encoder) str(s string, n int, rc *rec, idx int) {
	if raw, ok := rc.strs[idx]; ok && len(raw) == n {
		i := bytes.IndexByte(raw, 0)
		if i >= 0 && string(raw[:i]) == s {
			e.b = append(e.b, raw...)
			return
		}
	}
	if len(s) > n {
		s = s[:n]
	}
	e.b = append(e.b, s...)
	for i := len(s); i < n; i++ {
		e.b = append(e.b, 0)
	}
}

// list writes what a WoW list chunk has before its n records (see
// decoder.list); a Warcraft III list has nothing.
func (e *encoder) list(tag uint32, n int) {
	if !e.v.wow() {
		return
	}
	e.u32(uint32(n))
	switch tag {
	case tMTLS:
		e.u32(e.wow.mtlsWord)
	case tATCH:
		e.u32(e.wow.atchWord)
	}
}

func (e *encoder) chunk(ref chunkRef, from, to int) {
	m := e.m
	head := len(e.b)
	e.u32(ref.tag)
	e.u32(0)
	start := len(e.b)
	switch ref.tag {
	case tVERS:
		e.u32(uint32(e.v))
	case tMODL:
		var rc rec
		if e.lay != nil {
			rc = e.lay.modl
		}
		e.str(m.Name, 80, &rc, 0)
		e.str(m.AnimationFile, 260, &rc, 1)
		e.extent(m.Extent)
		e.u32(m.BlendTime)
		if e.v.wow() {
			e.b = append(e.b, e.wow.modlFlags)
		}
	case tSEQS:
		e.list(ref.tag, to-from)
		for i := from; i < to; i++ {
			e.sequence(&m.Sequences[i])
		}
	case tGLBS:
		e.b = appendWords(e.b, m.GlobalSequences[from:to], 4)
	case tMTLS:
		e.list(ref.tag, to-from)
		for i := from; i < to; i++ {
			e.material(&m.Materials[i])
		}
	case tTEXS:
		for i := from; i < to; i++ {
			t := &m.Textures[i]
			e.u32(t.ReplaceableID)
			e.str(t.Path, 260, &t.rec, 0)
			e.u32(t.Flags)
		}
	case tTXAN:
		e.list(ref.tag, to-from)
		for i := from; i < to; i++ {
			t := &m.TextureAnims[i]
			at := e.begin()
			e.tracks(&t.rec, ordTexAnim, t.track)
			e.endSized(at, &t.rec)
		}
	case tGEOS:
		e.list(ref.tag, to-from)
		if e.v == 1500 {
			// WoW v1500 geosets are M2-style batches.
			e.geosets1500()
			break
		}
		for i := from; i < to; i++ {
			e.geoset(&m.Geosets[i])
		}
	case tGEOA:
		e.list(ref.tag, to-from)
		for i := from; i < to; i++ {
			e.geosetAnim(&m.GeosetAnims[i])
		}
	case tBONE:
		e.list(ref.tag, to-from)
		for i := from; i < to; i++ {
			b := &m.Bones[i]
			e.node(&b.Node)
			e.i32(b.GeosetID)
			e.i32(b.GeosetAnimID)
		}
	case tLITE:
		e.list(ref.tag, to-from)
		for i := from; i < to; i++ {
			e.light(&m.Lights[i])
		}
	case tHELP:
		e.list(ref.tag, to-from)
		for i := from; i < to; i++ {
			e.node(&m.Helpers[i].Node)
		}
	case tATCH:
		e.list(ref.tag, to-from)
		for i := from; i < to; i++ {
			e.attachment(i, &m.Attachments[i])
		}
	case tPIVT:
		e.b = appendWords(e.b, m.PivotPoints[from:to], 4)
	case tPREM:
		for i := from; i < to; i++ {
			e.prem(&m.ParticleEmitters[i])
		}
	case tPRE2:
		for i := from; i < to; i++ {
			e.pre2(&m.ParticleEmitters2[i])
		}
	case tCORN:
		for i := from; i < to; i++ {
			e.corn(&m.PopcornEmitters[i])
		}
	case tRIBB:
		for i := from; i < to; i++ {
			e.ribb(&m.RibbonEmitters[i])
		}
	case tCAMS:
		e.list(ref.tag, to-from)
		for i := from; i < to; i++ {
			e.camera(&m.Cameras[i])
		}
	case tEVTS:
		e.list(ref.tag, to-from)
		for i := from; i < to; i++ {
			e.event(&m.EventObjects[i])
		}
	case tCLID:
		for i := from; i < to; i++ {
			c := &m.CollisionShapes[i]
			e.node(&c.Node)
			e.u32(uint32(c.Type))
			for j := 0; j < c.NumVertices(); j++ {
				e.vec3(c.Vertices[j])
			}
			if c.HasRadius() {
				e.f32(c.BoundsRadius)
			}
		}
	case tFAFX:
		for i := from; i < to; i++ {
			f := &m.FaceEffects[i]
			e.str(f.Type, 80, &f.rec, 0)
			e.str(f.Path, 260, &f.rec, 1)
		}
	case tBPOS:
		e.u32(uint32(to - from))
		e.b = appendWords(e.b, m.BindPose[from:to], 4)
	case tSNDS:
		for i := from; i < to; i++ {
			s := &m.SoundTracks[i]
			e.str(s.Path, 260, &s.rec, 0)
			e.f32(s.Volume)
			e.f32(s.Pitch)
			e.u32(s.Flags)
		}
	}
	e.b = append(e.b, ref.pad...)
	size := len(e.b) - start
	if ref.over > 0 && ref.over <= size {
		size -= ref.over
	}
	le.PutUint32(e.b[head+4:], uint32(size))
}

// tracks writes a record's tracks in the decoded file order, then any tracks
// the model gained since, in canonical order. field maps a tag to the
// record's field; a tag of the file order that canon does not list (the
// record was decoded in the other dialect) is left to canon.
func (e *encoder) tracks(rc *rec, canon []uint32, field func(tag uint32) trackField) {
	if rc.order == nil {
		for _, t := range canon {
			e.put(t, field(t))
		}
		return
	}
	for _, t := range rc.order {
		if slices.Contains(canon, t) {
			e.put(t, field(t))
		}
	}
	for _, t := range canon {
		if !slices.Contains(rc.order, t) {
			e.put(t, field(t))
		}
	}
}

// put writes the track f holds, if any, under tag (see decoder.take for how
// the dialects store values).
func (e *encoder) put(tag uint32, f trackField) {
	switch {
	case f.u != nil:
		if e.v.wow() {
			putSimpleTrack(e, tag, *f.u)
			return
		}
		putTrack(e, tag, *f.u, putU32)
	case f.f != nil:
		putTrack(e, tag, *f.f, putF32)
	case f.v != nil:
		putTrack(e, tag, *f.v, putVec3)
	case f.q != nil:
		if e.v.wow() {
			putTrack(e, tag, *f.q, putCQuat)
			return
		}
		putTrack(e, tag, *f.q, putQuat)
	}
}

func putTrack[T TrackValue](e *encoder, tag uint32, t *Track[T], put func([]byte, T) []byte) {
	if t == nil {
		return
	}
	b := putU32(e.b, tag)
	b = putU32(b, uint32(len(t.Keys)))
	b = putU32(b, uint32(t.Interpolation))
	b = putU32(b, uint32(t.GlobalSeqID))
	tan := t.Interpolation.HasTangents()
	for i := range t.Keys {
		k := &t.Keys[i]
		b = putU32(b, uint32(k.Frame))
		b = put(b, k.Value)
		if tan {
			b = put(b, k.InTan)
			b = put(b, k.OutTan)
		}
	}
	e.b = b
}

func (e *encoder) node(n *Node) {
	at := e.begin()
	e.str(n.Name, 80, &n.nrec, 0)
	e.i32(n.ObjectID)
	e.i32(n.ParentID)
	e.u32(n.Flags)
	e.tracks(&n.nrec, ordNode, n.track)
	e.endSized(at, &n.nrec)
}

func (e *encoder) sequence(s *Sequence) {
	e.str(s.Name, 80, &s.rec, 0)
	e.u32(s.Interval[0])
	e.u32(s.Interval[1])
	e.f32(s.MoveSpeed)
	e.u32(s.Flags)
	if e.v.wow() {
		// See decoder.sequence.
		e.extent(s.Extent)
		e.f32(s.Frequency)
		e.u32(s.Replay[0])
		e.u32(s.Replay[1])
		e.u32(s.BlendTime)
		return
	}
	e.f32(s.Rarity)
	e.u32(s.SyncPoint)
	e.extent(s.Extent)
}

func (e *encoder) material(mt *Material) {
	at := e.begin()
	e.i32(mt.PriorityPlane)
	if !e.v.wow() {
		// See decoder.material.
		e.u32(mt.Flags)
		if e.v.since(900) && e.v < 1100 {
			e.str(mt.Shader, 80, &mt.rec, 0)
		}
		e.u32(tLAYS)
	}
	e.u32(uint32(len(mt.Layers)))
	for i := range mt.Layers {
		e.layer(&mt.Layers[i])
	}
	e.endSized(at, &mt.rec)
}

func (e *encoder) layer(l *Layer) {
	at := e.begin()
	e.u32(uint32(l.FilterMode))
	e.u32(l.Flags)
	e.i32(l.TextureID)
	e.i32(l.TextureAnimID)
	e.u32(l.CoordID)
	e.f32(l.Alpha)
	if e.v.since(900) {
		e.f32(l.EmissiveGain)
	}
	if e.v.since(1000) {
		e.vec3(l.FresnelColor)
		e.f32(l.FresnelOpacity)
		e.f32(l.FresnelTeamColor)
	}
	if e.v.since(1100) {
		e.u32(l.ShaderTypeID)
		e.u32(uint32(len(l.Textures)))
		for i := range l.Textures {
			t := &l.Textures[i]
			e.u32(t.TextureID)
			e.u32(t.Slot)
			putTrack(e, tKMTF, t.TextureIDTrack, putU32)
		}
	}
	e.tracks(&l.rec, e.dl.layer, l.track)
	e.endSized(at, &l.rec)
}

func putWords[T any](e *encoder, tag uint32, s []T, word int) {
	e.u32(tag)
	e.u32(uint32(len(s)))
	e.b = appendWords(e.b, s, word)
}

// geoset writes a Warcraft III or a WoW v1300/1400 geoset (see decoder.geoset).
func (e *encoder) geoset(g *Geoset) {
	at := e.begin()
	putWords(e, tVRTX, g.Vertices, 4)
	putWords(e, tNRMS, g.Normals, 4)
	if e.v.wow() {
		e.uvas(g)
		e.u32(tPTYP)
		e.u32(uint32(len(g.FaceTypes)))
		for _, t := range g.FaceTypes {
			if t > 255 {
				e.failf("face type %d does not fit the u8 PTYP of v1300", t)
			}
			e.b = append(e.b, byte(t))
		}
	} else {
		putWords(e, tPTYP, g.FaceTypes, 4)
	}
	putWords(e, tPCNT, g.FaceGroups, 4)
	putWords(e, tPVTX, g.Faces, 2)
	putWords(e, tGNDX, g.VertexGroups, 1)
	putWords(e, tMTGC, g.MatrixGroups, 4)
	putWords(e, tMATS, g.MatrixIndices, 4)
	if e.v.wow() {
		e.boneWords(g)
	}
	e.u32(g.MaterialID)
	e.u32(g.SelectionGroup)
	e.u32(g.SelectionFlags)
	if e.v.since(900) {
		e.u32(g.LOD)
		e.str(g.LODName, 80, &g.rec, 0)
	}
	e.extent(g.Extent)
	e.u32(uint32(len(g.SequenceExtents)))
	e.b = appendWords(e.b, g.SequenceExtents, 4)
	if e.v.since(900) {
		if g.Tangents != nil {
			putWords(e, tTANG, g.Tangents, 4)
		}
		if g.Skin != nil {
			putWords(e, tSKIN, g.Skin, 1)
		}
	}
	if !e.v.wow() {
		e.u32(tUVAS)
		e.u32(uint32(len(g.UVSets)))
		for _, uv := range g.UVSets {
			putWords(e, tUVBS, uv, 4)
		}
	}
	e.endSized(at, &g.rec)
}

func (e *encoder) geosetAnim(g *GeosetAnim) {
	at := e.begin()
	if e.v.wow() {
		// See decoder.geosetAnim.
		e.i32(g.GeosetID)
		e.f32(g.Alpha)
		e.vec3(g.Color)
		e.u32(swapLowBits(g.Flags))
	} else {
		e.f32(g.Alpha)
		e.u32(g.Flags)
		e.vec3(g.Color)
		e.i32(g.GeosetID)
	}
	e.tracks(&g.rec, ordGeosetAnim, g.track)
	e.endSized(at, &g.rec)
}

func (e *encoder) light(l *Light) {
	at := e.begin()
	e.node(&l.Node)
	e.u32(uint32(l.Type))
	e.f32(l.AttenuationStart)
	e.f32(l.AttenuationEnd)
	e.vec3(l.Color)
	e.f32(l.Intensity)
	e.vec3(l.AmbColor)
	e.f32(l.AmbIntensity)
	if e.v.since(1200) {
		e.f32(l.ShadowIntensity)
	}
	e.tracks(&l.rec, e.dl.light, l.track)
	e.endSized(at, &l.rec)
}

// attachment writes the i-th attachment.
func (e *encoder) attachment(i int, a *Attachment) {
	at := e.begin()
	e.node(&a.Node)
	if e.v.wow() {
		// See decoder.attachment.
		e.i32(a.AttachmentID)
		var pad uint8
		if i < len(e.wow.attPad) {
			pad = e.wow.attPad[i]
		}
		e.b = append(e.b, pad)
		e.str(a.Path, 260, &a.rec, 0)
	} else {
		e.str(a.Path, 260, &a.rec, 0)
		e.i32(a.AttachmentID)
	}
	e.tracks(&a.rec, e.dl.attachment, a.track)
	e.endSized(at, &a.rec)
}

func (e *encoder) prem(p *ParticleEmitter) {
	at := e.begin()
	e.node(&p.Node)
	e.f32(p.EmissionRate)
	e.f32(p.Gravity)
	e.f32(p.Longitude)
	e.f32(p.Latitude)
	e.str(p.Path, 260, &p.rec, 0)
	e.f32(p.LifeSpan)
	e.f32(p.Speed)
	e.tracks(&p.rec, ordPREM, p.track)
	e.endSized(at, &p.rec)
}

func (e *encoder) pre2(p *ParticleEmitter2) {
	at := e.begin()
	e.node(&p.Node)
	e.f32(p.Speed)
	e.f32(p.Variation)
	e.f32(p.Latitude)
	e.f32(p.Gravity)
	e.f32(p.LifeSpan)
	e.f32(p.EmissionRate)
	e.f32(p.Width)
	e.f32(p.Length)
	e.u32(p.FilterMode)
	e.u32(p.Rows)
	e.u32(p.Columns)
	e.u32(p.HeadOrTail)
	e.f32(p.TailLength)
	e.f32(p.Time)
	for _, c := range p.SegmentColors {
		e.vec3(c)
	}
	e.b = append(e.b, p.SegmentAlphas[:]...)
	e.vec3(p.SegmentScaling)
	for _, iv := range [][3]uint32{p.HeadIntervals, p.HeadDecayIntervals, p.TailIntervals, p.TailDecayIntervals} {
		e.u32(iv[0])
		e.u32(iv[1])
		e.u32(iv[2])
	}
	e.i32(p.TextureID)
	e.u32(p.Squirt)
	e.i32(p.PriorityPlane)
	e.u32(p.ReplaceableID)
	e.tracks(&p.rec, ordPRE2, p.track)
	e.endSized(at, &p.rec)
}

func (e *encoder) corn(p *PopcornEmitter) {
	at := e.begin()
	e.node(&p.Node)
	e.f32(p.LifeSpan)
	e.f32(p.EmissionRate)
	e.f32(p.Speed)
	e.vec3(p.Color)
	e.f32(p.Alpha)
	e.u32(p.ReplaceableID)
	e.str(p.Path, 260, &p.rec, 0)
	e.str(p.AnimVisibilityGuide, 260, &p.rec, 1)
	e.tracks(&p.rec, ordCORN, p.track)
	e.endSized(at, &p.rec)
}

func (e *encoder) ribb(p *RibbonEmitter) {
	at := e.begin()
	e.node(&p.Node)
	e.f32(p.HeightAbove)
	e.f32(p.HeightBelow)
	e.f32(p.Alpha)
	e.vec3(p.Color)
	e.f32(p.LifeSpan)
	e.u32(p.TextureSlot)
	e.u32(p.EmissionRate)
	e.u32(p.Rows)
	e.u32(p.Columns)
	e.i32(p.MaterialID)
	e.f32(p.Gravity)
	e.tracks(&p.rec, ordRIBB, p.track)
	e.endSized(at, &p.rec)
}

func (e *encoder) camera(c *Camera) {
	at := e.begin()
	e.str(c.Name, 80, &c.rec, 0)
	e.vec3(c.Position)
	e.f32(c.FieldOfView)
	e.f32(c.FarClip)
	e.f32(c.NearClip)
	e.vec3(c.TargetPosition)
	e.tracks(&c.rec, e.dl.camera, c.track)
	e.endSized(at, &c.rec)
}

func (e *encoder) event(ev *EventObject) {
	at := -1
	if e.v.wow() {
		at = e.begin() // see decoder.event
	}
	e.node(&ev.Node)
	if ev.rec.flags&recNoKEVT == 0 || len(ev.Frames) > 0 {
		e.u32(tKEVT)
		e.u32(uint32(len(ev.Frames)))
		e.i32(ev.GlobalSeqID)
		e.b = appendWords(e.b, ev.Frames, 4)
	}
	if at >= 0 {
		e.endSized(at, &ev.rec)
	}
}
