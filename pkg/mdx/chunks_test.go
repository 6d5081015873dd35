package mdx

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// decodeOK decodes b, fails the test on error, and checks that the bytes
// re-encode identically.
func decodeOK(t *testing.T, b []byte) *Model {
	t.Helper()
	m, err := decodeBytes(b)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	out, err := encodeBytesT(m)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if !bytes.Equal(out, b) {
		t.Fatalf("re-encoding differs at %#x (len %d, want %d)", firstDiff(out, b), len(out), len(b))
	}
	return m
}

func TestHeaderChunks(t *testing.T) {
	w := header(800)
	w.chunk("SEQS", func(c *bb) {
		c.str("Stand", 80).u32(0, 1000).f32(0).u32(0).f32(0).u32(0).f32(1, 0, 0, 0, 1, 1, 1)
		c.str("Death", 80).u32(2000, 3000).f32(270).u32(1).f32(0.5).u32(7).f32(2, 0, 0, 0, 1, 1, 1)
	})
	w.chunk("GLBS", func(c *bb) { c.u32(100, 0, 3333) })
	w.chunk("TEXS", func(c *bb) {
		c.u32(0).str(`Textures\Foo.blp`, 260).u32(TexWrapWidth | TexWrapHeight)
		c.u32(1).str("", 260).u32(0)
	})
	w.chunk("PIVT", func(c *bb) { c.f32(1, 2, 3, 4, 5, 6) })
	w.chunk("SNDS", func(c *bb) { c.str("Sound\\a.wav", 260).f32(0.5, 1).u32(3) })
	m := decodeOK(t, w.b)
	if m.Version != 800 || m.Name != "Test" || m.BlendTime != 150 || m.Extent.BoundsRadius != 5 || m.Extent.Max != (Vec3{1, 2, 3}) {
		t.Errorf("header: %+v", m)
	}
	if len(m.Sequences) != 2 || m.Sequences[1].Name != "Death" || m.Sequences[1].Interval != [2]uint32{2000, 3000} ||
		!m.Sequences[1].NonLooping() || m.Sequences[0].NonLooping() || m.Sequences[1].SyncPoint != 7 || m.Sequences[1].Extent.BoundsRadius != 2 {
		t.Errorf("sequences: %+v", m.Sequences)
	}
	if len(m.GlobalSequences) != 3 || m.GlobalSequences[2] != 3333 {
		t.Errorf("global sequences: %v", m.GlobalSequences)
	}
	if len(m.Textures) != 2 || m.Textures[0].Path != `Textures\Foo.blp` || m.Textures[1].ReplaceableID != 1 || m.Textures[0].Flags != 3 {
		t.Errorf("textures: %+v", m.Textures)
	}
	if len(m.PivotPoints) != 2 || m.PivotPoints[1] != (Vec3{4, 5, 6}) {
		t.Errorf("pivots: %v", m.PivotPoints)
	}
	if len(m.SoundTracks) != 1 || m.SoundTracks[0].Volume != 0.5 || m.SoundTracks[0].Flags != 3 {
		t.Errorf("sounds: %+v", m.SoundTracks)
	}
}

