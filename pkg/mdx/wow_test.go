package mdx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
)

func readBoar(t testing.TB) []byte {
	t.Helper()
	dir := testshared.Corpus(t)
	b, err := os.ReadFile(filepath.Join(dir, "corpus", "files", "MDX-Parser", "MDXParser", "Files", "Boar.mdx"))
	if err != nil {
		t.Skip(err)
	}
	return b
}

func TestWoWBoarRoundTrip(t *testing.T) {
	m := decodeOK(t, readBoar(t))
	// Without the remembered layout the model must still encode to a file
	// that decodes to the same model.
	m.ClearFileDetails()
	_, m2, err := viaMDX(m)
	if err != nil {
		t.Fatal(err)
	}
	m2.ClearFileDetails()
	if d := modelDiff(m, m2, 5); len(d) > 0 {
		t.Fatalf("canonical round trip: %v", d)
	}
}

// scanCounts reads each chunk's leading u32 record count straight from the
// bytes (the v1300 layout: SEQS, MTLS, GEOS, BONE, HELP, ATCH, CAMS, EVTS,
// HTST start with a count) and the sizes of the fixed-entry chunks, without
// the decoder.
func scanCounts(b []byte) map[string]int {
	c := map[string]int{}
	for p := 4; p+8 <= len(b); {
		tag := string(b[p : p+4])
		size := int(binary.LittleEndian.Uint32(b[p+4:]))
		switch tag {
		case "TEXS":
			c[tag] = size / 268
		case "PIVT":
			c[tag] = size / 12
		case "GLBS":
			c[tag] = size / 4
		case "VERS", "MODL", "CLID":
		default:
			c[tag] = int(binary.LittleEndian.Uint32(b[p+8:]))
		}
		p += 8 + size
	}
	return c
}

