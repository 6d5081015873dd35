package mdx

import (
	"bytes"
	"fmt"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// Every count a file gives is checked against the bytes that remain, so
// what a decoder allocates is at most a small multiple of the input's
// size. Two caps bound what no real file comes near, so that a list of
// tiny records cannot make millions of allocations: maxRecords records in
// one chunk (geosets, bones, sequences...) and maxKeys keys in one track.
// A file over them is malformed (*FormatError).
const (
	maxRecords = 1 << 20
	maxKeys    = 1 << 24
)

// IsMDX reports whether b starts with the MDX magic "MDLX".
func IsMDX(b []byte) bool { return len(b) >= 4 && le.Uint32(b) == tMDLX }

// Format is a model file format detected by content.
type Format int

// Formats Detect can return.
const (
	FormatUnknown Format = iota
	FormatMDX            // binary, "MDLX" magic
	FormatMDL            // text, "FormatVersion" in the first 4 KB
)

// Detect tells MDX from MDL by content, not by file name: MDX starts with
// "MDLX"; MDL text mentions "FormatVersion" in its first 4 KB (as
// mdx-m3-viewer decides), or, a fragment without a Version block, starts
// (after blanks and comments) with the name of a top-level MDL block.
func Detect(b []byte) Format {
	if IsMDX(b) {
		return FormatMDX
	}
	head := b
	if len(head) > 4096 {
		head = head[:4096]
	}
	if bytes.Contains(head, []byte("FormatVersion")) || looksLikeMDL(b) {
		return FormatMDL
	}
	return FormatUnknown
}

type decoder struct {
	r   reader
	v   ver
	dl  *dialect
	m   *Model
	lay *fileLayout
	// decoded has bit i set once a chunk of tag dl.chunks[i] has been
	// decoded (see once).
	decoded uint32
	// versioned is set once a chunk whose layout depends on the version
	// has been read.
	versioned bool
	// vertices and faceIndices count the geometry read so far, against
	// the limits.
	vertices, faceIndices int
	lim                   budget.Limits
}

// geometry counts a geoset's nv vertices and ni face indices, read at
// offset at, and fails with a *budget.Error once the model's totals pass a
// limit.
func (d *decoder) geometry(at, nv, ni int) {
	r := &d.r
	d.vertices += nv
	d.faceIndices += ni
	err := d.lim.Check(budget.Vertices, int64(d.vertices), "", "")
	if err == nil {
		err = d.lim.Check(budget.Triangles, int64(d.faceIndices/3), "", "")
	}
	if err == nil {
		return
	}
	if r.err == nil {
		err.(*budget.Error).What = fmt.Sprintf("mdx: %s at offset %#x, the geoset that passes it", tagString(r.chunk), at)
		r.err = err
	}
	r.pos = r.end
}

// Decode decodes the MDX model held in b (Warcraft III 800-1100, or early
// WoW 1300-1500) within lim's geometry limits (Vertices and Triangles, over
// all geosets: what is drawn from a model costs far more than its bytes,
// as each vertex is posed and each triangle set up for every picture; the
// zero Limits means the defaults). It counts the geometry as it reads and
// stops at the geoset that passes a limit, with a *budget.Error; malformed
// content gives a *FormatError. The model does not keep references to b.
func Decode(b []byte, lim budget.Limits) (*Model, error) {
	if !IsMDX(b) {
		return nil, ErrNotMDX
	}
	// A Warcraft III file is read as version 800 until its VERS says
	// otherwise (the reference viewer reads a file without VERS as 800); a
	// WoW file is known by its first chunk, as its layout differs from the
	// start.
	dec := &decoder{r: reader{b: b}, v: 800, m: &Model{}, lay: &fileLayout{}, lim: lim}
	if v, ok := wowVersion(b); ok {
		dec.v = ver(v)
		dec.lay.wow = &wowLayout{}
	}
	dec.dl = dec.v.dialect()
	if err := dec.decode(); err != nil {
		return nil, err
	}
	if dec.m.Version == 0 {
		// No VERS (a VERS of 0 is an error).
		dec.m.Version = 800
	}
	dec.m.file = dec.lay
	return dec.m, nil
}

func (d *decoder) decode() error {
	r := &d.r
	b := r.b
	pos := 4
	for len(b)-pos >= 8 {
		tag := le.Uint32(b[pos:])
		size := le.Uint32(b[pos+4:])
		r.chunk = tag
		if int64(size) > int64(len(b)-pos-8) {
			return &FormatError{Offset: int64(pos), Chunk: tagString(tag),
				Reason: fmt.Sprintf("chunk size %d exceeds remaining %d bytes", size, len(b)-pos-8)}
		}
		start := pos + 8
		end := start + int(size)
		r.pos, r.end = start, end
		ref := chunkRef{tag: tag}
		if err := d.chunk(&ref, start, end); err != nil {
			return err
		}
		if r.err != nil {
			return r.err
		}
		switch {
		case r.pos < end:
			// Bytes that do not make a whole record (or that follow a
			// header chunk's fields).
			ref.pad = bytes.Clone(b[r.pos:end])
		case r.pos > end:
			// Only Warcraft III lists read past the chunk's end: see
			// records.
			ref.over = r.pos - end
			end = r.pos
		}
		d.lay.chunks = append(d.lay.chunks, ref)
		pos = end
	}
	if pos < len(b) {
		d.lay.trailing = bytes.Clone(b[pos:])
	}
	return nil
}

// once reports whether a chunk of tag has been decoded before and may be
// decoded only once, and notes that it has been decoded now. A repeat is kept
// raw: a second VERS cannot change how earlier chunks were read, and a second
// MODL has nowhere to go. Warcraft III lists may repeat (their records add
// up); a WoW list carries its record count, so a repeat would not simply add
// records and is kept raw too.
func (d *decoder) once(tag uint32, i int) bool {
	bit := uint32(1) << i
	seen := d.decoded&bit != 0
	d.decoded |= bit
	return seen && (d.v.wow() || tag == tVERS || tag == tMODL)
}

// fixed splits a chunk of fixed-size entries; the bytes left over become
// the chunk's padding.
func (d *decoder) fixed(ref *chunkRef, start, end, size int) int {
	n := (end - start) / size
	if n > maxRecords {
		d.r.tooMany(start, "record count", n, maxRecords)
		return 0
	}
	ref.n = n
	return n
}

// list reads a chunk that holds a list of variable-size records, calling one
// for each. A Warcraft III list has no count: see records. A WoW list starts
// with its record count, checked against the bytes left at min bytes a
// record; MTLS and ATCH then have a u32 that the client ignores but files
// fill in, kept for re-encoding.
func (d *decoder) list(ref *chunkRef, end, min int, what string, one func()) {
	if !d.v.wow() {
		d.records(ref, end, one)
		return
	}
	r := &d.r
	n := d.listCount(min, what)
	switch ref.tag {
	case tMTLS:
		d.lay.wow.mtlsWord = r.u32()
	case tATCH:
		d.lay.wow.atchWord = r.u32()
	}
	for i := 0; i < n && r.err == nil; i++ {
		one()
	}
	ref.n = n
}

// records parses Warcraft III variable-size records until the chunk's
// declared end; fewer than 4 bytes left become padding. The reader's bound is
// the end of the file, because mdx-m3-viewer (and so the files made for it)
// tolerates a last record that runs past a too-small chunk size; decode
// records that as chunkRef.over.
func (d *decoder) records(ref *chunkRef, end int, one func()) {
	r := &d.r
	r.end = len(r.b)
	for r.err == nil && end-r.pos >= 4 {
		one()
		ref.n++
		if ref.n > maxRecords {
			r.tooMany(r.pos, "record count", ref.n, maxRecords)
		}
	}
}

// listCount reads a WoW list's record count and checks it against the bytes
// left, given the smallest record size, and the quota.
func (d *decoder) listCount(min int, what string) int {
	r := &d.r
	c := r.u32()
	n, ok := r.count(c, min, what)
	if !ok {
		return 0
	}
	if n > maxRecords {
		r.tooMany(r.pos-4, what+" count", n, maxRecords)
		return 0
	}
	return n
}

func (d *decoder) chunk(ref *chunkRef, start, end int) error {
	r := &d.r
	m := d.m
	if i := d.dl.index(ref.tag); i < 0 || d.once(ref.tag, i) {
		d.unknown(ref, start, end)
		return nil
	}
	switch ref.tag {
	case tVERS:
		if !r.need(4, "version") {
			return nil
		}
		m.Version = r.u32()
		if d.v.wow() {
			// wowVersion has read this chunk already.
			break
		}
		if d.versioned && m.Version != 800 {
			return &FormatError{Offset: int64(start - 8), Chunk: "VERS", Reason: fmt.Sprintf("version %d comes after chunks already read as version 800", m.Version)}
		}
		if !wc3Version(m.Version) {
			return UnsupportedError(fmt.Sprintf("MDX version %d (want %s)", m.Version, wc3Versions))
		}
		d.v = ver(m.Version)
	case tMODL:
		size := 372
		if d.v.wow() {
			size++ // the flags byte
		}
		if !r.need(size, "model header") {
			return nil
		}
		m.Name = r.str(80, &d.lay.modl, 0)
		m.AnimationFile = r.str(260, &d.lay.modl, 1)
		m.Extent = r.extent()
		m.BlendTime = r.u32()
		if d.v.wow() {
			d.lay.wow.modlFlags = r.b[r.pos]
			r.pos++
		}
	case tSEQS:
		// Sequences have a fixed size, so a Warcraft III SEQS is split by
		// its size; a WoW SEQS is counted like its other lists.
		var n int
		if d.v.wow() {
			n = d.listCount(140, "sequence")
		} else {
			n = d.fixed(ref, start, end, 132)
		}
		m.Sequences = grow(m.Sequences, n)
		for i := 0; i < n && r.err == nil; i++ {
			d.sequence(&m.Sequences[len(m.Sequences)-n+i])
		}
	case tGLBS:
		n := d.fixed(ref, start, end, 4)
		old := len(m.GlobalSequences)
		m.GlobalSequences = grow(m.GlobalSequences, n)
		fillWords(m.GlobalSequences[old:], r.b[start:], 4)
		r.pos = start + 4*n
	case tTEXS:
		n := d.fixed(ref, start, end, 268)
		m.Textures = grow(m.Textures, n)
		for i := 0; i < n && r.err == nil; i++ {
			t := &m.Textures[len(m.Textures)-n+i]
			t.ReplaceableID = r.u32()
			t.Path = r.str(260, &t.rec, 0)
			t.Flags = r.u32()
		}
	case tPIVT:
		n := d.fixed(ref, start, end, 12)
		old := len(m.PivotPoints)
		m.PivotPoints = grow(m.PivotPoints, n)
		fillWords(m.PivotPoints[old:], r.b[start:], 4)
		r.pos = start + 12*n
	case tFAFX:
		n := d.fixed(ref, start, end, 340)
		m.FaceEffects = grow(m.FaceEffects, n)
		for i := 0; i < n && r.err == nil; i++ {
			f := &m.FaceEffects[len(m.FaceEffects)-n+i]
			f.Type = r.str(80, &f.rec, 0)
			f.Path = r.str(260, &f.rec, 1)
		}
	case tSNDS:
		n := d.fixed(ref, start, end, 272)
		m.SoundTracks = grow(m.SoundTracks, n)
		for i := 0; i < n && r.err == nil; i++ {
			s := &m.SoundTracks[len(m.SoundTracks)-n+i]
			s.Path = r.str(260, &s.rec, 0)
			s.Volume = r.f32()
			s.Pitch = r.f32()
			s.Flags = r.u32()
		}
	case tBPOS:
		cnt := r.u32()
		n, ok := r.count(cnt, 48, "bind pose matrix")
		if !ok {
			return nil
		}
		ref.n = n
		old := len(m.BindPose)
		m.BindPose = grow(m.BindPose, n)
		fillWords(m.BindPose[old:], r.b[r.pos:], 4)
		r.pos += n * 48
	case tMTLS:
		d.list(ref, end, 12, "material", func() { d.material(add(&m.Materials)) })
	case tTXAN:
		d.list(ref, end, 4, "texture animation", func() { d.textureAnim(add(&m.TextureAnims)) })
	case tGEOS:
		if d.v == 1500 {
			// WoW v1500 geosets are M2-style batches.
			d.geosets1500()
			break
		}
		d.list(ref, end, 4, "geoset", func() { d.geoset(add(&m.Geosets)) })
	case tGEOA:
		d.list(ref, end, 28, "geoset animation", func() { d.geosetAnim(add(&m.GeosetAnims)) })
	case tBONE:
		d.list(ref, end, 104, "bone", func() {
			b := add(&m.Bones)
			d.node(&b.Node)
			b.GeosetID = r.i32()
			b.GeosetAnimID = r.i32()
		})
	case tHELP:
		d.list(ref, end, 96, "helper", func() { d.node(&add(&m.Helpers).Node) })
	case tLITE:
		d.list(ref, end, 4+96+44, "light", func() { d.light(add(&m.Lights)) })
	case tATCH:
		d.list(ref, end, 4+96+265, "attachment", func() { d.attachment(add(&m.Attachments)) })
	case tPREM:
		d.records(ref, end, func() { d.prem(add(&m.ParticleEmitters)) })
	case tPRE2:
		d.records(ref, end, func() { d.pre2(add(&m.ParticleEmitters2)) })
	case tCORN:
		d.records(ref, end, func() { d.corn(add(&m.PopcornEmitters)) })
	case tRIBB:
		d.records(ref, end, func() { d.ribb(add(&m.RibbonEmitters)) })
	case tCAMS:
		d.list(ref, end, 4+80+36, "camera", func() { d.camera(add(&m.Cameras)) })
	case tEVTS:
		d.list(ref, end, 4+96, "event object", func() { d.event(add(&m.EventObjects), end) })
	case tCLID:
		d.records(ref, end, func() {
			c := add(&m.CollisionShapes)
			d.node(&c.Node)
			c.Type = ShapeType(r.u32())
			for i := 0; i < c.NumVertices(); i++ {
				c.Vertices[i] = r.vec3()
			}
			if c.HasRadius() {
				c.BoundsRadius = r.f32()
			}
		})
	}
	switch ref.tag {
	case tMTLS, tGEOS:
		d.versioned = true
	}
	return nil
}

// unknown keeps a chunk verbatim in Model.Unknown.
func (d *decoder) unknown(ref *chunkRef, start, end int) {
	r := &d.r
	ref.n = len(d.m.Unknown)
	ref.raw = true
	d.m.Unknown = append(d.m.Unknown, RawChunk{Tag: string(r.b[start-8 : start-4]), Data: bytes.Clone(r.b[start:end])})
	r.pos = end
}

// mk makes a slice of n elements, nil for none, so that a decoded empty
// list compares equal to one never set.
func mk[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, n)
}