// TestTrackInterpolations covers every interpolation type and value type:
// only Hermite and Bezier keys carry tangents (docs/formats.md#tracks).
func TestTrackInterpolations(t *testing.T) {
	w := header(800)
	w.chunk("BONE", func(c *bb) {
		c.node("Root", 0, -1, NodeBone, func(n *bb) {
			n.tag("KGTR").u32(2, uint32(DontInterp)).i32(-1)
			n.u32(0).f32(1, 2, 3)
			n.u32(100).f32(4, 5, 6)
			n.tag("KGRT").u32(1, uint32(Hermite)).i32(-1)
			n.u32(10).f32(0, 0, 0, 1).f32(0.1, 0.2, 0.3, 0.9).f32(0.4, 0.5, 0.6, 0.7)
			n.tag("KGSC").u32(1, uint32(Bezier)).i32(2)
			n.u32(20).f32(1, 1, 1).f32(2, 2, 2).f32(3, 3, 3)
		})
		c.i32(-1).i32(-1)
	})
	w.chunk("GEOA", func(c *bb) {
		c.sized(func(g *bb) {
			g.f32(1).u32(GeoaUseColor).f32(0.1, 0.2, 0.3).i32(0)
			g.floatTrack("KGAO", uint32(Linear), -1, 0, 1, 500, 0)
		})
	})
	m := decodeOK(t, w.b)
	b := m.Bones[0]
	if b.Name != "Root" || b.ParentID != -1 || b.Flags != NodeBone || b.GeosetID != -1 {
		t.Errorf("bone: %+v", b.Node)
	}
	if tr := b.Translation; tr == nil || tr.Interpolation != DontInterp || tr.GlobalSeqID != -1 || len(tr.Keys) != 2 ||
		tr.Keys[1].Frame != 100 || tr.Keys[1].Value != (Vec3{4, 5, 6}) || tr.Keys[1].InTan != (Vec3{}) {
		t.Errorf("KGTR: %+v", tr)
	}
	if rt := b.Rotation; rt == nil || rt.Interpolation != Hermite || rt.Keys[0].Frame != 10 ||
		rt.Keys[0].Value != (Quat{0, 0, 0, 1}) || rt.Keys[0].InTan != (Quat{0.1, 0.2, 0.3, 0.9}) || rt.Keys[0].OutTan != (Quat{0.4, 0.5, 0.6, 0.7}) {
		t.Errorf("KGRT: %+v", rt)
	}
	if sc := b.Scaling; sc == nil || sc.Interpolation != Bezier || sc.GlobalSeqID != 2 ||
		sc.Keys[0].Value != (Vec3{1, 1, 1}) || sc.Keys[0].InTan != (Vec3{2, 2, 2}) || sc.Keys[0].OutTan != (Vec3{3, 3, 3}) {
		t.Errorf("KGSC: %+v", sc)
	}
	ga := m.GeosetAnims[0]
	if ga.AlphaTrack == nil || ga.AlphaTrack.Interpolation != Linear || len(ga.AlphaTrack.Keys) != 2 || ga.AlphaTrack.Keys[1].Value != 0 ||
		ga.Color != (Vec3{0.1, 0.2, 0.3}) || ga.ColorTrack != nil {
		t.Errorf("GEOA: %+v", ga)
	}
	for i, want := range []string{"DontInterp", "Linear", "Hermite", "Bezier"} {
		if got := Interpolation(i).String(); got != want {
			t.Errorf("Interpolation(%d) = %s", i, got)
		}
	}
	if info, ok := LookupTag("KP2N"); !ok || info.Type != TypeFloat32 || info.Name != "Width" {
		t.Errorf("LookupTag(KP2N) = %+v", info)
	}
	if info, ok := LookupTag("KMTF"); !ok || info.Type.Size() != 4 || info.Type != TypeUint32 {
		t.Errorf("LookupTag(KMTF) = %+v", info)
	}
}

func layerV(c *bb, v uint32, tracks func(*bb)) {
	c.sized(func(l *bb) {
		l.u32(uint32(FilterBlend), LayerTwoSided).i32(0).i32(-1).u32(0).f32(0.75)
		if v >= 900 {
			l.f32(2)
		}
		if v >= 1000 {
			l.f32(0.1, 0.2, 0.3, 0.4, 0.5)
		}
		if v >= 1100 {
			l.u32(1, 2)
			l.u32(0, 0)
			l.u32(3, 1).floatTrack("KMTF", 0, -1, 0, 0)
		}
		if tracks != nil {
			tracks(l)
		}
	})
}

