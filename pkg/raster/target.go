package raster

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"sync"
	"unsafe"
)

// MaxSide is the largest target width or height. It keeps the fixed-point
// edge functions (1/256 pixel, guard band included) far from int64 overflow.
const MaxSide = 1 << 14

// Target is a framebuffer: a premultiplied float RGBA colour buffer and a
// float depth buffer, row 0 at the top. A render at k× supersampling uses a
// Target k times larger in each direction and Resolve(k, …) to shrink it.
type Target struct {
	Width, Height int
	// Color holds 4 float32 per pixel, premultiplied R, G, B, A in 0..1.
	// Additive layers can leave a colour channel above A (light added over
	// nothing); Resolve handles that. Draw leaves out fragments that would
	// change nothing here (an empty texel under a blend that adds or mixes
	// it in), so a value outside 0..1 put here by the caller may stay
	// unclamped under such a fragment.
	Color []float32
	// Depth holds GL window depth (0 near .. 1 far) per pixel.
	Depth []float32
	// DrawOnly promises that nothing but Clear and Draw writes Color and
	// Depth. Draw then keeps the box of what it may have written since
	// the last Clear, and a Clear to that Clear's colour resets only the
	// box, as does Resolve after a Clear to transparent black: a
	// picture's model covers part of it, and clearing and reading the
	// rest cost several per cent of a warm thumbnail.
	DrawOnly bool

	// drawn is that box (for a DrawOnly target) since the last Clear,
	// which was to clearC; clearOK is false until a Clear.
	drawn   image.Rectangle
	clearC  [4]float32
	clearOK bool

	// Reused between Draw calls so that steady-state frames do not allocate.
	tris []tri
	// setups lists, per batch set up this Draw, its range of tris, so a
	// later layer of the same triangles copies them (setupOf).
	setups []setupRange
	// bandTris lists the indices of the triangles that reach each
	// band's rows, in order; with oneBand set, the Draw has one band,
	// which visits every triangle, and bandTris is not filled.
	bandTris  [][]int32
	oneBand   bool
	batches   []batchInfo
	pverts    []pvert
	mips      []mipTex
	hulls     []levelHull
	sides     []hullSide
	mipLevels []mipLevel
	vecLevels []vecLevel
	// quads[:nQuads] hold the quads of this Draw's small levels.
	quads  [][]uint32
	nQuads int
	spanMu sync.Mutex
	spans  []*spanBuf
}

// NewTarget allocates a width×height target cleared to transparent black
// and depth 1.
func NewTarget(width, height int) (*Target, error) {
	if width <= 0 || height <= 0 || width > MaxSide || height > MaxSide {
		return nil, fmt.Errorf("raster: target size %dx%d out of range 1..%d", width, height, MaxSide)
	}
	t := &Target{
		Width:  width,
		Height: height,
		Color:  make([]float32, 4*width*height),
		Depth:  make([]float32, width*height),
	}
	t.Clear([4]float32{})
	return t, nil
}

// Bytes is the memory t holds: its buffers and the storage its Draw calls
// grew and keep for the next (per triangle, per vertex, per row span).
func (t *Target) Bytes() int64 {
	n := 4 * int64(cap(t.Color)+cap(t.Depth))
	n += int64(cap(t.tris))*int64(unsafe.Sizeof(tri{})) + int64(cap(t.batches))*int64(unsafe.Sizeof(batchInfo{}))
	n += int64(cap(t.pverts))*int64(unsafe.Sizeof(pvert{})) + int64(cap(t.mips))*int64(unsafe.Sizeof(mipTex{}))
	n += int64(cap(t.mipLevels)) * int64(unsafe.Sizeof(mipLevel{}))
	n += int64(cap(t.vecLevels)) * int64(unsafe.Sizeof(vecLevel{}))
	n += int64(cap(t.hulls))*int64(unsafe.Sizeof(levelHull{})) + int64(cap(t.sides))*int64(unsafe.Sizeof(hullSide{}))
	for _, q := range t.quads {
		n += 4 * int64(cap(q))
	}
	t.spanMu.Lock()
	for _, s := range t.spans {
		n += 4 * int64(s.width) * 13 // twelve float32 arrays and one int32
	}
	t.spanMu.Unlock()
	return n
}