func TestWoWBoarCounts(t *testing.T) {
	b := readBoar(t)
	m, err := decodeBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != 1300 || m.Name != "Boar" {
		t.Fatalf("version %d name %q", m.Version, m.Name)
	}
	c := scanCounts(b)
	got := map[string]int{"SEQS": len(m.Sequences), "MTLS": len(m.Materials), "TEXS": len(m.Textures),
		"GEOS": len(m.Geosets), "BONE": len(m.Bones), "HELP": len(m.Helpers), "ATCH": len(m.Attachments),
		"PIVT": len(m.PivotPoints), "CAMS": len(m.Cameras), "EVTS": len(m.EventObjects)}
	for k, v := range got {
		if c[k] != v || v == 0 {
			t.Errorf("%s: decoded %d, file count %d", k, v, c[k])
		}
	}
	// Every GENOBJECT has a pivot: bones, helpers, attachments, events and
	// the hit-test shapes (HTST, kept raw) together.
	nodes := len(m.Bones) + len(m.Helpers) + len(m.Attachments) + len(m.EventObjects) + c["HTST"]
	if nodes != len(m.PivotPoints) {
		t.Errorf("%d objects but %d pivots", nodes, len(m.PivotPoints))
	}
	ids := map[int32]bool{}
	for _, n := range m.Nodes() {
		if ids[n.ObjectID] || n.ObjectID < 0 || int(n.ObjectID) >= len(m.PivotPoints) {
			t.Errorf("node %q: object id %d repeated or out of range", n.Name, n.ObjectID)
		}
		ids[n.ObjectID] = true
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
	for gi, g := range m.Geosets {
		if g.Skin != nil || len(g.BoneIndices) != len(g.Vertices) || len(g.BoneWeights) != len(g.Vertices) ||
			len(g.UVSets) != 1 || len(g.UVSets[0]) != len(g.Vertices) || len(g.VertexGroups) != len(g.Vertices) {
			t.Fatalf("geoset %d: %d verts, skin %d, BIDX %d, BWGT %d, %d UV sets", gi, len(g.Vertices), len(g.Skin),
				len(g.BoneIndices), len(g.BoneWeights), len(g.UVSets))
		}
		if len(g.Faces)%3 != 0 || len(g.FaceTypes) != 1 || g.FaceTypes[0] != 4 {
			t.Errorf("geoset %d: %d indices, types %v", gi, len(g.Faces), g.FaceTypes)
		}
		if len(g.SequenceExtents) != len(m.Sequences) {
			t.Errorf("geoset %d: %d sequence extents for %d sequences", gi, len(g.SequenceExtents), len(m.Sequences))
		}
		// BIDX/BWGT restate the matrix groups in group order: entry k is
		// the k-th vertex when vertices are stably sorted by matrix group
		// (the finding Geoset.BoneIndices documents). Each entry's
		// weights sum to 255.
		groups := make([][]uint32, len(g.MatrixGroups))
		at := 0
		for i, n := range g.MatrixGroups {
			groups[i] = g.MatrixIndices[at : at+int(n)]
			at += int(n)
		}
		order := make([]int, len(g.Vertices))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return g.VertexGroups[order[a]] < g.VertexGroups[order[b]] })
		match := 0
		for k, v := range order {
			idx, w := g.BoneIndices[k], g.BoneWeights[k]
			sum := 0
			var bones []uint32
			for j := 0; j < 4; j++ {
				wj := (w >> (24 - 8*j)) & 0xFF
				sum += int(wj)
				if wj > 0 {
					bones = append(bones, (idx>>(8*j))&0xFF)
				}
			}
			if sum != 255 {
				t.Fatalf("geoset %d entry %d: weights %#x sum to %d", gi, k, w, sum)
			}
			want := append([]uint32(nil), groups[g.VertexGroups[v]]...)
			slices.Sort(bones)
			slices.Sort(want)
			if slices.Equal(bones, want) {
				match++
			}
		}
		if match < len(g.Vertices)*95/100 {
			t.Errorf("geoset %d: only %d of %d BIDX entries restate a matrix group", gi, match, len(g.Vertices))
		}
		t.Logf("geoset %d: %d of %d BIDX/BWGT entries equal the sorted vertices' matrix groups", gi, match, len(g.Vertices))
	}
	// With the corrected Z decode every rotation key is a unit quaternion;
	// An unsigned Z (as one older description reads it) would put |z| near 2 for negative values.
	nq := 0
	for _, n := range m.Nodes() {
		if n.Rotation == nil {
			continue
		}
		for _, k := range n.Rotation.Keys {
			q := k.Value
			l := math.Sqrt(float64(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]))
			if math.Abs(l-1) > 1e-3 {
				t.Fatalf("node %q frame %d: |q| = %v (%v)", n.Name, k.Frame, l, q)
			}
			nq++
		}
	}
	if nq == 0 {
		t.Error("no rotation keys")
	}
	for i, s := range m.Sequences {
		if s.Interval[1] < s.Interval[0] || (i > 0 && s.Interval[0] < m.Sequences[i-1].Interval[0]) {
			t.Errorf("sequence %q interval %v", s.Name, s.Interval)
		}
	}
	if m.Textures[0].ReplaceableID != WoWTexMonster1 || WoWReplaceableName(m.Textures[0].ReplaceableID) != "Monster1" {
		t.Errorf("texture 0 replaceable id %d", m.Textures[0].ReplaceableID)
	}
	t.Logf("Boar: %d sequences, %d geosets (%d+%d vertices), %d bones, %d helpers, %d attachments, %d events, %d rotation keys",
		len(m.Sequences), len(m.Geosets), len(m.Geosets[0].Vertices), len(m.Geosets[1].Vertices), len(m.Bones),
		len(m.Helpers), len(m.Attachments), len(m.EventObjects), nq)
}

func TestCompressedQuat(t *testing.T) {
	pack := func(x, y, z int64) int64 { return x<<42 | (y&0x1FFFFF)<<21 | z&0x1FFFFF }
	cases := []struct {
		x, y, z int64
		want    Quat
	}{
		{0, 0, 0, Quat{0, 0, 0, 1}},
		{1 << 20, 0, 0, Quat{0.5, 0, 0, float32(math.Sqrt(0.75))}},
		{0, -(1 << 19), 0, Quat{0, -0.5, 0, float32(math.Sqrt(0.75))}},
		// Negative Z: the sign-extending decode of docs/formats.md#early-wow-mdx.
		{0, 0, -(1 << 19), Quat{0, 0, -0.5, float32(math.Sqrt(0.75))}},
		{-(1 << 21), 0, 0, Quat{-1, 0, 0, 0}},
	}
	for _, c := range cases {
		d := pack(c.x, c.y, c.z)
		q := DecompressQuat(d)
		for k := range q {
			if math.Abs(float64(q[k]-c.want[k])) > 1e-6 {
				t.Errorf("%d,%d,%d: got %v want %v", c.x, c.y, c.z, q, c.want)
				break
			}
		}
		if back := CompressQuat(q); back != d {
			t.Errorf("%d,%d,%d: compress gives %#x, want %#x", c.x, c.y, c.z, back, d)
		}
	}
	// A negative W is flipped (same rotation).
	if got := CompressQuat(Quat{0, 0, 0.5, -float32(math.Sqrt(0.75))}); got != pack(0, 0, -(1<<19)) {
		t.Errorf("negative W: %#x", got)
	}
}

