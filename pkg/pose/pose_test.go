package pose

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func seqModel(seqs ...[2]uint32) *mdx.Model {
	m := &mdx.Model{Version: 800}
	for i, s := range seqs {
		m.Sequences = append(m.Sequences, mdx.Sequence{Name: "s" + string(rune('0'+i)), Interval: s})
	}
	return m
}

func ftrack(kind mdx.Interpolation, keys ...float32) *mdx.Track[float32] {
	tr := &mdx.Track[float32]{Interpolation: kind, GlobalSeqID: -1}
	for i := 0; i+1 < len(keys); i += 2 {
		tr.Keys = append(tr.Keys, mdx.Key[float32]{Frame: int32(keys[i]), Value: keys[i+1]})
	}
	return tr
}

func at(seq int, f float64) Clock { return Clock{Sequence: seq, Frame: f} }

func TestFloatLinearInsideKeys(t *testing.T) {
	m := seqModel([2]uint32{0, 1000})
	tr := ftrack(mdx.Linear, 200, 0, 800, 10)
	if got := Float(m, tr, at(0, 500), 7, 0, false); got != 5 {
		t.Fatalf("mid = %v, want 5", got)
	}
	// Exactly on a key.
	if got := Float(m, tr, at(0, 200), 7, 0, false); got != 0 {
		t.Fatalf("at key = %v, want 0", got)
	}
}

// After the last key MV blends towards the first key across the wrap;
// before the first key it uses a negative factor measured from k0
// (docs/rendering.md#evaluation-and-wrap).
func TestFloatWrapAndNegativeFactor(t *testing.T) {
	m := seqModel([2]uint32{0, 1000})
	tr := ftrack(mdx.Linear, 200, 0, 800, 10)
	// After: span = (200-800)+1000 = 400, t = (900-800)/400 = 0.25: 10 → 0.
	if got := Float(m, tr, at(0, 900), 0, 0, false); got != 7.5 {
		t.Fatalf("after last key = %v, want 7.5", got)
	}
	// Before: t = (100-200)/400 = -0.25: 10 + (-0.25)(0-10) = 12.5 (MV's value).
	if got := Float(m, tr, at(0, 100), 0, 0, false); got != 12.5 {
		t.Fatalf("before first key = %v, want 12.5 as MV", got)
	}
	// Before the sequence start: first value.
	m2 := seqModel([2]uint32{100, 1000})
	if got := Float(m2, ftrack(mdx.Linear, 200, 0, 800, 10), at(0, 50), 0, 0, false); got != 0 {
		t.Fatalf("before start = %v, want first key", got)
	}
}

func TestFloatConstantCasesAndDefaults(t *testing.T) {
	m := seqModel([2]uint32{0, 100}, [2]uint32{200, 300})
	tr := ftrack(mdx.Linear, 250, 4)
	// Keys only in another sequence: the per-tag default, not the static.
	if got := Float(m, tr, at(0, 50), 0.3, 1, false); got != 1 {
		t.Fatalf("no keys in sequence = %v, want default 1", got)
	}
	// One key: constant for the whole sequence, before and after it.
	for _, f := range []float64{200, 240, 299} {
		if got := Float(m, tr, at(1, f), 0.3, 1, false); got != 4 {
			t.Fatalf("one key at %v = %v, want 4", f, got)
		}
	}
	// No track: static. No sequence: static.
	if got := Float(m, nil, at(1, 250), 0.3, 1, false); got != 0.3 {
		t.Fatalf("no track = %v", got)
	}
	if got := Float(m, tr, at(-1, 250), 0.3, 1, false); got != 0.3 {
		t.Fatalf("no sequence = %v", got)
	}
	// All values equal: constant even "between" keys with a wrap.
	eq := ftrack(mdx.Linear, 210, 2, 290, 2)
	if got := Float(m, eq, at(1, 205), 0, 0, false); got != 2 {
		t.Fatalf("equal keys = %v", got)
	}
}