func TestMaterialsByVersion(t *testing.T) {
	for _, v := range []uint32{800, 900, 1000, 1100} {
		w := header(v)
		w.chunk("MTLS", func(c *bb) {
			c.sized(func(mt *bb) {
				mt.i32(3).u32(MatConstantColor)
				if v > 800 && v < 1100 {
					mt.str("Shader_HD_DefaultUnit", 80)
				}
				mt.tag("LAYS").u32(2)
				layerV(mt, v, func(l *bb) {
					l.floatTrack("KMTA", uint32(Linear), -1, 0, 1, 100, 0)
					l.tag("KMTF").u32(1, 0).i32(-1).u32(0, 7)
				})
				layerV(mt, v, nil)
			})
		})
		m := decodeOK(t, w.b)
		mt := m.Materials[0]
		if mt.PriorityPlane != 3 || mt.Flags != MatConstantColor || len(mt.Layers) != 2 {
			t.Fatalf("v%d material: %+v", v, mt)
		}
		if wantShader := v > 800 && v < 1100; (mt.Shader == "Shader_HD_DefaultUnit") != wantShader {
			t.Errorf("v%d shader %q", v, mt.Shader)
		}
		l := mt.Layers[0]
		if l.FilterMode != FilterBlend || l.Flags != LayerTwoSided || l.TextureAnimID != -1 || l.Alpha != 0.75 {
			t.Errorf("v%d layer: %+v", v, l)
		}
		if l.AlphaTrack == nil || len(l.AlphaTrack.Keys) != 2 || l.TextureIDTrack == nil || l.TextureIDTrack.Keys[0].Value != 7 {
			t.Errorf("v%d layer tracks: %+v %+v", v, l.AlphaTrack, l.TextureIDTrack)
		}
		if (l.EmissiveGain == 2) != (v >= 900) || (l.FresnelTeamColor == 0.5) != (v >= 1000) {
			t.Errorf("v%d reforged fields: %+v", v, l)
		}
		if v >= 1100 {
			if l.ShaderTypeID != 1 || len(l.Textures) != 2 || l.Textures[1].TextureID != 3 || l.Textures[1].Slot != 1 ||
				l.Textures[1].TextureIDTrack == nil || l.Textures[0].TextureIDTrack != nil {
				t.Errorf("v1100 textures: %+v", l.Textures)
			}
		}
		// The order in the file was KMTA before KMTF, which is not the
		// canonical order; a model without file details uses the canonical.
		m.ClearFileDetails()
		canon, err := encodeBytesT(m)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(canon, w.b) {
			t.Errorf("v%d: canonical encoding kept the file's track order", v)
		}
		m2, err := decodeBytes(canon)
		if err != nil {
			t.Fatal(err)
		}
		if d := modelDiff(m, m2, 3); len(d) > 0 {
			t.Errorf("v%d canonical round trip: %v", v, d)
		}
	}
}

func geosetV(c *bb, v uint32) {
	c.sized(func(g *bb) {
		g.tag("VRTX").u32(3).f32(0, 0, 0, 1, 0, 0, 0, 1, 0)
		g.tag("NRMS").u32(3).f32(0, 0, 1, 0, 0, 1, 0, 0, 1)
		g.tag("PTYP").u32(1, 4)
		g.tag("PCNT").u32(1, 3)
		g.tag("PVTX").u32(3).u16(0).u16(1).u16(2)
		g.tag("GNDX").u32(3).raw(0, 0, 0)
		g.tag("MTGC").u32(1, 1)
		g.tag("MATS").u32(1, 0)
		g.u32(0, 0, 0)
		if v > 800 {
			g.u32(1).str("LOD1", 80)
		}
		g.f32(1, 0, 0, 0, 1, 1, 0)
		g.u32(1).f32(1, 0, 0, 0, 1, 1, 0)
		if v > 800 {
			g.tag("TANG").u32(3).f32(1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, -1)
			g.tag("SKIN").u32(24)
			for i := 0; i < 3; i++ {
				g.raw(0, 0, 0, 0, 255, 0, 0, 0)
			}
		}
		g.tag("UVAS").u32(2)
		g.tag("UVBS").u32(3).f32(0, 0, 1, 0, 0, 1)
		g.tag("UVBS").u32(3).f32(0.5, 0.5, 1, 0.5, 0.5, 1)
	})
}

func TestGeosets(t *testing.T) {
	for _, v := range []uint32{800, 1000} {
		w := header(v)
		w.chunk("GEOS", func(c *bb) { geosetV(c, v); geosetV(c, v) })
		m := decodeOK(t, w.b)
		if len(m.Geosets) != 2 {
			t.Fatalf("v%d: %d geosets", v, len(m.Geosets))
		}
		g := m.Geosets[1]
		if len(g.Vertices) != 3 || g.Vertices[2] != (Vec3{0, 1, 0}) || g.Normals[0] != (Vec3{0, 0, 1}) ||
			len(g.Faces) != 3 || g.Faces[2] != 2 || g.FaceTypes[0] != 4 || g.FaceGroups[0] != 3 ||
			len(g.VertexGroups) != 3 || g.MatrixGroups[0] != 1 || len(g.SequenceExtents) != 1 ||
			len(g.UVSets) != 2 || g.UVSets[1][2] != (Vec2{0.5, 1}) {
			t.Errorf("v%d geoset: %+v", v, g)
		}
		if v > 800 {
			if g.LOD != 1 || g.LODName != "LOD1" || len(g.Tangents) != 3 || g.Tangents[2][3] != -1 || len(g.Skin) != 24 || g.Skin[4] != 255 {
				t.Errorf("v%d reforged geoset: lod %d %q tang %v skin %v", v, g.LOD, g.LODName, g.Tangents, g.Skin)
			}
		} else if g.Tangents != nil || g.Skin != nil {
			t.Errorf("v800 geoset has TANG/SKIN")
		}
	}
}