func TestWoWNames(t *testing.T) {
	if WoWAttachmentName(0x23) != "HandArrow" || WoWAttachmentName(-1) != "None" || WoWAttachmentName(99) != "Attachment(99)" {
		t.Error("attachment names")
	}
	if s, sub := WoWCharGeosetSection(1302); s != 13 || sub != 2 || WoWCharGeosetSectionName(s) != "Robe" {
		t.Errorf("section %d %d", s, sub)
	}
}

// wowFixture builds a small WoW MDX of the given version from the seed
// layouts: every decoded chunk with one or two records and one raw PRE2.
func wowFixture(v uint32) []byte {
	cq := func(w *bb, x, y, z int64) {
		w.b = binary.LittleEndian.AppendUint64(w.b, uint64(x<<42|(y&0x1FFFFF)<<21|z&0x1FFFFF))
	}
	w := &bb{}
	w.tag("MDLX").chunk("VERS", func(c *bb) { c.u32(v) })
	w.chunk("MODL", func(c *bb) {
		c.str("Fix", 80).str("", 260).f32(3, -1, -1, 0, 1, 1, 2).u32(150).raw(0)
	})
	w.chunk("SEQS", func(c *bb) {
		c.u32(2)
		c.str("Stand", 80).u32(0, 1000).f32(0).u32(0).f32(1, -1, -1, 0, 1, 1, 2).f32(0.5).u32(1, 3).u32(150)
		c.str("Walk", 80).u32(1100, 2000).f32(4).u32(1).f32(1, -1, -1, 0, 1, 1, 2).f32(1).u32(0, 0).u32(0)
	})
	w.chunk("GLBS", func(c *bb) { c.u32(500) })
	w.chunk("MTLS", func(c *bb) {
		c.u32(1, 7) // count, unused
		c.sized(func(mt *bb) {
			mt.i32(0).u32(1)
			mt.sized(func(l *bb) {
				l.u32(uint32(FilterBlend), LayerTwoSided|WoWLayerNoFallback).i32(0).i32(0).i32(-1).f32(1)
				l.floatTrack("KMTA", uint32(Linear), -1, 0, 1, 500, 0.5)
				l.tag("KMTF").u32(2).i32(-1).u32(0, 0, 500, 1) // simple track
			})
		})
	})
	w.chunk("TEXS", func(c *bb) { c.u32(WoWTexMonster1).str("", 260).u32(3) })
	w.chunk("TXAN", func(c *bb) {
		c.u32(1)
		c.sized(func(t *bb) {
			t.tag("KTAR").u32(1, uint32(Linear)).i32(-1).u32(0)
			cq(t, 0, 0, -(1 << 19))
		})
	})
	w.chunk("GEOS", func(c *bb) {
		if v >= 1500 {
			geos1500(c)
			return
		}
		c.u32(1)
		c.sized(func(g *bb) {
			g.tag("VRTX").u32(3).f32(0, 0, 0, 1, 0, 0, 0, 1, 0)
			g.tag("NRMS").u32(3).f32(0, 0, 1, 0, 0, 1, 0, 0, 1)
			g.tag("UVAS").u32(1).f32(0, 0, 1, 0, 0, 1)
			g.tag("PTYP").u32(1).raw(4)
			g.tag("PCNT").u32(1).u32(3)
			g.tag("PVTX").u32(3).u16(0).u16(1).u16(2)
			g.tag("GNDX").u32(3).raw(0, 0, 0)
			g.tag("MTGC").u32(1).u32(1)
			g.tag("MATS").u32(1).u32(0)
			g.tag("BIDX").u32(3).raw(0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0)
			g.tag("BWGT").u32(3).raw(0, 0, 0, 255, 0, 0, 55, 200, 0, 0, 0, 255)
			g.u32(0, 1302, 0).f32(1, 0, 0, 0, 1, 1, 0).u32(1).f32(1, 0, 0, 0, 1, 1, 0)
		})
	})
	w.chunk("GEOA", func(c *bb) {
		c.u32(1)
		c.sized(func(g *bb) { g.i32(0).f32(1).f32(0.1, 0.2, 0.3).u32(1).floatTrack("KGAO", 0, -1, 0, 1) })
	})
	w.chunk("BONE", func(c *bb) {
		c.u32(2)
		c.node("root", 0, -1, 0x80, func(n *bb) {
			n.tag("KGRT").u32(1, uint32(Hermite)).i32(-1).u32(10)
			cq(n, 1<<20, 0, 0)
			cq(n, 0, 1<<19, 0)
			cq(n, 0, 0, -(1 << 20))
		}).i32(0).i32(-1)
		c.node("child", 1, 0, 0x80, func(n *bb) {
			n.floatTrack("KGTR", 0, -1) // empty track
		}).i32(-1).i32(-1)
	})
	w.chunk("LITE", func(c *bb) {
		c.u32(1)
		c.sized(func(l *bb) {
			l.node("light", 2, -1, 0x100, nil).u32(0).f32(1, 5, 1, 1, 1, 1, 0, 0, 0, 0)
			l.floatTrack("KVIS", 0, -1, 0, 1, 100, 0)
		})
	})
	w.chunk("HELP", func(c *bb) { c.u32(1).node("help", 3, 0, 0, nil) })
	w.chunk("ATCH", func(c *bb) {
		c.u32(1, 9)
		c.sized(func(a *bb) {
			a.node("hand", 4, 1, 0x400, nil).i32(1).raw(0).str("", 260)
			a.floatTrack("KVIS", 0, -1, 0, 1)
		})
	})
	w.chunk("PIVT", func(c *bb) { c.f32(0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 2, 0, 1, 1, 0, 0, 0) })
	w.chunk("CAMS", func(c *bb) {
		c.u32(1)
		c.sized(func(cm *bb) { cm.str("Portrait", 80).f32(5, 0, 1, 0.95, 27.7, 0.22, 0, 0, 1) })
	})
	w.chunk("EVTS", func(c *bb) {
		c.u32(1)
		c.sized(func(e *bb) { e.node("$CAH", 5, -1, 0x200, nil).tag("KEVT").u32(1).i32(-1).u32(700) })
	})
	w.chunk("PRE2", func(c *bb) { c.u32(0) })
	return w.b
}