func TestForcedStepAndUint(t *testing.T) {
	m := seqModel([2]uint32{0, 1000})
	vis := ftrack(mdx.Linear, 0, 1, 500, 0)
	if got := Float(m, vis, at(0, 499), 0, 1, true); got != 1 {
		t.Fatalf("step visibility = %v, want 1", got)
	}
	if got := Float(m, vis, at(0, 499), 0, 1, false); got == 1 {
		t.Fatalf("linear visibility should interpolate")
	}
	flip := &mdx.Track[uint32]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[uint32]{{Frame: 0, Value: 1}, {Frame: 500, Value: 3}}}
	if got := Uint(m, flip, at(0, 499), 0, 0); got != 1 {
		t.Fatalf("flipbook at 499 = %d, want 1 (step)", got)
	}
	if got := Uint(m, flip, at(0, 700), 0, 0); got != 3 {
		t.Fatalf("flipbook at 700 = %d, want 3", got)
	}
}

func TestHermiteBezier(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	mk := func(kind mdx.Interpolation) *mdx.Track[float32] {
		return &mdx.Track[float32]{Interpolation: kind, GlobalSeqID: -1, Keys: []mdx.Key[float32]{
			{Frame: 0, Value: 0, OutTan: 1}, {Frame: 100, Value: 1, InTan: 2}}}
	}
	// t = 0.25: hermite = o(t³−2t²+t) + i(t³−t²) + b(−2t³+3t²)
	tt := 0.25
	wantH := 1*(tt*tt*tt-2*tt*tt+tt) + 2*(tt*tt*tt-tt*tt) + (-2*tt*tt*tt + 3*tt*tt)
	if got := Float(m, mk(mdx.Hermite), at(0, 25), 0, 0, false); !near(float64(got), wantH, 1e-6) {
		t.Fatalf("hermite = %v, want %v", got, wantH)
	}
	u := 1 - tt
	wantB := 3*1*tt*u*u + 3*2*tt*tt*u + tt*tt*tt
	if got := Float(m, mk(mdx.Bezier), at(0, 25), 0, 0, false); !near(float64(got), wantB, 1e-6) {
		t.Fatalf("bezier = %v, want %v", got, wantB)
	}
}

func TestQuatSlerpAndSqlerp(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	half := float32(math.Sqrt(0.5))
	tr := &mdx.Track[mdx.Quat]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Quat]{
		{Frame: 0, Value: mdx.Quat{0, 0, 0, 1}}, {Frame: 100, Value: mdx.Quat{0, 0, half, half}}}}
	got := Quat(m, tr, at(0, 50), defR, defR)
	want := math.Sin(math.Pi / 8) // 45° about Z halfway = 22.5°, z = sin(11.25°)? no: angle 45° → z=sin(22.5°)
	want = math.Sin(math.Pi / 16 * 2 / 2)
	_ = want
	angle := 2 * math.Atan2(float64(got[2]), float64(got[3]))
	if !near(angle, math.Pi/4, 1e-5) {
		t.Fatalf("slerp halfway angle = %v, want π/4", angle)
	}
	// Negative dot: shortest path (b negated).
	tr.Keys[1].Value = mdx.Quat{0, 0, -half, -half}
	got = Quat(m, tr, at(0, 50), defR, defR)
	angle = 2 * math.Atan2(float64(got[2]), float64(got[3]))
	if !near(angle, math.Pi/4, 1e-5) {
		t.Fatalf("slerp short arc angle = %v", angle)
	}
	// sqlerp with tangents equal to the keys is plain slerp.
	tr.Interpolation = mdx.Hermite
	tr.Keys[1].Value = mdx.Quat{0, 0, half, half}
	tr.Keys[0].OutTan = tr.Keys[0].Value
	tr.Keys[1].InTan = tr.Keys[1].Value
	got = Quat(m, tr, at(0, 25), defR, defR)
	angle = 2 * math.Atan2(float64(got[2]), float64(got[3]))
	if !near(angle, math.Pi/8, 1e-5) {
		t.Fatalf("sqlerp angle = %v, want π/8", angle)
	}
}

