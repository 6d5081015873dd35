package raster

import (
	"math"
	"testing"

	"github.com/fogleman/fauxgl"
)

// constSampler is a w×h texture of one colour.
type constSampler struct {
	c    [4]float32
	w, h int
}

func (s constSampler) Width() int                          { return s.w }
func (s constSampler) Height() int                         { return s.h }
func (s constSampler) Sample(u, v, lod float32) [4]float32 { return s.c }

// uvSampler returns the coordinates it is asked for as colour, so a test can
// read back the interpolated UV; blue carries lod/16+0.5.
type uvSampler struct{ w, h int }

func (s uvSampler) Width() int  { return s.w }
func (s uvSampler) Height() int { return s.h }
func (s uvSampler) Sample(u, v, lod float32) [4]float32 {
	return [4]float32{u, v, float32(lod/16) + 0.5, 1}
}

// ndc makes a vertex at normalised device coordinates (w = 1).
func ndc(x, y, z float32) Vertex { return Vertex{Position: [4]float32{x, y, z, 1}} }

// fullQuad covers the whole target at depth z, front-facing (CCW in NDC).
func fullQuad(z float32) ([]Vertex, []uint32) {
	return []Vertex{ndc(-1, -1, z), ndc(1, -1, z), ndc(1, 1, z), ndc(-1, 1, z)}, []uint32{0, 1, 2, 0, 2, 3}
}

// Test states, named for the blend they exercise. Tests add lighting and
// culling changes with lit and twoSided.
var (
	replace    = State{Blend: BlendReplace, DepthTest: true, DepthWrite: true}
	cutout     = State{Blend: BlendReplace, DepthTest: true, DepthWrite: true, AlphaTest: true, AlphaRef: 0.75}
	over       = State{Blend: BlendOver, DepthTest: true}
	add        = State{Blend: BlendAdd, DepthTest: true}
	modulate   = State{Blend: BlendModulate, DepthTest: true, AlphaTest: true, AlphaRef: 0.02}
	modulate2x = State{Blend: BlendModulate2x, DepthTest: true, AlphaTest: true, AlphaRef: 0.02}
)

// lit turns on lighting with a 0.7 ambient term, the value renderers of
// Warcraft III models use.
func lit(s State) State { s.Lit, s.Ambient = true, 0.7; return s }

func twoSided(s State) State { s.Cull = CullNone; return s }

// randomState picks one of the test states by n, for random scenes.
func randomState(n int, twoSide, shade bool) State {
	s := []State{replace, cutout, over, add, add, modulate, modulate2x}[n%7]
	if twoSide {
		s = twoSided(s)
	}
	if shade {
		s = lit(s)
	}
	return s
}

func newTarget(t testing.TB, w, h int) *Target {
	t.Helper()
	tg, err := NewTarget(w, h)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func draw(t testing.TB, tg *Target, bs ...Batch) {
	t.Helper()
	if err := tg.Draw(bs, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
}

func pixel(tg *Target, x, y int) [4]float32 {
	i := (y*tg.Width + x) * 4
	return [4]float32{tg.Color[i], tg.Color[i+1], tg.Color[i+2], tg.Color[i+3]}
}

func near(a, b [4]float32, tol float32) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > float64(tol) {
			return false
		}
	}
	return true
}

// imageSampler is a small bilinear, repeating texture (no mip levels), a
// stand-in for pkg/texture in benchmarks and golden images.
type imageSampler struct {
	w, h  int
	pix   [][4]float32
	clamp bool // clamp to edge instead of repeating
}

func (s *imageSampler) Width() int  { return s.w }
func (s *imageSampler) Height() int { return s.h }

func (s *imageSampler) Sample(u, v, lod float32) [4]float32 {
	x := u*float32(s.w) - 0.5
	y := v*float32(s.h) - 0.5
	fx, fy := float32(math.Floor(float64(x))), float32(math.Floor(float64(y)))
	ax, ay := x-fx, y-fy
	x0, y0 := int(fx), int(fy)
	wrap := func(i, n int) int {
		if s.clamp {
			return min(max(i, 0), n-1)
		}
		i %= n
		if i < 0 {
			i += n
		}
		return i
	}
	x0, x1 := wrap(x0, s.w), wrap(x0+1, s.w)
	y0, y1 := wrap(y0, s.h), wrap(y0+1, s.h)
	p00, p10 := s.pix[y0*s.w+x0], s.pix[y0*s.w+x1]
	p01, p11 := s.pix[y1*s.w+x0], s.pix[y1*s.w+x1]
	var out [4]float32
	for c := 0; c < 4; c++ {
		top := p00[c] + float32((p10[c]-p00[c])*ax)
		bot := p01[c] + float32((p11[c]-p01[c])*ax)
		out[c] = top + float32((bot-top)*ay)
	}
	return out
}