// geos1500 writes a v1500 GEOS: two headers, then two batches (one with 3
// indices, padded to 8, one with 8, unpadded).
func geos1500(c *bb) {
	c.u32(2)
	hdr := func(mat, idx, nv, ni uint32) {
		c.u32(mat).f32(0.5, 0.5, 0, 0.75).u32(1302, idx, 0x20)
		c.tag("PVTX").u32(nv).tag("PTYP").u32(1).tag("PVTX").u32(ni).u32(0, 0)
	}
	hdr(0, 0, 3, 3)
	hdr(0, 1, 4, 8)
	vert := func(x, y float32, w0, w1, b0, b1 uint8) {
		c.f32(x, y, 0).raw(w0, w1, 0, 0, b0, b1, 0, 0).f32(0, 0, 1).f32(x, 1-y).f32(0, 0)
	}
	vert(0, 0, 255, 0, 0, 0)
	vert(1, 0, 128, 127, 0, 1)
	vert(0, 1, 255, 0, 1, 0)
	c.u32(3, 0).u16(3).u16(0).u16(2).u16(0).u16(0).u16(1).u16(2)
	c.u16(0).u16(0).u16(0).u16(0).u16(0) // padding to 8 indices
	for i := 0; i < 4; i++ {
		vert(float32(i&1), float32(i>>1), 255, 0, 0, 0)
	}
	c.u32(3, 0).u16(8).u16(0).u16(3).u16(0)
	for _, i := range []uint16{0, 1, 2, 0, 2, 3, 0, 1} {
		c.u16(i)
	}
}