func TestGlobalSequence(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	m.GlobalSequences = []uint32{1000, 0}
	tr := ftrack(mdx.Linear, 0, 0, 1000, 10)
	tr.GlobalSeqID = 0
	c := Clock{Sequence: 0, Frame: 50, Global: 2250}
	if got := Float(m, tr, c, 0, 0, false); got != 2.5 {
		t.Fatalf("global at phase 250 = %v, want 2.5", got)
	}
	// Plays even with no sequence.
	c.Sequence = -1
	if got := Float(m, tr, c, 0, 0, false); got != 2.5 {
		t.Fatalf("global without sequence = %v", got)
	}
	// Duration 0: time 0 (deviation), i.e. the first key.
	tr.GlobalSeqID = 1
	tr.Keys = []mdx.Key[float32]{{Frame: 0, Value: 3}, {Frame: 10, Value: 4}}
	if got := Float(m, tr, c, 0, 0, false); got != 3 {
		t.Fatalf("zero-length global = %v, want 3", got)
	}
	// First key after the end: it becomes the value (HeroMountainKing case).
	tr.GlobalSeqID = 0
	tr.Keys = []mdx.Key[float32]{{Frame: 5000, Value: 9}}
	if got := Float(m, tr, c, 0, 0, false); got != 9 {
		t.Fatalf("late first key = %v, want 9", got)
	}
}

func TestClockAt(t *testing.T) {
	m := seqModel([2]uint32{1000, 2000}, [2]uint32{3000, 3500})
	m.Sequences[1].Flags = mdx.SeqNonLooping
	if c := ClockAt(m, 0, 1250); c.Frame != 1250 || c.Global != 1250 {
		t.Fatalf("looping wrap: %+v", c)
	}
	if c := ClockAt(m, 1, 900); c.Frame != 3500 {
		t.Fatalf("non-looping clamp: %+v", c)
	}
	if c := ClockAt(m, 5, 10); c.Sequence != -1 {
		t.Fatalf("out of range sequence: %+v", c)
	}
}

// node helpers ---------------------------------------------------------

func bone(name string, id, parent int32, flags uint32) mdx.Bone {
	return mdx.Bone{Node: mdx.Node{Name: name, ObjectID: id, ParentID: parent, Flags: flags | mdx.NodeBone}, GeosetID: -1, GeosetAnimID: -1}
}

func rotZ(deg float64) mdx.Quat {
	r := deg * math.Pi / 180
	return mdx.Quat{0, 0, float32(math.Sin(r / 2)), float32(math.Cos(r / 2))}
}

func constQ(q mdx.Quat) *mdx.Track[mdx.Quat] {
	return &mdx.Track[mdx.Quat]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Quat]{{Frame: 0, Value: q}}}
}
func constV(v mdx.Vec3) *mdx.Track[mdx.Vec3] {
	return &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{{Frame: 0, Value: v}}}
}

func nearV(a [3]float64, b [3]float64, eps float64) bool {
	return near(a[0], b[0], eps) && near(a[1], b[1], eps) && near(a[2], b[2], eps)
}

// A child rotated 90° about Z about its pivot (10,0,0), under a parent
// translated by (0,0,5): the point (20,0,0) goes to (10,10,5).
func TestHierarchyPivotTRS(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	// Child listed first: the order must still put the parent first.
	m.Bones = []mdx.Bone{bone("child", 0, 1, 0), bone("root", 1, -1, 0)}
	m.Bones[0].Rotation = constQ(rotZ(90))
	m.Bones[1].Translation = constV(mdx.Vec3{0, 0, 5})
	m.PivotPoints = []mdx.Vec3{{10, 0, 0}, {0, 0, 0}}
	p, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	if p.order[0] != 1 || p.order[1] != 0 {
		t.Fatalf("order = %v, want parent first", p.order)
	}
	p.Update(at(0, 10), View{})
	got := p.world[0].Point([3]float64{20, 0, 0})
	if !nearV(got, [3]float64{10, 10, 5}, 1e-5) {
		t.Fatalf("child point = %v", got)
	}
	if !nearV(vec3(p.WorldLocation(0)), [3]float64{10, 0, 5}, 1e-5) {
		t.Fatalf("child pivot = %v", p.WorldLocation(0))
	}
}