// grow extends s by n zero elements.
func grow[T any](s []T, n int) []T {
	if n <= 0 {
		return s
	}
	if s == nil {
		return make([]T, n)
	}
	return append(s, make([]T, n)...)
}

// add appends a zero element to *s and returns it, so that records are
// decoded in place.
func add[T any](s *[]T) *T {
	var zero T
	*s = append(*s, zero)
	return &(*s)[len(*s)-1]
}

// take reads the track at r.pos into f unless f already holds one (a
// repeated tag is treated as unknown so its bytes are kept raw), and reports
// whether it did.
func (d *decoder) take(f trackField) bool {
	r := &d.r
	switch {
	case f.u != nil:
		if d.v.wow() {
			// WoW's integer tracks (flipbook frames) have no
			// interpolation type: there is nothing to interpolate.
			return takeSimple(r, f.u)
		}
		return take(r, f.u, getU32, 4)
	case f.f != nil:
		return take(r, f.f, getF32, 4)
	case f.v != nil:
		return take(r, f.v, getVec3, 12)
	case f.q != nil:
		if d.v.wow() {
			return take(r, f.q, getCQuat, 8)
		}
		return take(r, f.q, getQuat, 16)
	}
	return false
}

// tracks reads a record's tracks (see reader.tracks); field maps a tag to
// the record's field.
func (d *decoder) tracks(rc *rec, canon []uint32, field func(tag uint32) trackField) {
	d.r.tracks(rc, canon, func(tag uint32) bool { return d.take(field(tag)) })
}