func TestWoWFixtures(t *testing.T) {
	for _, v := range []uint32{1300, 1400, 1500} {
		b := wowFixture(v)
		m, err := decodeBytes(b)
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		out, err := encodeBytesT(m)
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("v%d: round trip differs (%v)", v, err)
		}
		if len(m.Sequences) != 2 || m.Sequences[0].Frequency != 0.5 || m.Sequences[0].Replay != [2]uint32{1, 3} ||
			m.Sequences[0].BlendTime != 150 || !m.Sequences[1].NonLooping() {
			t.Errorf("v%d sequences: %+v", v, m.Sequences)
		}
		if len(m.GlobalSequences) != 1 || len(m.Textures) != 1 || m.Textures[0].Flags != 3 {
			t.Errorf("v%d globals/textures", v)
		}
		l := m.Materials[0].Layers[0]
		if l.FilterMode != FilterBlend || l.Flags&WoWLayerNoFallback == 0 || l.AlphaTrack == nil ||
			len(l.AlphaTrack.Keys) != 2 || l.TextureIDTrack == nil || l.TextureIDTrack.Keys[1].Value != 1 ||
			l.TextureIDTrack.Keys[1].Frame != 500 || l.CoordID != 0xFFFFFFFF {
			t.Errorf("v%d layer: %+v", v, l)
		}
		if q := m.TextureAnims[0].Rotation.Keys[0].Value; q[2] != -0.5 {
			t.Errorf("v%d KTAR: %v", v, q)
		}
		if ga := m.GeosetAnims[0]; ga.Flags != GeoaUseColor || ga.Color != (Vec3{0.1, 0.2, 0.3}) || ga.AlphaTrack == nil {
			t.Errorf("v%d geoset anim: %+v", v, ga)
		}
		rk := m.Bones[0].Rotation.Keys
		if len(rk) != 1 || rk[0].Value[0] != 0.5 || rk[0].InTan[1] != 0.5 || rk[0].OutTan[2] != -1 || m.Bones[0].GeosetID != 0 {
			t.Errorf("v%d bone rotation: %+v", v, rk)
		}
		if m.Bones[1].Translation == nil || len(m.Bones[1].Translation.Keys) != 0 || m.Bones[1].ParentID != 0 {
			t.Errorf("v%d child bone: %+v", v, m.Bones[1])
		}
		if m.Lights[0].Visibility == nil || len(m.Lights[0].Visibility.Keys) != 2 || m.Lights[0].AttenuationEnd != 5 {
			t.Errorf("v%d light: %+v", v, m.Lights[0])
		}
		if a := m.Attachments[0]; a.AttachmentID != 1 || a.Visibility == nil || a.Name != "hand" {
			t.Errorf("v%d attachment: %+v", v, a)
		}
		if len(m.Helpers) != 1 || len(m.PivotPoints) != 6 || len(m.Cameras) != 1 || m.Cameras[0].FieldOfView != 0.95 {
			t.Errorf("v%d helpers/pivots/cameras", v)
		}
		if e := m.EventObjects[0]; len(e.Frames) != 1 || e.Frames[0] != 700 {
			t.Errorf("v%d event: %+v", v, e)
		}
		if len(m.Unknown) != 1 || m.Unknown[0].Tag != "PRE2" {
			t.Errorf("v%d unknown chunks: %v", v, m.Unknown)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("v%d: %v", v, err)
		}
		if v < 1500 {
			g := m.Geosets[0]
			if g.Skin != nil || !slices.Equal(g.BoneIndices, []uint32{0, 0x100, 1}) ||
				!slices.Equal(g.BoneWeights, []uint32{0xFF000000, 0xC8370000, 0xFF000000}) || g.SelectionGroup != 1302 || len(g.UVSets) != 1 || g.UVSets[0][1] != (Vec2{1, 0}) ||
				len(g.SequenceExtents) != 1 || g.Extent.Max != (Vec3{1, 1, 0}) {
				t.Errorf("v%d geoset: BIDX %x BWGT %x, %+v", v, g.BoneIndices, g.BoneWeights, g)
			}
		} else {
			g0, g1 := m.Geosets[0], m.Geosets[1]
			want := []byte{0, 0, 0, 0, 255, 0, 0, 0, 0, 1, 0, 0, 128, 127, 0, 0, 1, 0, 0, 0, 255, 0, 0, 0}
			if !bytes.Equal(g0.Skin, want) || len(g0.Faces) != 3 || g0.Faces[2] != 2 || len(g0.UVSets) != 2 ||
				g0.UVSets[0][2] != (Vec2{0, 0}) || g0.UVSets[0][0] != (Vec2{0, 1}) || g0.SelectionFlags != WoWGeosetShaderSkin {
				t.Errorf("v1500 geoset 0: %+v", g0)
			}
			if len(g1.Vertices) != 4 || len(g1.Faces) != 8 || g1.FaceGroups[0] != 8 || g1.Extent.BoundsRadius != 0.75 ||
				g1.Extent.Min != (Vec3{0, 0, 0}) || g1.Extent.Max != (Vec3{1, 1, 0}) {
				t.Errorf("v1500 geoset 1: %+v", g1)
			}
		}
		// Canonical form: encode without file details, decode, compare.
		m.ClearFileDetails()
		_, m2, err := viaMDX(m)
		if err != nil {
			t.Fatalf("v%d canonical: %v", v, err)
		}
		m2.ClearFileDetails()
		if d := modelDiff(m, m2, 5); len(d) > 0 {
			t.Errorf("v%d canonical: %v", v, d)
		}
	}
}