func TestDanglingParentAndCycle(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	m.Bones = []mdx.Bone{bone("a", 0, 7, 0), bone("self", 1, 1, 0)}
	p, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.order) != 2 || p.parent[0] != -1 || p.parent[1] != -1 {
		t.Fatalf("dangling/self parents should be roots: %v %v", p.order, p.parent)
	}
	m.Bones = []mdx.Bone{bone("a", 0, 1, 0), bone("b", 1, 2, 0), bone("c", 2, 0, 0), bone("d", 3, -1, 0)}
	_, err = New(m)
	var ce *CycleError
	if !errors.As(err, &ce) {
		t.Fatalf("cycle: err = %v", err)
	}
	for _, n := range []string{`"a"`, `"b"`, `"c"`} {
		if !contains(err.Error(), n) {
			t.Fatalf("cycle error %q does not name %s", err, n)
		}
	}
}

// TestLongCycleMessage is the hostile-input table's 1,000-node parent
// cycle: the error names a few nodes at each end and how many it leaves
// out, and cuts long names, instead of a 22 KB line.
func TestLongCycleMessage(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	const n = 1000
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("node%d", i)
		if i == 1 {
			name = strings.Repeat("x", 5000)
		}
		m.Bones = append(m.Bones, bone(name, int32(i), int32((i+1)%n), 0))
	}
	_, err := New(m)
	var ce *CycleError
	if !errors.As(err, &ce) || len(ce.Nodes) != n+1 {
		t.Fatalf("got %v", err)
	}
	msg := err.Error()
	// Four names shown, each clipped to clip.MaxQuote bytes.
	if len(msg) > 4*(clip.MaxQuote+40)+100 || !strings.Contains(msg, "cycle of 1000 nodes") || !strings.Contains(msg, "... 995 more ...") ||
		!strings.Contains(msg, `"node0" (object 0) -> "xxxx`) || !strings.Contains(msg, `"node999" (object 999) -> "node0" (object 0)`) {
		t.Errorf("%d bytes: %s", len(msg), msg)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestDontInheritRotationAndScaling(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	m.Bones = []mdx.Bone{bone("root", 0, -1, 0), bone("norot", 1, 0, mdx.NodeDontInheritRotation), bone("noscale", 2, 0, mdx.NodeDontInheritScaling)}
	m.Bones[0].Rotation = constQ(rotZ(90))
	m.Bones[0].Scaling = constV(mdx.Vec3{2, 2, 2})
	m.PivotPoints = make([]mdx.Vec3, 3)
	p, _ := New(m)
	p.Update(at(0, 0), View{})
	// norot: parent rotation cancelled, scale kept: (1,0,0) → (2,0,0).
	if got := p.world[1].Point([3]float64{1, 0, 0}); !nearV(got, [3]float64{2, 0, 0}, 1e-5) {
		t.Fatalf("DontInheritRotation: %v", got)
	}
	// noscale: parent scale cancelled (axis-aligned), rotation kept: (1,0,0) → (0,1,0).
	if got := p.world[2].Point([3]float64{1, 0, 0}); !nearV(got, [3]float64{0, 1, 0}, 1e-5) {
		t.Fatalf("DontInheritScaling: %v", got)
	}
}

// A full billboard turns the node's +X towards the camera; an axis-locked
// one turns +X towards the camera only about its axis.
func TestBillboards(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	m.Bones = []mdx.Bone{bone("bb", 0, -1, mdx.NodeBillboarded), bone("lz", 1, -1, mdx.NodeBillboardedLockZ)}
	m.PivotPoints = make([]mdx.Vec3, 2)
	p, _ := New(m)
	eye := [3]float64{0, 100, 100} // from +Y, 45° up
	v := View{Rotation: LookRotation(vector(eye), fauxgl.Vector{}, fauxgl.Vector{Z: 1})}
	p.Update(at(0, 0), v)
	toEye := norm3(eye)
	if got := norm3(p.world[0].Point([3]float64{1, 0, 0})); !nearV(got, toEye, 1e-6) {
		t.Fatalf("full billboard +X = %v, want %v", got, toEye)
	}
	// +Z of a full billboard is screen up: perpendicular to the view direction.
	up := p.world[0].Point([3]float64{0, 0, 1})
	if d := up[0]*toEye[0] + up[1]*toEye[1] + up[2]*toEye[2]; !near(d, 0, 1e-6) || up[2] <= 0 {
		t.Fatalf("full billboard +Z = %v", up)
	}
	// Lock Z: +X turns to +Y (the camera's horizontal direction), stays level.
	if got := p.world[1].Point([3]float64{1, 0, 0}); !nearV(got, [3]float64{0, 1, 0}, 1e-6) {
		t.Fatalf("Z-locked +X = %v", got)
	}
}

// geometry ----------------------------------------------------------------

func skinnedModel(nv int, groupSizes []uint32) *mdx.Model {
	m := seqModel([2]uint32{0, 1000})
	nb := 0
	for _, s := range groupSizes {
		if int(s) > nb {
			nb = int(s)
		}
	}
	for i := 0; i < nb; i++ {
		m.Bones = append(m.Bones, bone("b", int32(i), -1, 0))
	}
	m.PivotPoints = make([]mdx.Vec3, nb)
	g := mdx.Geoset{}
	for v := 0; v < nv; v++ {
		g.Vertices = append(g.Vertices, mdx.Vec3{float32(v), 1, 2})
		g.Normals = append(g.Normals, mdx.Vec3{0, 0, 1})
		g.VertexGroups = append(g.VertexGroups, uint8(v%len(groupSizes)))
	}
	g.MatrixGroups = groupSizes
	for _, s := range groupSizes {
		for b := uint32(0); b < s; b++ {
			g.MatrixIndices = append(g.MatrixIndices, b)
		}
	}
	m.Geosets = []mdx.Geoset{g}
	return m
}

func TestSkinningAverage(t *testing.T) {
	for _, n := range []uint32{1, 4, 6} {
		m := skinnedModel(1, []uint32{n})
		// Bone b translates by (b+1)·(1,0,0): the average of n bones is
		// (n+1)/2 along X.
		for b := range m.Bones {
			m.Bones[b].Translation = constV(mdx.Vec3{float32(b + 1), 0, 0})
		}
		p, _ := New(m)
		p.Update(at(0, 0), View{})
		pos, _ := p.Vertices(0)
		want := float32(n+1) / 2
		if pos[0] != (mdx.Vec3{want, 1, 2}) {
			t.Fatalf("%d bones: %v, want x=%v", n, pos[0], want)
		}
	}
	// More than 8 bones: only the first 8 count.
	m := skinnedModel(1, []uint32{10})
	for b := range m.Bones {
		m.Bones[b].Translation = constV(mdx.Vec3{float32(b + 1), 0, 0})
	}
	p, _ := New(m)
	p.Update(at(0, 0), View{})
	pos, _ := p.Vertices(0)
	if pos[0][0] != 4.5 {
		t.Fatalf("10 bones: x = %v, want 4.5 (first 8)", pos[0][0])
	}
}

func TestSkinningEmptyGroupKeepsRest(t *testing.T) {
	m := skinnedModel(2, []uint32{1, 0})
	m.Bones[0].Translation = constV(mdx.Vec3{5, 0, 0})
	p, _ := New(m)
	p.Update(at(0, 0), View{})
	pos, nrm := p.Vertices(0)
	if pos[0] != (mdx.Vec3{5, 1, 2}) || pos[1] != (mdx.Vec3{1, 1, 2}) {
		t.Fatalf("positions = %v", pos)
	}
	if nrm[1] != (mdx.Vec3{0, 0, 1}) {
		t.Fatalf("normal = %v", nrm[1])
	}
}

func TestSkinningNormalsRotate(t *testing.T) {
	m := skinnedModel(1, []uint32{1})
	m.Bones[0].Rotation = constQ(rotZ(90))
	m.Geosets[0].Normals[0] = mdx.Vec3{1, 0, 0}
	p, _ := New(m)
	p.Update(at(0, 0), View{})
	_, nrm := p.Vertices(0)
	if !nearV(v64(nrm[0]), [3]float64{0, 1, 0}, 1e-6) {
		t.Fatalf("normal = %v", nrm[0])
	}
}

func TestSkinWeights(t *testing.T) {
	m := skinnedModel(1, []uint32{2})
	m.Version = 1000
	m.Bones[0].Translation = constV(mdx.Vec3{10, 0, 0})
	m.Bones[1].Translation = constV(mdx.Vec3{0, 10, 0})
	// 3/4 on bone 0, 1/4 on bone 1 (weights out of 255).
	m.Geosets[0].Skin = []byte{0, 1, 0, 0, 191, 64, 0, 0}
	p, _ := New(m)
	p.Update(at(0, 0), View{})
	pos, _ := p.Vertices(0)
	want := [3]float64{0 + 10*191.0/255, 1 + 10*64.0/255, 2}
	if !nearV(v64(pos[0]), want, 1e-4) {
		t.Fatalf("skin = %v, want %v", pos[0], want)
	}
}

func TestGeosetColor(t *testing.T) {
	m := seqModel([2]uint32{0, 100}, [2]uint32{200, 300})
	m.Geosets = []mdx.Geoset{{}, {}}
	m.GeosetAnims = []mdx.GeosetAnim{
		{Alpha: 0.1, Color: mdx.Vec3{1, 0, 0}, GeosetID: 0},
		{Alpha: 0.5, Color: mdx.Vec3{0.2, 0.4, 0.6}, GeosetID: 0}, // last one wins
		{Alpha: 1, Color: mdx.Vec3{1, 1, 1}, GeosetID: 1,
			ColorTrack: &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{{Frame: 250, Value: mdx.Vec3{0.1, 0.2, 0.3}}}}},
	}
	p, _ := New(m)
	p.Update(at(1, 250), View{})
	if got := p.GeosetColor(0); got != [4]float32{0.2, 0.4, 0.6, 0.5} {
		t.Fatalf("static GEOA = %v", got)
	}
	if got := p.GeosetColor(1); got != [4]float32{0.3, 0.2, 0.1, 1} {
		t.Fatalf("animated colour should be BGR: %v", got)
	}
	p.Update(at(0, 50), View{})
	if got := p.GeosetColor(1); got != [4]float32{1, 1, 1, 1} {
		t.Fatalf("KGAC without keys in sequence should be white: %v", got)
	}
}