// node reads the generic-object header (its own inclusive size).
func (d *decoder) node(n *Node) {
	r := &d.r
	_, old, ok := r.sized("node", 96)
	if !ok {
		return
	}
	n.Name = r.str(80, &n.nrec, 0)
	n.ObjectID = r.i32()
	n.ParentID = r.i32()
	n.Flags = r.u32()
	d.tracks(&n.nrec, ordNode, n.track)
	r.done(&n.nrec, old)
}

func (d *decoder) sequence(s *Sequence) {
	r := &d.r
	s.Name = r.str(80, &s.rec, 0)
	s.Interval = [2]uint32{r.u32(), r.u32()}
	s.MoveSpeed = r.f32()
	s.Flags = r.u32()
	if d.v.wow() {
		// WoW has no rarity or sync point; the extent comes first, then
		// what the client needs to pick and blend among animations of the
		// same name.
		s.Extent = r.extent()
		s.Frequency = r.f32()
		s.Replay = [2]uint32{r.u32(), r.u32()}
		s.BlendTime = r.u32()
		return
	}
	s.Rarity = r.f32()
	s.SyncPoint = r.u32()
	s.Extent = r.extent()
}

func (d *decoder) textureAnim(t *TextureAnim) {
	r := &d.r
	_, old, ok := r.sized("texture animation", 4)
	if !ok {
		return
	}
	d.tracks(&t.rec, ordTexAnim, t.track)
	r.done(&t.rec, old)
}