func TestNodeChunks(t *testing.T) {
	w := header(1000)
	w.chunk("LITE", func(c *bb) {
		c.sized(func(l *bb) {
			l.node("Light", 1, 0, NodeLight, nil)
			l.u32(uint32(LightDirectional)).f32(80, 200, 1, 0.5, 0.25, 2, 0.1, 0.2, 0.3, 0.7)
			l.floatTrack("KLAI", uint32(Linear), -1, 0, 1, 10, 2)
			l.floatTrack("KLAV", uint32(DontInterp), -1, 0, 1)
		})
	})
	w.chunk("HELP", func(c *bb) { c.node("Helper", 2, -1, 0, nil) })
	w.chunk("ATCH", func(c *bb) {
		c.sized(func(a *bb) {
			a.node("Origin Ref", 3, -1, NodeAttachment, nil)
			a.str("", 260).i32(0)
			a.floatTrack("KATV", 0, -1, 0, 1)
		})
	})
	w.chunk("PREM", func(c *bb) {
		c.sized(func(p *bb) {
			p.node("Emitter", 4, -1, NodeParticleEmitter|NodeEmitterUsesMDL, nil)
			p.f32(10, 9.8, 0.5, 0.25).str(`Abilities\x.mdl`, 260).f32(1.5, 100)
			p.floatTrack("KPES", uint32(Linear), -1, 0, 100)
		})
	})
	w.chunk("PRE2", func(c *bb) {
		c.sized(func(p *bb) {
			p.node("Emitter2", 5, -1, NodeParticleEmitter|NodeUnshaded, nil)
			p.f32(100, 0.1, 30, 0, 1, 20, 5, 6).u32(2, 4, 4, 2).f32(1, 0.5)
			p.f32(1, 0, 0, 0, 1, 0, 0, 0, 1).raw(255, 128, 0).f32(1, 2, 3)
			p.u32(0, 3, 1, 4, 7, 1, 8, 11, 1, 12, 15, 1).i32(0).u32(1).i32(2).u32(0)
			p.floatTrack("KP2N", uint32(Linear), -1, 0, 5, 100, 6)
			p.floatTrack("KP2V", 0, -1, 0, 1)
		})
	})
	w.chunk("CORN", func(c *bb) {
		c.sized(func(p *bb) {
			p.node("Popcorn", 6, -1, 0, nil)
			p.f32(1, 2, 3, 0.1, 0.2, 0.3, 0.9).u32(0).str("fx.pkfx", 260).str("Stand", 260)
			p.floatTrack("KPPV", 0, -1, 0, 1)
		})
	})
	w.chunk("RIBB", func(c *bb) {
		c.sized(func(p *bb) {
			p.node("Ribbon", 7, -1, NodeRibbonEmitter, nil)
			p.f32(10, 20, 1, 1, 0.5, 0.25, 2).u32(0, 30, 1, 1).i32(0).f32(0)
			p.tag("KRTX").u32(1, 0).i32(-1).u32(0, 3)
			p.floatTrack("KRVS", 0, -1, 0, 1)
		})
	})
	w.chunk("CAMS", func(c *bb) {
		c.sized(func(p *bb) {
			p.str("Camera01", 80).f32(100, 0, 50, 0.7854, 1000, 8, 0, 0, 40)
			p.tag("KTTR").u32(1, 1).i32(-1).u32(0).f32(1, 2, 3)
			p.floatTrack("KCRL", 0, -1, 0, 0.5)
		})
	})
	w.chunk("EVTS", func(c *bb) {
		c.node("SNDxHPOS", 8, -1, NodeEventObject, nil)
		c.tag("KEVT").u32(2).i32(-1).u32(100, 200)
	})
	w.chunk("CLID", func(c *bb) {
		c.node("Box", 9, -1, NodeCollisionShape, nil).u32(0).f32(-1, -1, -1, 1, 1, 1)
		c.node("Plane", 10, -1, NodeCollisionShape, nil).u32(1).f32(-1, -1, 0, 1, 1, 0)
		c.node("Sphere", 11, -1, NodeCollisionShape, nil).u32(2).f32(0, 0, 0).f32(30)
		c.node("Cylinder", 12, -1, NodeCollisionShape, nil).u32(3).f32(0, 0, 0, 0, 0, 10).f32(5)
	})
	w.chunk("FAFX", func(c *bb) { c.str("Face", 80).str(`x.facefx_ingame`, 260) })
	w.chunk("BPOS", func(c *bb) { c.u32(1).f32(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0) })
	m := decodeOK(t, w.b)

	l := m.Lights[0]
	if l.Name != "Light" || l.ParentID != 0 || l.Type != LightDirectional || l.AttenuationEnd != 200 || l.Color != (Vec3{1, 0.5, 0.25}) ||
		l.AmbIntensity != 0.7 || l.IntensityTrack == nil || l.Visibility == nil || l.ColorTrack != nil {
		t.Errorf("light: %+v", l)
	}
	if m.Helpers[0].Name != "Helper" || m.Attachments[0].Name != "Origin Ref" || m.Attachments[0].Visibility == nil {
		t.Errorf("helper/attachment: %+v %+v", m.Helpers, m.Attachments)
	}
	if p := m.ParticleEmitters[0]; p.Path != `Abilities\x.mdl` || p.Gravity != 9.8 || p.Speed != 100 || p.SpeedTrack == nil {
		t.Errorf("PREM: %+v", p)
	}
	p2 := m.ParticleEmitters2[0]
	if p2.Width != 5 || p2.Length != 6 || p2.FilterMode != 2 || p2.HeadOrTail != 2 || p2.SegmentColors[2] != (Vec3{0, 0, 1}) ||
		p2.SegmentAlphas != [3]uint8{255, 128, 0} || p2.TailDecayIntervals != [3]uint32{12, 15, 1} || p2.PriorityPlane != 2 ||
		p2.WidthTrack == nil || p2.Visibility == nil || p2.LengthTrack != nil {
		t.Errorf("PRE2: %+v", p2)
	}
	if c := m.PopcornEmitters[0]; c.Path != "fx.pkfx" || c.AnimVisibilityGuide != "Stand" || c.Alpha != 0.9 || c.Visibility == nil {
		t.Errorf("CORN: %+v", c)
	}
	if r := m.RibbonEmitters[0]; r.HeightBelow != 20 || r.Color != (Vec3{1, 0.5, 0.25}) || r.EmissionRate != 30 ||
		r.TextureSlotTrack == nil || r.TextureSlotTrack.Keys[0].Value != 3 || r.Visibility == nil {
		t.Errorf("RIBB: %+v", r)
	}
	if c := m.Cameras[0]; c.Name != "Camera01" || c.FarClip != 1000 || c.TargetPosition != (Vec3{0, 0, 40}) ||
		c.TargetTranslation == nil || c.Rotation == nil || c.Translation != nil {
		t.Errorf("camera: %+v", c)
	}
	if e := m.EventObjects[0]; e.Name != "SNDxHPOS" || e.GlobalSeqID != -1 || len(e.Frames) != 2 || e.Frames[1] != 200 {
		t.Errorf("event: %+v", e)
	}
	cs := m.CollisionShapes
	if len(cs) != 4 || cs[0].Vertices[1] != (Vec3{1, 1, 1}) || cs[2].BoundsRadius != 30 || cs[3].Vertices[1] != (Vec3{0, 0, 10}) || cs[3].BoundsRadius != 5 {
		t.Errorf("collision shapes: %+v", cs)
	}
	if len(m.FaceEffects) != 1 || m.FaceEffects[0].Path != "x.facefx_ingame" || len(m.BindPose) != 1 || m.BindPose[0][4] != 1 {
		t.Errorf("FAFX/BPOS: %+v %v", m.FaceEffects, m.BindPose)
	}
}