func TestLayerAlphaTextureAndTransform(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	l := mdx.Layer{Alpha: 0.4, TextureID: -1, TextureIDTrack: &mdx.Track[uint32]{GlobalSeqID: -1, Interpolation: mdx.Linear,
		Keys: []mdx.Key[uint32]{{Frame: 0, Value: 2}, {Frame: 50, Value: 5}}}}
	m.TextureAnims = []mdx.TextureAnim{{Translation: constV(mdx.Vec3{0.25, 0, 0}), Rotation: constQ(rotZ(90)), Scaling: constV(mdx.Vec3{2, 2, 2})}}
	p, _ := New(m)
	p.Update(at(0, 49), View{})
	if got := p.LayerAlpha(&l); got != 0.4 {
		t.Fatalf("static alpha = %v", got)
	}
	if got := p.LayerTexture(&l); got != 2 {
		t.Fatalf("flipbook = %v", got)
	}
	l.TextureIDTrack = nil
	if got := p.LayerTexture(&l); got != 0 {
		t.Fatalf("texture id -1 → %v, want 0", got)
	}
	tt := p.TextureTransform(0)
	// (0.5,0.5)+(0.25,0) = (0.75,0.5); rotate 90° about centre → (0.5,0.75); scale 2 → (0.5,1.0).
	got := tt.Apply(mdx.Vec2{0.5, 0.5})
	if !near(float64(got[0]), 0.5, 1e-6) || !near(float64(got[1]), 1.0, 1e-6) {
		t.Fatalf("texture transform = %v", got)
	}
	id := p.TextureTransform(-1)
	if id.Apply(mdx.Vec2{0.3, 0.7}) != (mdx.Vec2{0.3, 0.7}) {
		t.Fatal("identity transform")
	}
}