func (d *decoder) material(mt *Material) {
	r := &d.r
	fixed := 12
	hasShader := d.v.since(900) && d.v < 1100
	if hasShader {
		fixed += 80
	}
	_, old, ok := r.sized("material", fixed)
	if !ok {
		return
	}
	mt.PriorityPlane = r.i32()
	var n int
	if d.v.wow() {
		// WoW materials have no flags and no LAYS tag: the layer count
		// follows the priority plane.
		n = d.listCount(28, "layer")
	} else {
		mt.Flags = r.u32()
		if hasShader {
			mt.Shader = r.str(80, &mt.rec, 0)
		}
		if !r.expect(tLAYS) {
			return
		}
		cnt := r.u32()
		if n, ok = r.count(cnt, 28, "layer"); !ok {
			return
		}
	}
	mt.Layers = mk[Layer](n)
	for i := 0; i < n && r.err == nil; i++ {
		d.layer(&mt.Layers[i])
	}
	r.done(&mt.rec, old)
}

func (d *decoder) layer(l *Layer) {
	r := &d.r
	_, old, ok := r.sized("layer", 28)
	if !ok {
		return
	}
	l.FilterMode = FilterMode(r.u32())
	l.Flags = r.u32()
	l.TextureID = r.i32()
	l.TextureAnimID = r.i32()
	l.CoordID = r.u32()
	l.Alpha = r.f32()
	if d.v.since(900) {
		l.EmissiveGain = r.f32()
	}
	if d.v.since(1000) {
		l.FresnelColor = r.vec3()
		l.FresnelOpacity = r.f32()
		l.FresnelTeamColor = r.f32()
	}
	if d.v.since(1100) {
		l.ShaderTypeID = r.u32()
		cnt := r.u32()
		n, ok := r.count(cnt, 8, "layer texture")
		if !ok {
			return
		}
		l.Textures = mk[LayerTexture](n)
		for i := range l.Textures {
			t := &l.Textures[i]
			t.TextureID = r.u32()
			t.Slot = r.u32()
			if tag, ok := r.peek(); ok && tag == tKMTF {
				t.TextureIDTrack = readTrack(r, getU32, 4)
			}
		}
	}
	d.tracks(&l.rec, d.dl.layer, l.track)
	r.done(&l.rec, old)
}

