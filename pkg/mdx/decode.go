package mdx

import (
	"bytes"
	"fmt"
	"io"
)

// ReadQuotas bounds what a decoder accepts from a hostile file. Every count
// is also checked against the bytes that remain, so memory use is at most a
// small multiple of the input size; quotas tighten that further. Zero fields
// mean no limit.
type ReadQuotas struct {
	MaxFileSize int // bytes read from an io.Reader
	MaxRecords  int // records in one chunk (geosets, bones, sequences...)
	MaxKeys     int // keys in one track
	// MaxVertices and MaxTriangles bound a model's geometry over all its
	// geosets (triangles are face indices / 3), for what is drawn from it
	// costs far more than its text; enforced by the MDL decoder.
	MaxVertices  int
	MaxTriangles int
}

// DefaultQuotas are used by Decode, DecodeBytes and DecodeMDL. The largest
// model of the test corpus has 48,360 vertices and 71,401 triangles.
var DefaultQuotas = ReadQuotas{MaxFileSize: 1 << 30, MaxRecords: 1 << 20, MaxKeys: 1 << 24,
	MaxVertices: 1 << 20, MaxTriangles: 1 << 21}

// Decoder decodes MDX files with configurable quotas.
type Decoder struct {
	Quotas ReadQuotas
}

// Decode reads an MDX model from r with DefaultQuotas.
func Decode(r io.Reader) (*Model, error) {
	return (&Decoder{Quotas: DefaultQuotas}).Decode(r)
}

// DecodeBytes decodes an MDX model held in b with DefaultQuotas. The model
// does not keep references to b.
func DecodeBytes(b []byte) (*Model, error) {
	return (&Decoder{Quotas: DefaultQuotas}).DecodeBytes(b)
}

// Decode reads all of r and decodes it. Errors from r are returned wrapped;
// malformed content gives a *FormatError.
func (d *Decoder) Decode(r io.Reader) (*Model, error) {
	var b []byte
	var err error
	if d.Quotas.MaxFileSize > 0 {
		b, err = io.ReadAll(io.LimitReader(r, int64(d.Quotas.MaxFileSize)+1))
		if err == nil && len(b) > d.Quotas.MaxFileSize {
			return nil, &QuotaError{Chunk: "MDLX", What: "file size", Limit: d.Quotas.MaxFileSize}
		}
	} else {
		b, err = io.ReadAll(r)
	}
	if err != nil {
		return nil, fmt.Errorf("mdx: reading: %w", err)
	}
	return d.DecodeBytes(b)
}

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
// mdx-m3-viewer decides).
func Detect(b []byte) Format {
	if IsMDX(b) {
		return FormatMDX
	}
	head := b
	if len(head) > 4096 {
		head = head[:4096]
	}
	if bytes.Contains(head, []byte("FormatVersion")) {
		return FormatMDL
	}
	return FormatUnknown
}

type decoder struct {
	r   reader
	v   uint32
	m   *Model
	lay *fileLayout
	// sawVERS and sawMODL make repeats of these single chunks raw chunks;
	// versioned is set once a chunk whose layout depends on the version
	// has been read.
	sawVERS, sawMODL, versioned bool
}