// Clear sets every pixel to c (premultiplied RGBA) and every depth to 1.
// To match the reference viewer on a solid background, clear to that
// opaque colour: modulate layers then darken the background as GL does.
func (t *Target) Clear(c [4]float32) {
	if t.DrawOnly && t.clearOK && c == t.clearC {
		// Only the box drawn since the last Clear, which was to the same
		// colour: its first row filled, then copied to the others.
		W, r := t.Width, t.drawn.Intersect(image.Rect(0, 0, t.Width, t.Height))
		if !r.Empty() {
			y0, x0, x1 := r.Min.Y, r.Min.X, r.Max.X
			col, dep := t.Color[4*(y0*W+x0):4*(y0*W+x1)], t.Depth[y0*W+x0:y0*W+x1]
			copy(col, c[:])
			fillRepeat(col, 4)
			dep[0] = 1
			fillRepeat(dep, 1)
			for y := y0 + 1; y < r.Max.Y; y++ {
				copy(t.Color[4*(y*W+x0):4*(y*W+x1)], col)
				copy(t.Depth[y*W+x0:y*W+x1], dep)
			}
		}
		t.drawn = image.Rectangle{}
		return
	}
	if c == ([4]float32{}) {
		clear(t.Color)
	} else {
		copy(t.Color, c[:])
		fillRepeat(t.Color, 4)
	}
	t.Depth[0] = 1
	fillRepeat(t.Depth, 1)
	t.drawn, t.clearC, t.clearOK = image.Rectangle{}, c, true
}

// fillRepeat repeats s[:n] over all of s by doubling copies (memmove speed).
func fillRepeat(s []float32, n int) {
	for n < len(s) {
		n += copy(s[n:], s[:n])
	}
}