// words reads a counted sub-chunk of fixed-size numeric elements.
func words[T any](r *reader, tag uint32, elem, word int, what string) []T {
	if !r.expect(tag) {
		return nil
	}
	cnt := r.u32()
	n, ok := r.count(cnt, elem, what)
	if !ok {
		return nil
	}
	s := mk[T](n)
	fillWords(s, r.b[r.pos:], word)
	r.pos += n * elem
	return s
}

// geoset reads a Warcraft III or a WoW v1300/1400 geoset (see geosets1500
// for v1500).
func (d *decoder) geoset(g *Geoset) {
	r := &d.r
	_, old, ok := r.sized("geoset", 4)
	if !ok {
		return
	}
	at := r.pos
	g.Vertices = words[Vec3](r, tVRTX, 12, 4, "vertex")
	d.geometry(at, len(g.Vertices), 0)
	g.Normals = words[Vec3](r, tNRMS, 12, 4, "normal")
	if d.v.wow() {
		// WoW moves the UV sets up here, all in UVAS, and stores the face
		// types as bytes.
		d.uvas(g)
		if types := words[uint8](r, tPTYP, 1, 1, "face type group"); types != nil {
			g.FaceTypes = make([]uint32, len(types))
			for i, t := range types {
				g.FaceTypes[i] = uint32(t)
			}
		}
	} else {
		g.FaceTypes = words[uint32](r, tPTYP, 4, 4, "face type group")
	}
	g.FaceGroups = words[uint32](r, tPCNT, 4, 4, "face group")
	at = r.pos
	g.Faces = words[uint16](r, tPVTX, 2, 2, "face index")
	d.geometry(at, 0, len(g.Faces))
	g.VertexGroups = words[uint8](r, tGNDX, 1, 1, "vertex group")
	g.MatrixGroups = words[uint32](r, tMTGC, 4, 4, "matrix group")
	g.MatrixIndices = words[uint32](r, tMATS, 4, 4, "matrix index")
	if d.v.wow() && !d.boneWords(g) {
		return
	}
	g.MaterialID = r.u32()
	g.SelectionGroup = r.u32()
	g.SelectionFlags = r.u32()
	if d.v.since(900) {
		g.LOD = r.u32()
		g.LODName = r.str(80, &g.rec, 0)
	}
	g.Extent = r.extent()
	cnt := r.u32()
	n, ok := r.count(cnt, 28, "sequence extent")
	if !ok {
		return
	}
	g.SequenceExtents = mk[Extent](n)
	fillWords(g.SequenceExtents, r.b[r.pos:], 4)
	r.pos += 28 * n
	if d.v.since(900) {
		if t, ok := r.peek(); ok && t == tTANG {
			g.Tangents = words[Vec4](r, tTANG, 16, 4, "tangent")
			if g.Tangents == nil && r.err == nil {
				g.Tangents = []Vec4{}
			}
		}
		if t, ok := r.peek(); ok && t == tSKIN {
			g.Skin = words[byte](r, tSKIN, 1, 1, "skin weight")
			if g.Skin == nil && r.err == nil {
				g.Skin = []byte{}
			}
		}
	}
	if !d.v.wow() {
		if !r.expect(tUVAS) {
			return
		}
		cnt = r.u32()
		n, ok = r.count(cnt, 8, "UV set")
		if !ok {
			return
		}
		g.UVSets = mk[[]Vec2](n)
		for i := range g.UVSets {
			g.UVSets[i] = words[Vec2](r, tUVBS, 8, 4, "texture coordinate")
		}
	}
	r.done(&g.rec, old)
}