func TestPortraitCamera(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	m.Cameras = []mdx.Camera{{Name: "Portrait", Position: mdx.Vec3{100, 0, 50}, TargetPosition: mdx.Vec3{0, 0, 50}, FieldOfView: 0.7,
		Translation: constV(mdx.Vec3{0, 0, 10})}}
	p, _ := New(m)
	p.Update(at(0, 0), View{})
	c := p.Camera(0)
	if vec3(c.Eye) != [3]float64{100, 0, 60} || vec3(c.Target) != [3]float64{0, 0, 50} || vec3(c.Up) != [3]float64{0, 0, 1} {
		t.Fatalf("camera = %+v", c)
	}
}

func TestUpdateAllocatesNothing(t *testing.T) {
	m := skinnedModel(500, []uint32{1, 2, 4})
	for b := range m.Bones {
		m.Bones[b].Rotation = &mdx.Track[mdx.Quat]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Quat]{
			{Frame: 0, Value: rotZ(0)}, {Frame: 1000, Value: rotZ(90)}}}
	}
	p, _ := New(m)
	f := 0.0
	allocs := testing.AllocsPerRun(20, func() {
		f += 10
		p.Update(at(0, f), View{})
	})
	if allocs != 0 {
		t.Fatalf("Update allocates %v times per frame", allocs)
	}
}