func TestWoWBadInput(t *testing.T) {
	b := wowFixture(1300)
	for cut := 16; cut < len(b); cut += 37 {
		_, err := decodeBytes(b[:cut])
		var fe *FormatError
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("cut at %d: untyped error %v", cut, err)
		}
	}
	// BIDX with a different count from BWGT.
	bad := bytes.Replace(bytes.Clone(b), []byte("BWGT\x03"), []byte("BWGT\x02"), 1)
	_, err := decodeBytes(bad)
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Chunk != "GEOS" {
		t.Errorf("BWGT count: %v", err)
	}
	// A huge sequence count is refused before allocating.
	i := bytes.Index(b, []byte("SEQS"))
	huge := bytes.Clone(b)
	binary.LittleEndian.PutUint32(huge[i+8:], 0xFFFFFFF0)
	if _, err := decodeBytes(huge); !errors.As(err, &fe) || !strings.Contains(err.Error(), "sequence count") {
		t.Errorf("huge count: %v", err)
	}
	// Versions between Warcraft III and WoW stay unsupported.
	var ue UnsupportedError
	if _, err := decodeBytes(header(1250).b); !errors.As(err, &ue) {
		t.Errorf("v1250: %v", err)
	}
}

func TestWoWFromScratch(t *testing.T) {
	for _, v := range []uint32{1300, 1500} {
		m := &Model{Version: v, Name: "Scratch", Materials: []Material{{Layers: []Layer{{TextureID: 0, TextureAnimID: -1}}}},
			Textures: []Texture{{Path: `Creature\Boar\Boar.blp`}},
			Bones:    []Bone{{Node: Node{Name: "b", ParentID: -1, Rotation: &Track[Quat]{Interpolation: Linear, GlobalSeqID: -1, Keys: []Key[Quat]{{Frame: 0, Value: Quat{0, 0, 0, 1}}}}}, GeosetID: -1, GeosetAnimID: -1}},
			Geosets: []Geoset{{Vertices: []Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, Normals: make([]Vec3, 3),
				UVSets: [][]Vec2{make([]Vec2, 3), make([]Vec2, 3)}, Faces: []uint16{0, 1, 2}, FaceTypes: []uint32{4}, FaceGroups: []uint32{3},
				Skin:   []byte{0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0},
				Extent: Extent{BoundsRadius: 1, Max: Vec3{1, 1, 0}}}},
			PivotPoints: []Vec3{{}}}
		if v < 1500 {
			g := &m.Geosets[0]
			g.UVSets = g.UVSets[:1]
			g.Skin = nil
			g.BoneIndices, g.BoneWeights = []uint32{0, 0, 0}, []uint32{0xFF000000, 0xFF000000, 0xFF000000}
			g.VertexGroups, g.MatrixGroups, g.MatrixIndices = []uint8{0, 0, 0}, []uint32{1}, []uint32{0}
		}
		_, m2, err := viaMDX(m)
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		m2.ClearFileDetails()
		if d := modelDiff(m, m2, 5); len(d) > 0 {
			t.Errorf("v%d: %v", v, d)
		}
	}
}

func BenchmarkDecodeWoWBoar(b *testing.B) {
	benchDecoding(b, decodeBytes, readBoar(b))
}

func BenchmarkEncodeWoWBoar(b *testing.B) {
	m, err := decodeBytes(readBoar(b))
	if err != nil {
		b.Fatal(err)
	}
	benchEncoding(b, encodeBytesT, m)
}