func (d *decoder) geosetAnim(g *GeosetAnim) {
	r := &d.r
	_, old, ok := r.sized("geoset animation", 28)
	if !ok {
		return
	}
	if d.v.wow() {
		// WoW puts the geoset id first and the flags last, with the
		// "use colour" bit moved (see swapLowBits).
		g.GeosetID = r.i32()
		g.Alpha = r.f32()
		g.Color = r.vec3()
		g.Flags = swapLowBits(r.u32())
	} else {
		g.Alpha = r.f32()
		g.Flags = r.u32()
		g.Color = r.vec3()
		g.GeosetID = r.i32()
	}
	d.tracks(&g.rec, ordGeosetAnim, g.track)
	r.done(&g.rec, old)
}

func (d *decoder) light(l *Light) {
	r := &d.r
	min := 4 + 96 + 44
	if d.v.since(1200) {
		min += 4
	}
	_, old, ok := r.sized("light", min)
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
	if d.v.since(1200) {
		l.ShadowIntensity = r.f32()
	}
	d.tracks(&l.rec, d.dl.light, l.track)
	r.done(&l.rec, old)
}

func (d *decoder) attachment(a *Attachment) {
	r := &d.r
	min := 4 + 96 + 264
	if d.v.wow() {
		min++
	}
	_, old, ok := r.sized("attachment", min)
	if !ok {
		return
	}
	d.node(&a.Node)
	if d.v.wow() {
		// WoW has the attachment id first, then a padding byte (kept:
		// some files have values there), then the path.
		a.AttachmentID = r.i32()
		var pad uint8
		if r.need(1, "attachment padding") {
			pad = r.b[r.pos]
			r.pos++
		}
		d.lay.wow.attPad = append(d.lay.wow.attPad, pad)
		a.Path = r.str(260, &a.rec, 0)
	} else {
		a.Path = r.str(260, &a.rec, 0)
		a.AttachmentID = r.i32()
	}
	d.tracks(&a.rec, d.dl.attachment, a.track)
	r.done(&a.rec, old)
}