func BenchmarkPose(b *testing.B) {
	// 2,000 vertices, 40 bones in a chain, groups of 1-4 bones.
	m := seqModel([2]uint32{0, 1000})
	const nb = 40
	for i := 0; i < nb; i++ {
		bn := bone("b", int32(i), int32(i-1), 0)
		bn.Rotation = &mdx.Track[mdx.Quat]{Interpolation: mdx.Hermite, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Quat]{
			{Frame: 0, Value: rotZ(0), OutTan: rotZ(0)}, {Frame: 500, Value: rotZ(10), InTan: rotZ(10), OutTan: rotZ(10)}, {Frame: 1000, Value: rotZ(0), InTan: rotZ(0)}}}
		bn.Translation = &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{{Frame: 0}, {Frame: 1000, Value: mdx.Vec3{0, 0, 1}}}}
		m.Bones = append(m.Bones, bn)
		m.PivotPoints = append(m.PivotPoints, mdx.Vec3{0, 0, float32(i)})
	}
	g := mdx.Geoset{}
	for gi := 0; gi < 60; gi++ {
		size := uint32(gi%4 + 1)
		g.MatrixGroups = append(g.MatrixGroups, size)
		for k := uint32(0); k < size; k++ {
			g.MatrixIndices = append(g.MatrixIndices, uint32((gi+int(k))%nb))
		}
	}
	for v := 0; v < 2000; v++ {
		g.Vertices = append(g.Vertices, mdx.Vec3{float32(v % 10), float32(v % 7), float32(v % 40)})
		g.Normals = append(g.Normals, mdx.Vec3{0, 0, 1})
		g.VertexGroups = append(g.VertexGroups, uint8(v%60))
	}
	m.Geosets = []mdx.Geoset{g}
	p, err := New(m)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.Update(at(0, float64(i%1000)), View{})
	}
}

// MV applies DontInheritRotation after billboarding, and an X-locked
// billboard negates its Z scale, which then reaches the world scale.
func TestBillboardDetails(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	m.Bones = []mdx.Bone{bone("root", 0, -1, 0), bone("bb", 1, 0, mdx.NodeBillboarded|mdx.NodeDontInheritRotation), bone("lx", 2, -1, mdx.NodeBillboardedLockX)}
	m.Bones[0].Rotation = constQ(rotZ(90))
	m.PivotPoints = make([]mdx.Vec3, 3)
	p, _ := New(m)
	eye := [3]float64{100, 0, 0}
	p.Update(at(0, 0), View{Rotation: LookRotation(vector(eye), fauxgl.Vector{}, fauxgl.Vector{Z: 1})})
	// A billboard alone would turn its +X to the camera (+X). MV then
	// applies DontInheritRotation on top, conj(parent) ⊗ billboard, which
	// turns it a further −90° about Z: +X ends up on −Y.
	if got := p.world[1].Point([3]float64{1, 0, 0}); !nearV(got, [3]float64{0, -1, 0}, 1e-6) {
		t.Fatalf("billboard +X = %v, want (0,-1,0) as MV", got)
	}
	if p.wscl[2][2] != -1 {
		t.Fatalf("X-locked world scale z = %v, want -1", p.wscl[2][2])
	}
}