// DecodeBytes decodes an MDX model held in b.
func (d *Decoder) DecodeBytes(b []byte) (*Model, error) {
	if !IsMDX(b) {
		return nil, ErrNotMDX
	}
	q := d.Quotas
	if q.MaxFileSize > 0 && len(b) > q.MaxFileSize {
		return nil, &QuotaError{Chunk: "MDLX", What: fmt.Sprintf("file size %d", len(b)), Limit: q.MaxFileSize}
	}
	if v, ok := wowVersion(b); ok {
		return d.decodeWoW(b, v)
	}
	dec := &decoder{r: reader{b: b, q: &q}, v: 800, m: &Model{}, lay: &fileLayout{}}
	if err := dec.decode(); err != nil {
		return nil, err
	}
	if !dec.sawVERS {
		// The reference viewer reads a file without VERS as version 800.
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
		if r.pos > end {
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

// fixed splits a chunk of fixed-size entries; leftover bytes become ref.pad.
func (d *decoder) fixed(ref *chunkRef, start, end, size int) int {
	n := (end - start) / size
	if q := d.r.q.MaxRecords; q > 0 && n > q {
		d.r.quota(start, "record count", n, q)
		return 0
	}
	if rest := (end - start) % size; rest != 0 {
		ref.pad = bytes.Clone(d.r.b[end-rest : end])
	}
	ref.n = n
	return n
}

// records parses variable-size records until the chunk's declared end. The
// reader's bound is the end of the file, because mdx-m3-viewer (and so the
// files made for it) tolerates a last record that runs past a too-small
// chunk size; decode records that as chunkRef.over.
func (d *decoder) records(ref *chunkRef, end int, min int, one func()) {
	r := &d.r
	r.end = len(r.b)
	for r.err == nil && r.pos < end {
		if end-r.pos < min {
			ref.pad = bytes.Clone(r.b[r.pos:end])
			r.pos = end
			break
		}
		one()
		ref.n++
		if q := r.q.MaxRecords; q > 0 && ref.n > q {
			r.quota(r.pos, "record count", ref.n, q)
		}
	}
}

func (d *decoder) chunk(ref *chunkRef, start, end int) error {
	r := &d.r
	m := d.m
	switch ref.tag {
	case tVERS:
		if d.sawVERS {
			// A repeated VERS cannot change how earlier chunks were read;
			// keep it verbatim so the file still round-trips.
			d.unknown(ref, start, end)
			return nil
		}
		d.sawVERS = true
		if !r.need(4, "version") {
			return nil
		}
		m.Version = r.u32()
		if d.versioned && m.Version != 800 {
			return &FormatError{Offset: int64(start - 8), Chunk: "VERS", Reason: fmt.Sprintf("version %d comes after chunks already read as version 800", m.Version)}
		}
		switch m.Version {
		case 800, 900, 1000, 1100:
		default:
			return UnsupportedError(fmt.Sprintf("MDX version %d (want 800, 900, 1000 or 1100)", m.Version))
		}
		d.v = m.Version
		if r.pos < end {
			ref.pad = bytes.Clone(r.b[r.pos:end])
			r.pos = end
		}
	case tMODL:
		if d.sawMODL {
			d.unknown(ref, start, end)
			return nil
		}
		d.sawMODL = true
		if !r.need(372, "model header") {
			return nil
		}
		var rc rec
		m.Name = r.str(80, &rc, 0)
		m.AnimationFile = r.str(260, &rc, 1)
		m.Extent = r.extent()
		m.BlendTime = r.u32()
		d.lay.modl = rc
		if r.pos < end {
			ref.pad = bytes.Clone(r.b[r.pos:end])
			r.pos = end
		}
	case tSEQS:
		n := d.fixed(ref, start, end, 132)
		m.Sequences = grow(m.Sequences, n)
		for i := 0; i < n && r.err == nil; i++ {
			s := &m.Sequences[len(m.Sequences)-n+i]
			s.Name = r.str(80, &s.rec, 0)
			s.Interval = [2]uint32{r.u32(), r.u32()}
			s.MoveSpeed = r.f32()
			s.Flags = r.u32()
			s.Rarity = r.f32()
			s.SyncPoint = r.u32()
			s.Extent = r.extent()
		}
		r.pos = end
	case tGLBS:
		n := d.fixed(ref, start, end, 4)
		old := len(m.GlobalSequences)
		m.GlobalSequences = grow(m.GlobalSequences, n)
		fillWords(m.GlobalSequences[old:], r.b[start:], 4)
		r.pos = end
	case tTEXS:
		n := d.fixed(ref, start, end, 268)
		m.Textures = grow(m.Textures, n)
		for i := 0; i < n && r.err == nil; i++ {
			t := &m.Textures[len(m.Textures)-n+i]
			t.ReplaceableID = r.u32()
			t.Path = r.str(260, &t.rec, 0)
			t.Flags = r.u32()
		}
		r.pos = end
	case tPIVT:
		n := d.fixed(ref, start, end, 12)
		old := len(m.PivotPoints)
		m.PivotPoints = grow(m.PivotPoints, n)
		fillWords(m.PivotPoints[old:], r.b[start:], 4)
		r.pos = end
	case tFAFX:
		n := d.fixed(ref, start, end, 340)
		m.FaceEffects = grow(m.FaceEffects, n)
		for i := 0; i < n && r.err == nil; i++ {
			f := &m.FaceEffects[len(m.FaceEffects)-n+i]
			f.Type = r.str(80, &f.rec, 0)
			f.Path = r.str(260, &f.rec, 1)
		}
		r.pos = end
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
		r.pos = end
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
		if r.pos < end {
			ref.pad = bytes.Clone(r.b[r.pos:end])
			r.pos = end
		}
	case tMTLS:
		d.records(ref, end, 4, func() { m.Materials = append(m.Materials, d.material()) })
	case tTXAN:
		d.records(ref, end, 4, func() {
			var t TextureAnim
			_, old, ok := r.sized("texture animation", 4)
			if !ok {
				return
			}
			r.tracks(&t.rec, ordTexAnim, func(tag uint32) bool {
				switch tag {
				case tKTAT:
					return takeV(r, &t.Translation)
				case tKTAR:
					return takeQ(r, &t.Rotation)
				case tKTAS:
					return takeV(r, &t.Scaling)
				}
				return false
			})
			r.done(&t.rec, old)
			m.TextureAnims = append(m.TextureAnims, t)
		})
	case tGEOS:
		d.records(ref, end, 4, func() {
			m.Geosets = append(m.Geosets, Geoset{})
			d.geoset(&m.Geosets[len(m.Geosets)-1])
		})
	case tGEOA:
		d.records(ref, end, 4, func() {
			var g GeosetAnim
			_, old, ok := r.sized("geoset animation", 28)
			if !ok {
				return
			}
			g.Alpha = r.f32()
			g.Flags = r.u32()
			g.Color = r.vec3()
			g.GeosetID = r.i32()
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
			m.GeosetAnims = append(m.GeosetAnims, g)
		})
	case tBONE:
		d.records(ref, end, 4, func() {
			var b Bone
			d.node(&b.Node)
			b.GeosetID = r.i32()
			b.GeosetAnimID = r.i32()
			m.Bones = append(m.Bones, b)
		})
	case tHELP:
		d.records(ref, end, 4, func() {
			var h Helper
			d.node(&h.Node)
			m.Helpers = append(m.Helpers, h)
		})
	case tLITE:
		d.records(ref, end, 4, func() { m.Lights = append(m.Lights, d.light()) })
	case tATCH:
		d.records(ref, end, 4, func() {
			var a Attachment
			_, old, ok := r.sized("attachment", 4+96+264)
			if !ok {
				return
			}
			d.node(&a.Node)
			a.Path = r.str(260, &a.rec, 0)
			a.AttachmentID = r.i32()
			r.tracks(&a.rec, ordAttachment, func(tag uint32) bool {
				if tag == tKATV {
					return takeF(r, &a.Visibility)
				}
				return false
			})
			r.done(&a.rec, old)
			m.Attachments = append(m.Attachments, a)
		})
	case tPREM:
		d.records(ref, end, 4, func() { m.ParticleEmitters = append(m.ParticleEmitters, d.prem()) })
	case tPRE2:
		d.records(ref, end, 4, func() { m.ParticleEmitters2 = append(m.ParticleEmitters2, d.pre2()) })
	case tCORN:
		d.records(ref, end, 4, func() { m.PopcornEmitters = append(m.PopcornEmitters, d.corn()) })
	case tRIBB:
		d.records(ref, end, 4, func() { m.RibbonEmitters = append(m.RibbonEmitters, d.ribb()) })
	case tCAMS:
		d.records(ref, end, 4, func() { m.Cameras = append(m.Cameras, d.camera()) })
	case tEVTS:
		d.records(ref, end, 4, func() {
			var e EventObject
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
			m.EventObjects = append(m.EventObjects, e)
		})
	case tCLID:
		d.records(ref, end, 4, func() {
			var c CollisionShape
			d.node(&c.Node)
			c.Type = ShapeType(r.u32())
			for i := 0; i < c.NumVertices(); i++ {
				c.Vertices[i] = r.vec3()
			}
			if c.HasRadius() {
				c.BoundsRadius = r.f32()
			}
			m.CollisionShapes = append(m.CollisionShapes, c)
		})
	default:
		d.unknown(ref, start, end)
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
	r.tracks(&n.nrec, ordNode, func(tag uint32) bool {
		switch tag {
		case tKGTR:
			return takeV(r, &n.Translation)
		case tKGRT:
			return takeQ(r, &n.Rotation)
		case tKGSC:
			return takeV(r, &n.Scaling)
		}
		return false
	})
	r.done(&n.nrec, old)
}

func (d *decoder) material() Material {
	r := &d.r
	var mt Material
	fixed := 12
	hasShader := d.v > 800 && d.v < 1100
	if hasShader {
		fixed += 80
	}
	_, old, ok := r.sized("material", fixed)
	if !ok {
		return mt
	}
	mt.PriorityPlane = r.i32()
	mt.Flags = r.u32()
	if hasShader {
		mt.Shader = r.str(80, &mt.rec, 0)
	}
	if !r.expect(tLAYS) {
		return mt
	}
	cnt := r.u32()
	n, ok := r.count(cnt, 28, "layer")
	if !ok {
		return mt
	}
	mt.Layers = mk[Layer](n)
	for i := range mt.Layers {
		d.layer(&mt.Layers[i])
	}
	r.done(&mt.rec, old)
	return mt
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
	if d.v >= 900 {
		l.EmissiveGain = r.f32()
	}
	if d.v >= 1000 {
		l.FresnelColor = r.vec3()
		l.FresnelOpacity = r.f32()
		l.FresnelTeamColor = r.f32()
	}
	if d.v >= 1100 {
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
	r.tracks(&l.rec, ordLayer, func(tag uint32) bool {
		switch tag {
		case tKMTF:
			return takeU(r, &l.TextureIDTrack)
		case tKMTA:
			return takeF(r, &l.AlphaTrack)
		case tKMTE:
			return takeF(r, &l.EmissiveGainTrack)
		case tKFC3:
			return takeV(r, &l.FresnelColorTrack)
		case tKFCA:
			return takeF(r, &l.FresnelOpacityTrack)
		case tKFTC:
			return takeF(r, &l.FresnelTeamColorTrack)
		}
		return false
	})
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

func (d *decoder) geoset(g *Geoset) {
	r := &d.r
	_, old, ok := r.sized("geoset", 4)
	if !ok {
		return
	}
	g.Vertices = words[Vec3](r, tVRTX, 12, 4, "vertex")
	g.Normals = words[Vec3](r, tNRMS, 12, 4, "normal")
	g.FaceTypes = words[uint32](r, tPTYP, 4, 4, "face type group")
	g.FaceGroups = words[uint32](r, tPCNT, 4, 4, "face group")
	g.Faces = words[uint16](r, tPVTX, 2, 2, "face index")
	g.VertexGroups = words[uint8](r, tGNDX, 1, 1, "vertex group")
	g.MatrixGroups = words[uint32](r, tMTGC, 4, 4, "matrix group")
	g.MatrixIndices = words[uint32](r, tMATS, 4, 4, "matrix index")
	g.MaterialID = r.u32()
	g.SelectionGroup = r.u32()
	g.SelectionFlags = r.u32()
	if d.v > 800 {
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
	if d.v > 800 {
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
	r.done(&g.rec, old)
}

func (d *decoder) light() Light {
	r := &d.r
	var l Light
	_, old, ok := r.sized("light", 4+96+44)
	if !ok {
		return l
	}
	d.node(&l.Node)
	l.Type = LightType(r.u32())
	l.AttenuationStart = r.f32()
	l.AttenuationEnd = r.f32()
	l.Color = r.vec3()
	l.Intensity = r.f32()
	l.AmbColor = r.vec3()
	l.AmbIntensity = r.f32()
	r.tracks(&l.rec, ordLight, func(tag uint32) bool {
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
		case tKLAV:
			return takeF(r, &l.Visibility)
		}
		return false
	})
	r.done(&l.rec, old)
	return l
}

func (d *decoder) prem() ParticleEmitter {
	r := &d.r
	var p ParticleEmitter
	_, old, ok := r.sized("particle emitter", 4+96+284)
	if !ok {
		return p
	}
	d.node(&p.Node)
	p.EmissionRate = r.f32()
	p.Gravity = r.f32()
	p.Longitude = r.f32()
	p.Latitude = r.f32()
	p.Path = r.str(260, &p.rec, 0)
	p.LifeSpan = r.f32()
	p.Speed = r.f32()
	r.tracks(&p.rec, ordPREM, func(tag uint32) bool {
		switch tag {
		case tKPEE:
			return takeF(r, &p.EmissionRateTrack)
		case tKPEG:
			return takeF(r, &p.GravityTrack)
		case tKPLN:
			return takeF(r, &p.LongitudeTrack)
		case tKPLT:
			return takeF(r, &p.LatitudeTrack)
		case tKPEL:
			return takeF(r, &p.LifeSpanTrack)
		case tKPES:
			return takeF(r, &p.SpeedTrack)
		case tKPEV:
			return takeF(r, &p.Visibility)
		}
		return false
	})
	r.done(&p.rec, old)
	return p
}

func (d *decoder) pre2() ParticleEmitter2 {
	r := &d.r
	var p ParticleEmitter2
	_, old, ok := r.sized("particle emitter 2", 4+96+171)
	if !ok {
		return p
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
	r.tracks(&p.rec, ordPRE2, func(tag uint32) bool {
		switch tag {
		case tKP2S:
			return takeF(r, &p.SpeedTrack)
		case tKP2R:
			return takeF(r, &p.VariationTrack)
		case tKP2L:
			return takeF(r, &p.LatitudeTrack)
		case tKP2G:
			return takeF(r, &p.GravityTrack)
		case tKP2E:
			return takeF(r, &p.EmissionRateTrack)
		case tKP2N:
			return takeF(r, &p.WidthTrack)
		case tKP2W:
			return takeF(r, &p.LengthTrack)
		case tKP2V:
			return takeF(r, &p.Visibility)
		}
		return false
	})
	r.done(&p.rec, old)
	return p
}

func (d *decoder) corn() PopcornEmitter {
	r := &d.r
	var p PopcornEmitter
	_, old, ok := r.sized("popcorn emitter", 4+96+552)
	if !ok {
		return p
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
	r.tracks(&p.rec, ordCORN, func(tag uint32) bool {
		switch tag {
		case tKPPA:
			return takeF(r, &p.AlphaTrack)
		case tKPPC:
			return takeV(r, &p.ColorTrack)
		case tKPPE:
			return takeF(r, &p.EmissionRateTrack)
		case tKPPL:
			return takeF(r, &p.LifeSpanTrack)
		case tKPPS:
			return takeF(r, &p.SpeedTrack)
		case tKPPV:
			return takeF(r, &p.Visibility)
		}
		return false
	})
	r.done(&p.rec, old)
	return p
}

func (d *decoder) ribb() RibbonEmitter {
	r := &d.r
	var p RibbonEmitter
	_, old, ok := r.sized("ribbon emitter", 4+96+52)
	if !ok {
		return p
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
	r.tracks(&p.rec, ordRIBB, func(tag uint32) bool {
		switch tag {
		case tKRHA:
			return takeF(r, &p.HeightAboveTrack)
		case tKRHB:
			return takeF(r, &p.HeightBelowTrack)
		case tKRAL:
			return takeF(r, &p.AlphaTrack)
		case tKRCO:
			return takeV(r, &p.ColorTrack)
		case tKRTX:
			return takeU(r, &p.TextureSlotTrack)
		case tKRVS:
			return takeF(r, &p.Visibility)
		}
		return false
	})
	r.done(&p.rec, old)
	return p
}

func (d *decoder) camera() Camera {
	r := &d.r
	var c Camera
	_, old, ok := r.sized("camera", 4+80+36)
	if !ok {
		return c
	}
	c.Name = r.str(80, &c.rec, 0)
	c.Position = r.vec3()
	c.FieldOfView = r.f32()
	c.FarClip = r.f32()
	c.NearClip = r.f32()
	c.TargetPosition = r.vec3()
	r.tracks(&c.rec, ordCamera, func(tag uint32) bool {
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
	return c
}