// TestFileDetailsSurvive covers what the public fields do not show: unknown
// chunks, unknown track tags, bytes after a string's NUL, padding, a chunk
// size that leaves out part of its last record, and trailing bytes.
func TestFileDetailsSurvive(t *testing.T) {
	// Build the GEOA record with an unknown track after a known one.
	w2 := header(800)
	w2.chunk("GEOA", func(c *bb) {
		c.sized(func(g *bb) {
			g.f32(1).u32(0).f32(1, 1, 1).i32(0)
			g.floatTrack("KGAO", 0, -1, 0, 1)
			g.tag("KXYZ").u32(1, 2, 3)
		})
	})
	w2.raw(0xAA, 0xBB) // trailing bytes shorter than a chunk header
	m := decodeOK(t, w2.b)
	if m.GeosetAnims[0].AlphaTrack == nil {
		t.Error("known track before the unknown one was not decoded")
	}

	w3 := header(800)
	w3.chunk("ZZZZ", func(c *bb) { c.raw(1, 2, 3) })
	w3.chunk("TEXS", func(c *bb) {
		c.u32(0).raw([]byte("a.blp\x00junk")...).str("", 250).u32(0)
		c.raw(9, 9)
	})
	m = decodeOK(t, w3.b)
	if len(m.Unknown) != 1 || m.Unknown[0].Tag != "ZZZZ" || !bytes.Equal(m.Unknown[0].Data, []byte{1, 2, 3}) {
		t.Errorf("unknown chunk: %+v", m.Unknown)
	}
	if m.Textures[0].Path != "a.blp" {
		t.Errorf("path %q", m.Textures[0].Path)
	}
	// Changing the string drops the remembered junk.
	m.Textures[0].Path = "b.blp"
	out, _ := encodeBytesT(m)
	m2, err := decodeBytes(out)
	if err != nil || m2.Textures[0].Path != "b.blp" || bytes.Contains(out, []byte("junk")) {
		t.Errorf("edited path: %v %q", err, m2.Textures[0].Path)
	}

	// LITE chunk whose declared size leaves out the light's last track: read
	// the record as mdx-m3-viewer does and keep the short size on save.
	var light bb
	light.sized(func(l *bb) {
		l.node("Light", 0, -1, NodeLight, nil)
		l.u32(0).f32(80, 200, 1, 1, 1, 1, 1, 1, 1, 0)
		l.floatTrack("KLAV", 0, -1, 0, 1)
	})
	w4 := header(800)
	w4.tag("LITE").u32(uint32(len(light.b) - 24)).raw(light.b...)
	w4.chunk("PIVT", func(c *bb) { c.f32(0, 0, 0) })
	m = decodeOK(t, w4.b)
	if len(m.Lights) != 1 || m.Lights[0].Visibility == nil || len(m.PivotPoints) != 1 {
		t.Errorf("short LITE: %+v", m.Lights)
	}
}

