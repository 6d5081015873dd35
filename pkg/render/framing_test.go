package render

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fogleman/fauxgl"
	"github.com/mdxrender/mdxrender/internal/testshared"
)

type peerCamera struct {
	Fit string `json:"fit"`
	Box struct {
		Min, Max [3]float64
	} `json:"box"`
	Target     [3]float64 `json:"target"`
	Distance   float64    `json:"distance"`
	Mode       string     `json:"distance_mode"`
	Yaw        float64    `json:"yaw"`
	Pitch      float64    `json:"pitch"`
	Eye        [3]float64 `json:"eye"`
	Fov        float64    `json:"fov"`
	Near       float64    `json:"near"`
	Far        float64    `json:"far"`
	Ortho      bool       `json:"ortho"`
	View       []float64  `json:"view_matrix"`
	Projection []float64  `json:"projection_matrix"`
}

// colMajor flattens a fauxgl matrix the way gl-matrix stores it.
func colMajor(m fauxgl.Matrix) [16]float64 {
	return [16]float64{
		m.X00, m.X10, m.X20, m.X30,
		m.X01, m.X11, m.X21, m.X31,
		m.X02, m.X12, m.X22, m.X32,
		m.X03, m.X13, m.X23, m.X33,
	}
}

func closeTo(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(1, math.Abs(want))
}