func TestPivotByObjectID(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	m.Bones = []mdx.Bone{bone("a", 1, -1, 0), bone("b", 0, -1, 0)}
	m.Bones[0].Rotation = constQ(rotZ(180))
	m.PivotPoints = []mdx.Vec3{{0, 0, 0}, {5, 0, 0}}
	p, _ := New(m)
	p.Update(at(0, 0), View{})
	// Node a (ObjectID 1) turns about PIVT[1] = (5,0,0): the origin goes to (10,0,0).
	if got := p.world[0].Point([3]float64{}); !nearV(got, [3]float64{10, 0, 0}, 1e-5) {
		t.Fatalf("pivot: %v", got)
	}
}

// TestTangentFrames checks the HD tangent frame: a tangent not orthogonal
// to the normal is straightened, the binormal follows the tangent's sign,
// and both turn with the vertex's bone (SKIN weights and matrix groups
// alike); without TANG there is no frame.
func TestTangentFrames(t *testing.T) {
	for _, skin := range []bool{true, false} {
		m := seqModel([2]uint32{0, 100})
		m.Version = 1000
		m.Bones = []mdx.Bone{bone("root", 0, -1, 0)}
		m.Bones[0].Rotation = constQ(rotZ(90))
		m.PivotPoints = []mdx.Vec3{{}}
		g := mdx.Geoset{
			Vertices: []mdx.Vec3{{0, 0, 0}, {1, 0, 0}},
			Normals:  []mdx.Vec3{{0, 0, 1}, {0, 0, 1}},
			Tangents: []mdx.Vec4{{2, 0, 1, 1}, {1, 0, 0, -1}},
		}
		if skin {
			g.Skin = []byte{0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0}
		} else {
			g.VertexGroups, g.MatrixGroups, g.MatrixIndices = []uint8{0, 0}, []uint32{1}, []uint32{0}
		}
		m.Geosets = []mdx.Geoset{g}
		p, err := New(m)
		if err != nil {
			t.Fatal(err)
		}
		p.Update(at(0, 10), View{})
		tan, bin, ok := p.TangentFrames(0)
		if !ok {
			t.Fatal("no tangent frame for a geoset with TANG")
		}
		// Rest: T = (1,0,0), B = N×T·w = (0,±1,0); the bone turns both
		// 90° about Z.
		want := [][2][3]float64{{{0, 1, 0}, {-1, 0, 0}}, {{0, 1, 0}, {1, 0, 0}}}
		for v := range want {
			gt := [3]float64{float64(tan[v][0]), float64(tan[v][1]), float64(tan[v][2])}
			gb := [3]float64{float64(bin[v][0]), float64(bin[v][1]), float64(bin[v][2])}
			if !nearV(gt, want[v][0], 1e-5) || !nearV(gb, want[v][1], 1e-5) {
				t.Errorf("skin %v vertex %d: tangent %v binormal %v, want %v %v", skin, v, gt, gb, want[v][0], want[v][1])
			}
		}
		m.Geosets[0].Tangents = nil
		if _, _, ok := p.TangentFrames(0); ok {
			t.Error("a tangent frame for a geoset without TANG")
		}
	}
}

// A crafted hierarchy of a thousand nodes in one parent cycle gives a
// one-line error that names a few of them, not all.
func TestCycleErrorIsBounded(t *testing.T) {
	m := seqModel([2]uint32{0, 100})
	const n = 1000
	for i := 0; i < n; i++ {
		m.Bones = append(m.Bones, bone(strings.Repeat("n", 300), int32(i), int32((i+1)%n), 0))
	}
	_, err := New(m)
	var ce *CycleError
	if !errors.As(err, &ce) || len(ce.Nodes) != n+1 {
		t.Fatalf("cycle: %v", err)
	}
	if msg := err.Error(); len(msg) > 2000 || !strings.Contains(msg, "cycle of 1000 nodes") || !strings.Contains(msg, "995 more") {
		t.Errorf("cycle message is %d bytes: %.300s", len(msg), msg)
	}
}