func (d *decoder) prem(p *ParticleEmitter) {
	r := &d.r
	_, old, ok := r.sized("particle emitter", 4+96+284)
	if !ok {
		return
	}
	d.node(&p.Node)
	p.EmissionRate = r.f32()
	p.Gravity = r.f32()
	p.Longitude = r.f32()
	p.Latitude = r.f32()
	p.Path = r.str(260, &p.rec, 0)
	p.LifeSpan = r.f32()
	p.Speed = r.f32()
	d.tracks(&p.rec, ordPREM, p.track)
	r.done(&p.rec, old)
}

func (d *decoder) pre2(p *ParticleEmitter2) {
	r := &d.r
	_, old, ok := r.sized("particle emitter 2", 4+96+171)
	if !ok {
		return
	}
	d.node(&p.Node)
	p.Speed = r.f32()
	p.Variation = r.f32()
	p.Latitude = r.f32()
	p.Gravity = r.f32()
	p.LifeSpan = r.f32()
	p.EmissionRate = r.f32()
	p.Width = r.f32()
	p.Length = r.f32()
	p.FilterMode = r.u32()
	p.Rows = r.u32()
	p.Columns = r.u32()
	p.HeadOrTail = r.u32()
	p.TailLength = r.f32()
	p.Time = r.f32()
	for i := range p.SegmentColors {
		p.SegmentColors[i] = r.vec3()
	}
	if r.need(3, "segment alphas") {
		copy(p.SegmentAlphas[:], r.b[r.pos:r.pos+3])
		r.pos += 3
	}
	p.SegmentScaling = r.vec3()
	for _, iv := range []*[3]uint32{&p.HeadIntervals, &p.HeadDecayIntervals, &p.TailIntervals, &p.TailDecayIntervals} {
		iv[0], iv[1], iv[2] = r.u32(), r.u32(), r.u32()
	}
	p.TextureID = r.i32()
	p.Squirt = r.u32()
	p.PriorityPlane = r.i32()
	p.ReplaceableID = r.u32()
	d.tracks(&p.rec, ordPRE2, p.track)
	r.done(&p.rec, old)
}

