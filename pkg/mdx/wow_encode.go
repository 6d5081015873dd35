package mdx

import (
	"fmt"
)

// wowOrder is the chunk order of a WoW model built in code (seed 004's
// MDLBASE order).
var wowOrder = []uint32{tVERS, tMODL, tSEQS, tGLBS, tMTLS, tTEXS, tTXAN, tGEOS, tGEOA, tBONE, tLITE,
	tHELP, tATCH, tPIVT, tCAMS, tEVTS}

type wowEncoder struct {
	encoder
	lay *wowLayout
	err error
}

// encodeWoW writes a v1300/1400/1500 model. A decoded model keeps its chunk
// order and the bytes wowLayout remembers; one built in code gets wowOrder
// with zero unused fields, then its Unknown chunks.
func encodeWoW(m *Model) ([]byte, error) {
	e := &wowEncoder{encoder: encoder{m: m, v: m.Version}}
	if m.file != nil {
		e.lay = m.file.wow
	}
	for _, u := range m.Unknown {
		if len(u.Tag) != 4 {
			return nil, fmt.Errorf("mdx: unknown chunk tag %q is not four bytes", u.Tag)
		}
	}
	e.b = make([]byte, 0, e.estimate())
	e.u32(tMDLX)
	if e.lay != nil {
		done := map[uint32]bool{}
		used := make([]bool, len(m.Unknown))
		for _, c := range e.lay.chunks {
			if c.raw >= 0 {
				if c.raw < len(m.Unknown) && !used[c.raw] {
					used[c.raw] = true
					e.unknown(c.raw)
				}
				continue
			}
			e.wowChunk(c.tag, c.pad)
			done[c.tag] = true
		}
		for _, t := range wowOrder {
			if !done[t] && (e.has(t) || e.rawHas(t)) {
				e.wowChunk(t, nil)
			}
		}
		for i, u := range used {
			if !u {
				e.unknown(i)
			}
		}
		e.b = append(e.b, e.lay.trailing...)
	} else {
		for _, t := range wowOrder {
			if t == tVERS || t == tMODL || e.has(t) || e.rawHas(t) {
				e.wowChunk(t, nil)
			}
		}
		for i := range m.Unknown {
			e.unknown(i)
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	return e.b, nil
}

// has reports whether a model built in code has anything for chunk t.
func (e *wowEncoder) has(t uint32) bool {
	m := e.m
	switch t {
	case tSEQS:
		return len(m.Sequences) > 0
	case tGLBS:
		return len(m.GlobalSequences) > 0
	case tMTLS:
		return len(m.Materials) > 0
	case tTEXS:
		return len(m.Textures) > 0
	case tTXAN:
		return len(m.TextureAnims) > 0
	case tGEOS:
		return len(m.Geosets) > 0
	case tGEOA:
		return len(m.GeosetAnims) > 0
	case tBONE:
		return len(m.Bones) > 0
	case tLITE:
		return len(m.Lights) > 0
	case tHELP:
		return len(m.Helpers) > 0
	case tATCH:
		return len(m.Attachments) > 0
	case tPIVT:
		return len(m.PivotPoints) > 0
	case tCAMS:
		return len(m.Cameras) > 0
	case tEVTS:
		return len(m.EventObjects) > 0
	}
	return false
}

func (e *wowEncoder) failf(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("mdx: encoding v%d: "+format, append([]any{e.v}, args...)...)
	}
}

func (e *wowEncoder) wowChunk(tag uint32, pad []byte) {
	m := e.m
	head := len(e.b)
	e.u32(tag)
	e.u32(0)
	lay := e.lay
	if lay == nil {
		lay = &wowLayout{}
	}
	switch tag {
	case tVERS:
		e.u32(e.v)
	case tMODL:
		e.str(m.Name, 80, &lay.modl, 0)
		e.str(m.AnimationFile, 260, &lay.modl, 1)
		e.extent(m.Extent)
		e.u32(m.BlendTime)
		e.b = append(e.b, lay.modlFlags)
	case tSEQS:
		e.u32(uint32(len(m.Sequences)))
		for i := range m.Sequences {
			s := &m.Sequences[i]
			e.str(s.Name, 80, &s.rec, 0)
			e.u32(s.Interval[0])
			e.u32(s.Interval[1])
			e.f32(s.MoveSpeed)
			e.u32(s.Flags)
			e.extent(s.Extent)
			e.f32(s.Frequency)
			e.u32(s.Replay[0])
			e.u32(s.Replay[1])
			e.u32(s.BlendTime)
		}
	case tGLBS:
		e.b = appendWords(e.b, m.GlobalSequences, 4)
	case tTEXS:
		for i := range m.Textures {
			t := &m.Textures[i]
			e.u32(t.ReplaceableID)
			e.str(t.Path, 260, &t.rec, 0)
			e.u32(t.Flags)
		}
	case tPIVT:
		e.b = appendWords(e.b, m.PivotPoints, 4)
	case tMTLS:
		e.u32(uint32(len(m.Materials)))
		e.u32(lay.mtlsWord)
		for i := range m.Materials {
			e.material(&m.Materials[i])
		}
	case tTXAN:
		e.u32(uint32(len(m.TextureAnims)))
		for i := range m.TextureAnims {
			t := &m.TextureAnims[i]
			at := e.begin()
			e.tracks(&t.rec, ordTexAnim, func(tag uint32) {
				switch tag {
				case tKTAT:
					putTrack(&e.encoder, tag, t.Translation, putVec3)
				case tKTAR:
					putTrack(&e.encoder, tag, t.Rotation, putCQuat)
				case tKTAS:
					putTrack(&e.encoder, tag, t.Scaling, putVec3)
				}
			})
			e.endSized(at, &t.rec)
		}
	case tGEOS:
		e.u32(uint32(len(m.Geosets)))
		if e.v >= 1500 {
			e.geosets1500(lay)
		} else {
			for i := range m.Geosets {
				e.geoset(&m.Geosets[i])
			}
		}
	case tGEOA:
		e.u32(uint32(len(m.GeosetAnims)))
		for i := range m.GeosetAnims {
			g := &m.GeosetAnims[i]
			at := e.begin()
			e.i32(g.GeosetID)
			e.f32(g.Alpha)
			e.vec3(g.Color)
			e.u32(swapLowBits(g.Flags))
			e.tracks(&g.rec, ordGeosetAnim, func(tag uint32) {
				switch tag {
				case tKGAO:
					putTrack(&e.encoder, tag, g.AlphaTrack, putF32)
				case tKGAC:
					putTrack(&e.encoder, tag, g.ColorTrack, putVec3)
				}
			})
			e.endSized(at, &g.rec)
		}
	case tBONE:
		e.u32(uint32(len(m.Bones)))
		for i := range m.Bones {
			e.node(&m.Bones[i].Node)
			e.i32(m.Bones[i].GeosetID)
			e.i32(m.Bones[i].GeosetAnimID)
		}
	case tHELP:
		e.u32(uint32(len(m.Helpers)))
		for i := range m.Helpers {
			e.node(&m.Helpers[i].Node)
		}
	case tLITE:
		e.u32(uint32(len(m.Lights)))
		for i := range m.Lights {
			e.light(&m.Lights[i])
		}
	case tATCH:
		e.u32(uint32(len(m.Attachments)))
		e.u32(lay.atchWord)
		for i := range m.Attachments {
			a := &m.Attachments[i]
			at := e.begin()
			e.node(&a.Node)
			e.i32(a.AttachmentID)
			var p uint8
			if i < len(lay.attPad) {
				p = lay.attPad[i]
			}
			e.b = append(e.b, p)
			e.str(a.Path, 260, &a.rec, 0)
			e.tracks(&a.rec, ordWoWAttach, func(tag uint32) {
				putTrack(&e.encoder, tKVIS, a.Visibility, putF32)
			})
			e.endSized(at, &a.rec)
		}
	case tCAMS:
		e.u32(uint32(len(m.Cameras)))
		for i := range m.Cameras {
			c := &m.Cameras[i]
			at := e.begin()
			e.str(c.Name, 80, &c.rec, 0)
			e.vec3(c.Position)
			e.f32(c.FieldOfView)
			e.f32(c.FarClip)
			e.f32(c.NearClip)
			e.vec3(c.TargetPosition)
			e.tracks(&c.rec, ordWoWCamera, func(tag uint32) {
				switch tag {
				case tKCTR:
					putTrack(&e.encoder, tag, c.Translation, putVec3)
				case tKTTR:
					putTrack(&e.encoder, tag, c.TargetTranslation, putVec3)
				case tKCRL:
					putTrack(&e.encoder, tag, c.Rotation, putF32)
				}
			})
			e.endSized(at, &c.rec)
		}
	case tEVTS:
		e.u32(uint32(len(m.EventObjects)))
		for i := range m.EventObjects {
			ev := &m.EventObjects[i]
			at := e.begin()
			e.node(&ev.Node)
			if ev.rec.flags&recNoKEVT == 0 || len(ev.Frames) > 0 {
				e.u32(tKEVT)
				e.u32(uint32(len(ev.Frames)))
				e.i32(ev.GlobalSeqID)
				e.b = appendWords(e.b, ev.Frames, 4)
			}
			e.endSized(at, &ev.rec)
		}
	}
	e.b = append(e.b, pad...)
	le.PutUint32(e.b[head+4:], uint32(len(e.b)-head-8))
}

func putCQuat(b []byte, q Quat) []byte { return le.AppendUint64(b, uint64(CompressQuat(q))) }

func (e *wowEncoder) node(n *Node) {
	at := e.begin()
	e.str(n.Name, 80, &n.nrec, 0)
	e.i32(n.ObjectID)
	e.i32(n.ParentID)
	e.u32(n.Flags)
	e.tracks(&n.nrec, ordNode, func(tag uint32) {
		switch tag {
		case tKGTR:
			putTrack(&e.encoder, tag, n.Translation, putVec3)
		case tKGRT:
			putTrack(&e.encoder, tag, n.Rotation, putCQuat)
		case tKGSC:
			putTrack(&e.encoder, tag, n.Scaling, putVec3)
		}
	})
	e.endSized(at, &n.nrec)
}

func (e *wowEncoder) material(mt *Material) {
	at := e.begin()
	e.i32(mt.PriorityPlane)
	e.u32(uint32(len(mt.Layers)))
	for i := range mt.Layers {
		l := &mt.Layers[i]
		lat := e.begin()
		e.u32(uint32(l.FilterMode))
		e.u32(l.Flags)
		e.i32(l.TextureID)
		e.i32(l.TextureAnimID)
		e.u32(l.CoordID)
		e.f32(l.Alpha)
		e.tracks(&l.rec, ordWoWLayer, func(tag uint32) {
			switch tag {
			case tKMTA:
				putTrack(&e.encoder, tag, l.AlphaTrack, putF32)
			case tKMTF:
				if t := l.TextureIDTrack; t != nil {
					e.u32(tKMTF)
					e.u32(uint32(len(t.Keys)))
					e.i32(t.GlobalSeqID)
					for _, k := range t.Keys {
						e.i32(k.Frame)
						e.u32(k.Value)
					}
				}
			}
		})
		e.endSized(lat, &l.rec)
	}
	e.endSized(at, &mt.rec)
}

func (e *wowEncoder) light(l *Light) {
	at := e.begin()
	e.node(&l.Node)
	e.u32(uint32(l.Type))
	e.f32(l.AttenuationStart)
	e.f32(l.AttenuationEnd)
	e.vec3(l.Color)
	e.f32(l.Intensity)
	e.vec3(l.AmbColor)
	e.f32(l.AmbIntensity)
	e.tracks(&l.rec, ordWoWLight, func(tag uint32) {
		switch tag {
		case tKLAS:
			putTrack(&e.encoder, tag, l.AttenuationStartTrack, putF32)
		case tKLAE:
			putTrack(&e.encoder, tag, l.AttenuationEndTrack, putF32)
		case tKLAC:
			putTrack(&e.encoder, tag, l.ColorTrack, putVec3)
		case tKLAI:
			putTrack(&e.encoder, tag, l.IntensityTrack, putF32)
		case tKLBI:
			putTrack(&e.encoder, tag, l.AmbIntensityTrack, putF32)
		case tKLBC:
			putTrack(&e.encoder, tag, l.AmbColorTrack, putVec3)
		case tKVIS:
			putTrack(&e.encoder, tag, l.Visibility, putF32)
		}
	})
	e.endSized(at, &l.rec)
}

// geoset writes a v1300/1400 geoset (Skin has no place in it).
func (e *wowEncoder) geoset(g *Geoset) {
	at := e.begin()
	nv := len(g.Vertices)
	putWords(&e.encoder, tVRTX, g.Vertices, 4)
	putWords(&e.encoder, tNRMS, g.Normals, 4)
	e.u32(tUVAS)
	e.u32(uint32(len(g.UVSets)))
	for _, uv := range g.UVSets {
		if len(uv) != nv {
			e.failf("geoset UV set has %d coordinates for %d vertices", len(uv), nv)
		}
		e.b = appendWords(e.b, uv, 4)
	}
	e.u32(tPTYP)
	e.u32(uint32(len(g.FaceTypes)))
	for _, t := range g.FaceTypes {
		if t > 255 {
			e.failf("face type %d does not fit the u8 PTYP of v1300", t)
		}
		e.b = append(e.b, byte(t))
	}
	putWords(&e.encoder, tPCNT, g.FaceGroups, 4)
	putWords(&e.encoder, tPVTX, g.Faces, 2)
	putWords(&e.encoder, tGNDX, g.VertexGroups, 1)
	putWords(&e.encoder, tMTGC, g.MatrixGroups, 4)
	putWords(&e.encoder, tMATS, g.MatrixIndices, 4)
	putWords(&e.encoder, tBIDX, g.BoneIndices, 4)
	putWords(&e.encoder, tBWGT, g.BoneWeights, 4)
	if len(g.BoneIndices) != len(g.BoneWeights) {
		e.failf("geoset has %d BIDX but %d BWGT entries", len(g.BoneIndices), len(g.BoneWeights))
	}
	e.u32(g.MaterialID)
	e.u32(g.SelectionGroup)
	e.u32(g.SelectionFlags)
	e.extent(g.Extent)
	e.u32(uint32(len(g.SequenceExtents)))
	e.b = appendWords(e.b, g.SequenceExtents, 4)
	e.endSized(at, &g.rec)
}

// geosets1500 writes the v1500 headers then batches. For a geoset built in
// code the centre is the middle of Extent, the index its position, the tags
// PVTX/PTYP/PVTX and the triangle range the one Faces spans.
func (e *wowEncoder) geosets1500(lay *wowLayout) {
	m := e.m
	xs := make([]wow1500Geoset, len(m.Geosets))
	for i := range m.Geosets {
		g := &m.Geosets[i]
		x := &xs[i]
		if i < len(lay.geo) {
			*x = lay.geo[i]
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

// rawHas reports whether an Unknown chunk has tag t: the decoded chunk of
// that tag must then come first (even if empty), or decoding would take the
// raw one for it.
func (e *wowEncoder) rawHas(t uint32) bool {
	for _, u := range e.m.Unknown {
		if tagOf(u.Tag) == t {
			return true
		}
	}
	return false
}