// TestFramingMatchesPeer rebuilds the camera of every peer-harness record
// that carries one (the fit box is recorded) and compares target, eye,
// distance, near, far and both matrices with what the reference viewer used.
func TestFramingMatchesPeer(t *testing.T) {
	shared := testshared.Dir(t, "reference/peer/jobs.tsv")
	files := []string{
		filepath.Join(shared, "tools", "peer", "fixtures", "reference.jsonl"),
		filepath.Join(shared, "reference", "peer-particles", "jobs.jsonl"),
	}
	checked := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Logf("skipping %s: %v", file, err)
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		line := 0
		for sc.Scan() {
			line++
			var rec struct {
				Camera *peerCamera `json:"camera"`
				Size   []int       `json:"size"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatalf("%s:%d: %v", file, line, err)
			}
			c := rec.Camera
			if c == nil {
				continue
			}
			if c.Mode != "auto" {
				t.Fatalf("%s:%d: distance mode %q not handled by this test", file, line, c.Mode)
			}
			box := fauxgl.Box{Min: fauxgl.V(c.Box.Min[0], c.Box.Min[1], c.Box.Min[2]), Max: fauxgl.V(c.Box.Max[0], c.Box.Max[1], c.Box.Max[2])}
			cam, err := framing{box: box, yaw: c.Yaw, pitch: c.Pitch, fov: c.Fov, ortho: c.Ortho}.camera()
			if err != nil {
				t.Fatalf("%s:%d: %v", file, line, err)
			}
			aspect := c.Projection[5] / c.Projection[0]
			if len(rec.Size) == 2 {
				aspect = float64(rec.Size[0]) / float64(rec.Size[1])
			}
			where := file + ":" + strconv.Itoa(line)
			// Scalars are recorded rounded to 4 decimals.
			for _, p := range []struct {
				name      string
				got, want float64
			}{
				{"distance", cam.Eye.Sub(cam.Target).Length(), c.Distance},
				{"near", cam.Near, c.Near}, {"far", cam.Far, c.Far},
				{"target.x", cam.Target.X, c.Target[0]}, {"target.y", cam.Target.Y, c.Target[1]}, {"target.z", cam.Target.Z, c.Target[2]},
				{"eye.x", cam.Eye.X, c.Eye[0]}, {"eye.y", cam.Eye.Y, c.Eye[1]}, {"eye.z", cam.Eye.Z, c.Eye[2]},
			} {
				if math.Abs(p.got-p.want) > 6e-4*math.Max(1, math.Abs(p.want)*1e-3) {
					t.Errorf("%s: %s = %.6f, peer %.6f", where, p.name, p.got, p.want)
				}
			}
			// Matrices are recorded to about 6 decimals or 7 significant
			// digits, and the viewer computes them in float32: the view
			// translation, a difference of products of the eye position, is
			// off by a few float32 ulps of |eye|.
			slack := 2e-7 * cam.Eye.Length()
			view, proj := colMajor(cam.View()), colMajor(cam.Projection(aspect))
			for name, pair := range map[string][2][]float64{
				"view":       {view[:], c.View},
				"projection": {proj[:], c.Projection},
			} {
				for i := range pair[1] {
					if !closeTo(pair[0][i], pair[1][i], 2e-5) && math.Abs(pair[0][i]-pair[1][i]) > slack {
						t.Errorf("%s: %s[%d] = %.7f, peer %.7f", where, name, i, pair[0][i], pair[1][i])
					}
				}
			}
			checked++
		}
		f.Close()
	}
	if checked == 0 {
		t.Skip("no peer camera records found")
	}
	t.Logf("%d peer cameras matched", checked)
}

// TestPeerJobsConvention checks the auto-distance and clip-plane rules
// against every row of reference/peer/jobs.tsv, which records distance,
// near and far (but not the box): R follows from far, and then d and near
// must follow from R.
func TestPeerJobsConvention(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testshared.Dir(t, "reference/peer/jobs.tsv"), "reference", "peer", "jobs.tsv"))
	if err != nil {
		t.Skip(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], "\t") {
		col[h] = i
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		num := func(name string) float64 {
			v, err := strconv.ParseFloat(f[col[name]], 64)
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			return v
		}
		d, near, far, fov := num("distance"), num("near"), num("far"), num("fov")
		r := (far - d - 10) / 4
		tgt := strings.Split(f[col["target"]], ",")
		x, _ := strconv.ParseFloat(tgt[0], 64)
		y, _ := strconv.ParseFloat(tgt[1], 64)
		z, _ := strconv.ParseFloat(tgt[2], 64)
		// A box with that radius around the recorded target.
		h := r / math.Sqrt(3)
		cam, err := framing{box: fauxgl.Box{Min: fauxgl.V(x-h, y-h, z-h), Max: fauxgl.V(x+h, y+h, z+h)}, yaw: num("yaw"), pitch: num("pitch"), fov: fov}.camera()
		if err != nil {
			t.Fatal(err)
		}
		if got := cam.Eye.Sub(cam.Target).Length(); math.Abs(got-d) > 1e-3*math.Max(1, d*1e-2) {
			t.Errorf("%s: distance %.4f, peer %.4f", f[0], got, d)
		}
		if math.Abs(cam.Near-near) > 1e-3 || math.Abs(cam.Far-far) > 2e-3 {
			t.Errorf("%s: near/far %.4f/%.4f, peer %.4f/%.4f", f[0], cam.Near, cam.Far, near, far)
		}
	}
}

func TestFramingBasics(t *testing.T) {
	box := fauxgl.Box{Min: fauxgl.V(-34, -34, 0), Max: fauxgl.V(34, 34, 120)}
	cam, err := framing{box: box}.camera()
	if err != nil {
		t.Fatal(err)
	}
	// Yaw 0, pitch 0: on +X at the box centre's height, looking at the front.
	if cam.Eye.Y != 0 || cam.Eye.Z != 60 || cam.Eye.X < 200 {
		t.Errorf("eye %v", cam.Eye)
	}
	// +Y appears on screen right: project a point on +Y.
	p := cam.ViewProjection(1).MulPositionW(fauxgl.V(0, 30, 60))
	if p.X/p.W <= 0 || math.Abs(p.Y/p.W) > 1e-9 {
		t.Errorf("+Y projects to %v, want screen right", p)
	}
	// The whole bounding sphere fits: every box corner is inside the frustum.
	vp := cam.ViewProjection(1)
	for _, c := range []fauxgl.Vector{box.Min, box.Max, fauxgl.V(-34, 34, 120), fauxgl.V(34, -34, 0)} {
		q := vp.MulPositionW(c)
		if q.Outside() {
			t.Errorf("corner %v outside the view", c)
		}
	}
	target := fauxgl.V(1, 2, 3)
	cam, _ = framing{box: box, distance: 100, target: &target, near: 5, far: 50, pitch: 95, ortho: true}.camera()
	if cam.Target != target || cam.Near != 5 || cam.Far != 50 || math.Abs(cam.Eye.Sub(target).Length()-100) > 1e-9 {
		t.Errorf("overrides ignored: %+v", cam)
	}
	if math.Abs(cam.Eye.Z-target.Z-100*math.Sin(89.9*math.Pi/180)) > 1e-9 {
		t.Errorf("pitch not clamped to 89.9: eye %v", cam.Eye)
	}
	if cam.OrthoHalfHeight != 1.1*box.Max.Sub(box.Min).Length()/2 {
		t.Errorf("ortho half height %v", cam.OrthoHalfHeight)
	}
	if got := cam.Projection(2).X00; math.Abs(got-1/(2*cam.OrthoHalfHeight)) > 1e-12 {
		t.Errorf("ortho projection x scale %v", got)
	}
	for _, bad := range []framing{
		{box: fauxgl.Box{}},
		{box: fauxgl.Box{Min: fauxgl.V(1, 0, 0), Max: fauxgl.V(0, 1, 1)}},
		{box: fauxgl.Box{Min: fauxgl.V(math.NaN(), 0, 0), Max: fauxgl.V(1, 1, 1)}},
		{box: box, fov: 180},
		{box: box, distance: -1},
		{box: box, near: 10, far: 5},
	} {
		if _, err := bad.camera(); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
	if !degenerateBox(fauxgl.Box{}) || degenerateBox(defaultFitBox) {
		t.Error("degenerateBox")
	}
}

// The automatic camera fits the projected silhouette exactly: a box seen
// from any direction spans the fill share of the picture's limiting side,
// centred, for perspective and orthographic projections and any aspect;
// margin and zoom scale it.
func TestSilhouetteFit(t *testing.T) {
	corners := func(lo, hi fauxgl.Vector) (out [][3]float32) {
		for i := range 8 {
			c := lo
			if i&1 != 0 {
				c.X = hi.X
			}
			if i&2 != 0 {
				c.Y = hi.Y
			}
			if i&4 != 0 {
				c.Z = hi.Z
			}
			out = append(out, [3]float32{float32(c.X), float32(c.Y), float32(c.Z)})
		}
		return out
	}
	pts := corners(fauxgl.V(-20, -35, 0), fauxgl.V(30, 35, 140))
	for _, tc := range []struct {
		v    View
		fill float64
	}{
		{View{Width: 100, Height: 100}, 0.9},
		{View{Width: 160, Height: 90, Yaw: 40, Pitch: 30}, 0.9},
		{View{Width: 90, Height: 160, Yaw: -70, Pitch: -10, Margin: 0.2}, 0.6},
		{View{Width: 100, Height: 100, Margin: NoMargin, Zoom: 0.5}, 0.5},
		{View{Width: 120, Height: 100, Yaw: 200, Pitch: 60, Ortho: true}, 0.9},
	} {
		dir := orbitDir(tc.v.Yaw, tc.v.Pitch)
		s := newSilhouette(&tc.v)
		for _, p := range pts {
			s.add(dir, p)
		}
		f, ok := s.solve(&tc.v)
		if !ok {
			t.Fatalf("%+v: no fit", tc.v)
		}
		cam := f.camera(dir)
		vp := cam.ViewProjection(float64(tc.v.Width) / float64(tc.v.Height))
		lo, hi := [2]float64{9, 9}, [2]float64{-9, -9}
		for _, p := range pts {
			q := vp.MulPositionW(fauxgl.V(float64(p[0]), float64(p[1]), float64(p[2])))
			if q.W <= 0 || q.Z/q.W < -1 || q.Z/q.W > 1 {
				t.Errorf("%+v: corner %v clipped by the near or far plane", tc.v, p)
			}
			for k, c := range [2]float64{q.X / q.W, q.Y / q.W} {
				lo[k], hi[k] = min(lo[k], c), max(hi[k], c)
			}
		}
		// The limiting axis spans exactly the fill share; the other at most.
		spanX, spanY := (hi[0]-lo[0])/2, (hi[1]-lo[1])/2
		if got := max(spanX, spanY); math.Abs(got-tc.fill) > 1e-6 {
			t.Errorf("%+v: silhouette spans %.6f of the picture, want %.2f", tc.v, got, tc.fill)
		}
		if spanX > tc.fill+1e-6 || spanY > tc.fill+1e-6 {
			t.Errorf("%+v: spans %.4f x %.4f, more than %.2f", tc.v, spanX, spanY, tc.fill)
		}
		// The limiting axis is centred exactly; the other one balances the
		// room left on each side in depth, not in the picture, which in
		// perspective is off centre by a little.
		for k, slack := range [2]float64{1e-6, 1e-6} {
			if (k == 0) != (spanX > spanY) {
				slack = 0.03
			}
			if math.Abs(lo[k]+hi[k]) > slack {
				t.Errorf("%+v: not centred: x %.4f..%.4f y %.4f..%.4f", tc.v, lo[0], hi[0], lo[1], hi[1])
			}
		}
	}

	// Several yaws share one target and distance, and every one keeps the
	// silhouette inside the fill share.
	v := View{Width: 64, Height: 64, Pitch: 25}
	s := newSilhouette(&v)
	yaws := []float64{0, 45, 90, 135, 180, 225, 270, 315}
	for _, y := range yaws {
		for _, p := range pts {
			s.add(orbitDir(y, v.Pitch), p)
		}
	}
	f, ok := s.solve(&v)
	if !ok {
		t.Fatal("no shared fit")
	}
	widest := 0.0
	for _, y := range yaws {
		vp := f.camera(orbitDir(y, v.Pitch)).ViewProjection(1)
		for _, p := range pts {
			q := vp.MulPositionW(fauxgl.V(float64(p[0]), float64(p[1]), float64(p[2])))
			e := max(math.Abs(q.X/q.W), math.Abs(q.Y/q.W))
			widest = max(widest, e)
		}
	}
	if widest > 0.9+1e-6 || widest < 0.85 {
		t.Errorf("shared fit: the widest frame reaches %.4f of the half-picture, want 0.85 to 0.9", widest)
	}

	// Nothing to fit.
	if _, ok := newSilhouette(&View{Width: 8, Height: 8}).solve(&View{Width: 8, Height: 8}); ok {
		t.Error("fitted nothing")
	}
}

func TestMarginAndZoomChecked(t *testing.T) {
	m := cubeModel()
	for _, v := range []View{{Margin: 0.5}, {Margin: math.NaN()}, {Zoom: -1}, {Zoom: math.Inf(1)}} {
		if _, _, err := NewAnimator(m, "cube", Textures{}).Render(v); err == nil {
			t.Errorf("%+v accepted", v)
		}
	}
}