// checker is an n×n texture of cells×cells squares in two colours, with a
// transparent hole in one cell to exercise alpha.
func checker(n, cells int, a, b [4]float32) *imageSampler {
	s := &imageSampler{w: n, h: n, pix: make([][4]float32, n*n)}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			cx, cy := x*cells/n, y*cells/n
			c := a
			if (cx+cy)%2 == 1 {
				c = b
			}
			s.pix[y*n+x] = c
		}
	}
	return s
}

// mipChecker is checker as a repeating raster.Texture of 8-bit texels
// with a full mip chain (2×2 box filter), as the renderer's textures are.
func mipChecker(n, cells int, a, b [4]float32) *Texture {
	src := checker(n, cells, a, b)
	t := &Texture{W: n, H: n, RepeatU: true, RepeatV: true}
	l := Level{Width: n, Height: n, Stride: 4 * n, Pix: make([]uint8, 4*n*n)}
	for i, c := range src.pix {
		for k := range 4 {
			l.Pix[4*i+k] = uint8(float32(c[k]*255) + 0.5)
		}
	}
	t.Levels = append(t.Levels, l)
	for l.Width > 1 || l.Height > 1 {
		nw, nh := max(l.Width/2, 1), max(l.Height/2, 1)
		next := Level{Width: nw, Height: nh, Stride: 4 * nw, Pix: make([]uint8, 4*nw*nh)}
		for y := range nh {
			for x := range nw {
				for k := range 4 {
					sum := 0
					for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
						sx, sy := min(2*x+d[0], l.Width-1), min(2*y+d[1], l.Height-1)
						sum += int(l.Pix[sy*l.Stride+4*sx+k])
					}
					next.Pix[y*next.Stride+4*x+k] = uint8((sum + 2) / 4)
				}
			}
		}
		t.Levels = append(t.Levels, next)
		l = next
	}
	return t
}

// mesh is a world-space triangle mesh.
type mesh struct {
	pos, normal [][3]float32
	uv          [][2]float32
	idx         []uint32
}

// sphere is a UV sphere with the given stacks and slices, outward CCW faces.
func sphere(center [3]float32, r float32, stacks, slices int) mesh {
	var m mesh
	for i := 0; i <= stacks; i++ {
		th := math.Pi * float64(i) / float64(stacks)
		for j := 0; j <= slices; j++ {
			ph := 2 * math.Pi * float64(j) / float64(slices)
			n := [3]float32{float32(math.Sin(th) * math.Cos(ph)), float32(math.Sin(th) * math.Sin(ph)), float32(math.Cos(th))}
			m.normal = append(m.normal, n)
			m.pos = append(m.pos, [3]float32{center[0] + r*n[0], center[1] + r*n[1], center[2] + r*n[2]})
			m.uv = append(m.uv, [2]float32{float32(j) / float32(slices), float32(i) / float32(stacks)})
		}
	}
	row := uint32(slices + 1)
	for i := 0; i < stacks; i++ {
		for j := 0; j < slices; j++ {
			a := uint32(i)*row + uint32(j)
			b, c, d := a+row, a+row+1, a+1
			if i != 0 {
				m.idx = append(m.idx, a, b, d)
			}
			if i != stacks-1 {
				m.idx = append(m.idx, d, b, c)
			}
		}
	}
	return m
}

// project turns a world mesh into clip-space vertices for a camera, with
// the reference viewer's light at (0, 0, 10000).
func (m mesh) project(vp fauxgl.Matrix, dst []Vertex) []Vertex {
	dst = dst[:0]
	for i, p := range m.pos {
		c := vp.MulPositionW(fauxgl.Vector{X: float64(p[0]), Y: float64(p[1]), Z: float64(p[2])})
		dst = append(dst, Vertex{
			Position: [4]float32{float32(c.X), float32(c.Y), float32(c.Z), float32(c.W)},
			UV:       m.uv[i],
			Normal:   m.normal[i],
			Light:    LightDir(p, [3]float32{0, 0, 10000}),
		})
	}
	return dst
}