func TestEncodeFromScratch(t *testing.T) {
	m := &Model{
		Version: 1000, Name: "Scratch",
		Sequences:       []Sequence{{Name: "Stand", Interval: [2]uint32{0, 1000}}},
		GlobalSequences: []uint32{500},
		Textures:        []Texture{{Path: "t.blp"}},
		Materials: []Material{{Shader: "Shader_SD_FixedFunction", Layers: []Layer{{TextureAnimID: -1, Alpha: 1,
			AlphaTrack: &Track[float32]{Interpolation: Bezier, GlobalSeqID: -1, Keys: []Key[float32]{{Frame: 0, Value: 1, InTan: 0.5, OutTan: 0.25}}}}}}},
		Geosets: []Geoset{{Vertices: []Vec3{{0, 0, 0}}, Normals: []Vec3{{0, 0, 1}}, Faces: []uint16{0, 0, 0},
			FaceTypes: []uint32{4}, FaceGroups: []uint32{3}, VertexGroups: []uint8{0}, MatrixGroups: []uint32{1},
			MatrixIndices: []uint32{0}, UVSets: [][]Vec2{{{0, 0}}}, Skin: []byte{0, 0, 0, 0, 255, 0, 0, 0}}},
		Bones:       []Bone{{Node: Node{Name: "b", ParentID: -1}, GeosetID: 0, GeosetAnimID: -1}},
		PivotPoints: []Vec3{{0, 0, 0}},
		Unknown:     []RawChunk{{Tag: "ABCD", Data: []byte{1}}},
	}
	b, err := encodeBytesT(m)
	if err != nil {
		t.Fatal(err)
	}
	// Canonical order: VERS MODL SEQS GLBS MTLS TEXS GEOS BONE PIVT, then unknown.
	var tags []string
	for p := 4; p+8 <= len(b); {
		tags = append(tags, string(b[p:p+4]))
		p += 8 + int(le.Uint32(b[p+4:]))
	}
	if got := strings.Join(tags, " "); got != "VERS MODL SEQS GLBS MTLS TEXS GEOS BONE PIVT ABCD" {
		t.Errorf("chunk order %s", got)
	}
	m2 := decodeOK(t, b)
	if d := modelDiff(m, m2, 5); len(d) > 0 {
		t.Errorf("round trip: %v", d)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil || !bytes.Equal(buf.Bytes(), b) {
		t.Errorf("Encode: %v", err)
	}
	if _, err := encodeBytesT(&Model{Version: 1250}); err == nil {
		t.Error("encoding version 1250 should fail")
	}
}

func TestBadInput(t *testing.T) {
	vertexOverflow := header(800)
	vertexOverflow.chunk("GEOS", func(c *bb) {
		c.sized(func(g *bb) { g.tag("VRTX").u32(0xFFFFFFFF).f32(1, 2, 3) })
	})
	badSize := header(800)
	badSize.chunk("BONE", func(c *bb) { c.u32(50).raw(make([]byte, 46)...) })
	hugeChunk := header(800)
	hugeChunk.tag("GEOS").u32(1 << 30)
	wrongTag := header(800)
	wrongTag.chunk("GEOS", func(c *bb) { c.sized(func(g *bb) { g.tag("XXXX").u32(0) }) })
	layerCount := header(800)
	layerCount.chunk("MTLS", func(c *bb) { c.sized(func(m *bb) { m.u32(0, 0).tag("LAYS").u32(1000) }) })

	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"vertex count", vertexOverflow.b, "GEOS at offset 0x19c: vertex count 4294967295 exceeds remaining 12 bytes"},
		{"node size", badSize.b, "BONE at offset 0x194: node size 50 is smaller than its fixed part (96 bytes)"},
		{"chunk size", hugeChunk.b, "GEOS at offset 0x18c: chunk size 1073741824 exceeds remaining 0 bytes"},
		{"sub-chunk tag", wrongTag.b, `expected VRTX, found "XXXX"`},
		{"layer count", layerCount.b, "layer count 1000 exceeds remaining 0 bytes"},
		{"truncated MODL", header(800).b[:300], "MODL"},
	}
	for _, c := range cases {
		_, err := decodeBytes(c.b)
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: got %v, want *FormatError", c.name, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not contain %q", c.name, err, c.want)
		}
	}
	if _, err := decodeBytes([]byte("Version { FormatVersion 800 }")); !errors.Is(err, ErrNotMDX) {
		t.Errorf("MDL text: %v", err)
	}
	var ue UnsupportedError
	if _, err := decodeBytes(header(1250).b); !errors.As(err, &ue) {
		t.Errorf("v1250: %v", err)
	}
}