func (d *decoder) corn(p *PopcornEmitter) {
	r := &d.r
	_, old, ok := r.sized("popcorn emitter", 4+96+552)
	if !ok {
		return
	}
	d.node(&p.Node)
	p.LifeSpan = r.f32()
	p.EmissionRate = r.f32()
	p.Speed = r.f32()
	p.Color = r.vec3()
	p.Alpha = r.f32()
	p.ReplaceableID = r.u32()
	p.Path = r.str(260, &p.rec, 0)
	p.AnimVisibilityGuide = r.str(260, &p.rec, 1)
	d.tracks(&p.rec, ordCORN, p.track)
	r.done(&p.rec, old)
}

func (d *decoder) ribb(p *RibbonEmitter) {
	r := &d.r
	_, old, ok := r.sized("ribbon emitter", 4+96+52)
	if !ok {
		return
	}
	d.node(&p.Node)
	p.HeightAbove = r.f32()
	p.HeightBelow = r.f32()
	p.Alpha = r.f32()
	p.Color = r.vec3()
	p.LifeSpan = r.f32()
	p.TextureSlot = r.u32()
	p.EmissionRate = r.u32()
	p.Rows = r.u32()
	p.Columns = r.u32()
	p.MaterialID = r.i32()
	p.Gravity = r.f32()
	d.tracks(&p.rec, ordRIBB, p.track)
	r.done(&p.rec, old)
}

func (d *decoder) camera(c *Camera) {
	r := &d.r
	_, old, ok := r.sized("camera", 4+80+36)
	if !ok {
		return
	}
	c.Name = r.str(80, &c.rec, 0)
	c.Position = r.vec3()
	c.FieldOfView = r.f32()
	c.FarClip = r.f32()
	c.NearClip = r.f32()
	c.TargetPosition = r.vec3()
	d.tracks(&c.rec, d.dl.camera, c.track)
	r.done(&c.rec, old)
}

// event reads an event object: a node, then a KEVT block unless the record
// (or, in Warcraft III, the chunk, which ends at end) ends first.
func (d *decoder) event(e *EventObject, end int) {
	r := &d.r
	old := -1
	if d.v.wow() {
		// WoW gives the record an inclusive size of its own.
		var ok bool
		if _, old, ok = r.sized("event object", 4+96); !ok {
			return
		}
	}
	d.node(&e.Node)
	e.GlobalSeqID = -1
	if t, ok := r.peek(); ok && t == tKEVT && r.pos+4 <= end {
		r.pos += 4
		cnt := r.u32()
		e.GlobalSeqID = r.i32()
		n, ok := r.count(cnt, 4, "KEVT key")
		if !ok {
			return
		}
		e.Frames = mk[uint32](n)
		fillWords(e.Frames, r.b[r.pos:], 4)
		r.pos += 4 * n
	} else {
		e.rec.flags |= recNoKEVT
	}
	if old >= 0 {
		r.done(&e.rec, old)
	}
}