// Resolve box-filters the target down by factor k (the supersampling
// factor; 1 keeps the size) on the premultiplied floats and converts to an
// 8-bit straight-alpha image with rounding. With bg nil the background stays
// transparent: colour is un-premultiplied, so edges have no dark fringe.
// Where additive light exceeds coverage (colour above alpha), alpha is raised
// to the brightest channel, which keeps the picture exact over black. With bg
// set, the image is composited over that opaque colour and is opaque.
func (t *Target) Resolve(k int, bg *color.NRGBA) (*image.NRGBA, error) {
	if k < 1 || t.Width%k != 0 || t.Height%k != 0 {
		return nil, fmt.Errorf("raster: cannot resolve %dx%d target by factor %d", t.Width, t.Height, k)
	}
	w, h := t.Width/k, t.Height/k
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	inv := 1 / float32(k*k)
	var bgc [3]float32
	if bg != nil {
		bgc = [3]float32{float32(bg.R) / 255, float32(bg.G) / 255, float32(bg.B) / 255}
	}
	// The output pixels whose samples Draw may have written; with
	// DrawOnly after a Clear to transparent black, the others hold
	// zeros, which resolve to zeros (NewNRGBA's) or to the background.
	win := img.Rect
	if t.DrawOnly && t.clearOK && t.clearC == ([4]float32{}) {
		d := t.drawn
		win = win.Intersect(image.Rect(d.Min.X/k, d.Min.Y/k, (d.Max.X+k-1)/k, (d.Max.Y+k-1)/k))
	}
	over := func(s []float32) uint32 {
		s = s[:4]
		f := 1 - clamp01(s[3])
		return uint32(to8(s[0]+float32(f*bgc[0]))) | uint32(to8(s[1]+float32(f*bgc[1])))<<8 | uint32(to8(s[2]+float32(f*bgc[2])))<<16 | 255<<24
	}
	if bg != nil && win != img.Rect {
		outside := over(make([]float32, 4))
		for y := range h {
			if y < win.Min.Y || y >= win.Max.Y {
				fillPixels(img.Pix[y*img.Stride:][:4*w], outside)
			} else {
				fillPixels(img.Pix[y*img.Stride:][:4*win.Min.X], outside)
				fillPixels(img.Pix[y*img.Stride+4*win.Max.X:][:4*(w-win.Max.X)], outside)
			}
		}
	}
	x0, x1 := win.Min.X, win.Max.X
	// Sum each output pixel's k×k samples, row by row and left to right
	// within a row, in locals: through a slice the compiler would store and
	// reload the sums after every sample.
	var sums []float32
	// A Color that is not 8-byte aligned (a caller's own slice) is read
	// through a copy, for the 64-bit view below.
	direct := k == 1 && uintptr(unsafe.Pointer(unsafe.SliceData(t.Color)))%8 == 0
	if !direct {
		sums = make([]float32, 4*w)
	}
	stride := 4 * t.Width
	for y := win.Min.Y; y < win.Max.Y; y++ {
		if direct {
			sums = t.Color[y*stride : (y+1)*stride]
		} else if k == 1 {
			copy(sums[4*x0:4*x1], t.Color[y*stride+4*x0:y*stride+4*x1])
		} else {
			block := t.Color[y*k*stride : (y+1)*k*stride]
			for x := x0; x < x1; x++ {
				var s0, s1, s2, s3 float32
				for sy := 0; sy < k; sy++ {
					for in := block[sy*stride+4*k*x : sy*stride+4*k*(x+1)]; len(in) >= 4; in = in[4:] {
						s0 += in[0]
						s1 += in[1]
						s2 += in[2]
						s3 += in[3]
					}
				}
				o := sums[4*x : 4*x+4 : 4*x+4]
				o[0], o[1], o[2], o[3] = s0*inv, s1*inv, s2*inv, s3*inv
			}
		}
		pix := img.Pix[y*img.Stride : y*img.Stride+4*w]
		// The row's pixels as pairs of 64-bit words, to compare and test
		// them as bits: a few integer instructions where the float
		// comparisons cost dozens.
		bits := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(sums))), 2*w)
		if bg != nil {
			// Most of a thumbnail is runs of one colour (the background,
			// cleared into the target or not drawn over at all): a pixel
			// with the bits of the last one composites to the same bytes.
			for x := x0; x < x1; {
				c := over(sums[4*x:])
				b0, b1 := bits[2*x], bits[2*x+1]
				for {
					binary.LittleEndian.PutUint32(pix[4*x:], c)
					x++
					if x == x1 || bits[2*x] != b0 || bits[2*x+1] != b1 {
						break
					}
				}
			}
			continue
		}
		xv := x0
		if haveVec && x1-x0 >= 2 {
			xv = x0 + (x1-x0)&^1
			resolveStraight(&sums[4*x0], &pix[4*x0], xv-x0)
		}
		for x := xv; x < x1; x++ {
			// Most pixels of a thumbnail were never drawn: all four
			// floats +0, which the test below also skips.
			if bits[2*x]|bits[2*x+1] == 0 {
				continue
			}
			s := sums[4*x : 4*x+4 : 4*x+4]
			a := s[3]
			if s[0] > a {
				a = s[0]
			}
			if s[1] > a {
				a = s[1]
			}
			if s[2] > a {
				a = s[2]
			}
			if !(a > 0) {
				continue // transparent black: NewNRGBA's zeros
			}
			p := pix[4*x : 4*x+4 : 4*x+4]
			ia := 1 / a
			p[0], p[1], p[2], p[3] = to8(s[0]*ia), to8(s[1]*ia), to8(s[2]*ia), to8(a)
		}
	}
	return img, nil
}

// fillPixels sets every four bytes of p to the pixel c.
func fillPixels(p []byte, c uint32) {
	for ; len(p) >= 4; p = p[4:] {
		binary.LittleEndian.PutUint32(p, c)
	}
}

// clamp01 also maps NaN to 0, so a degenerate input cannot reach a uint8
// conversion with an undefined value.
func clamp01(v float32) float32 {
	if !(v >= 0) {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

func to8(v float32) uint8 { return uint8(float32(clamp01(v)*255) + 0.5) }