func TestDetect(t *testing.T) {
	if Detect(header(800).b) != FormatMDX || Detect([]byte("// x\nVersion {\n\tFormatVersion 800,\n}")) != FormatMDL || Detect([]byte("hello")) != FormatUnknown {
		t.Error("Detect")
	}
}

func TestNodesOrder(t *testing.T) {
	m := &Model{
		Bones:           []Bone{{Node: Node{Name: "bone"}}},
		Lights:          []Light{{Node: Node{Name: "light"}}},
		Helpers:         []Helper{{Node: Node{Name: "helper"}}},
		Attachments:     []Attachment{{Node: Node{Name: "attachment"}}},
		PopcornEmitters: []PopcornEmitter{{Node: Node{Name: "popcorn"}}},
		CollisionShapes: []CollisionShape{{Node: Node{Name: "shape"}}},
	}
	var names []string
	for _, n := range m.Nodes() {
		names = append(names, n.Name)
	}
	if got := strings.Join(names, " "); got != "bone light helper attachment popcorn shape" {
		t.Errorf("Nodes order: %s", got)
	}
	m.Nodes()[0].Name = "renamed"
	if m.Bones[0].Name != "renamed" {
		t.Error("Nodes does not alias the model")
	}
}

func TestNames(t *testing.T) {
	if FilterModulate2x.String() != "Modulate2x" || FilterMode(9).String() != "FilterMode(9)" ||
		LightAmbient.String() != "Ambient" || ShapeCylinder.String() != "Cylinder" || Interpolation(7).String() != "Interpolation(7)" {
		t.Error("names")
	}
}
