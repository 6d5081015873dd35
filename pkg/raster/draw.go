package raster

import (
	"context"
	"fmt"
	"image"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Sampler is a texture as the rasteriser sees it. pkg/texture is expected to
// satisfy it. Implementations must be safe for concurrent use (several band
// workers sample the same texture at once) and must not keep per-call state.
type Sampler interface {
	// Width and Height are the size of mip level 0 in texels. The
	// rasteriser uses them to turn screen-space UV derivatives into a level
	// of detail. (*texture.Texture has exactly this method set.)
	Width() int
	Height() int
	// Sample returns the filtered texel at (u, v) as STRAIGHT (not
	// premultiplied) RGBA in 0..1. (0, 0) is the first (top) row of the
	// image, with no V flip (docs/rendering.md#conventions); wrapping or clamping is the
	// sampler's business. lod is GL's λ: log2 of the pixel footprint in
	// level-0 texels, already including any bias; λ ≤ 0 means magnification.
	Sample(u, v, lod float32) [4]float32
}

// Vertex is one vertex of a batch, already transformed to clip space.
type Vertex struct {
	// Position is the homogeneous clip-space position (projection · view ·
	// world · p), OpenGL conventions: visible when −w ≤ x, y, z ≤ w.
	Position [4]float32
	// UV is the texture coordinate after texture animation.
	UV [2]float32
	// Normal is the world-space normal and Light the unit vector from the
	// world-space vertex to the light (see LightDir). Both are interpolated
	// and dotted per fragment without renormalising, as the reference
	// viewer's shader does. Only read when the batch's State.Lit is set.
	Normal, Light [3]float32
	// Color is a straight RGBA multiplier, read only when Batch.VertexColor
	// is set (particles, ribbons).
	Color [4]float32
}

// Batch is one draw call: one geoset layer, or one set of emitter quads.
type Batch struct {
	State State
	// Texture may be nil, which samples as opaque white.
	Texture Sampler
	// Shader, when set, computes every fragment's colour in place of the
	// fixed rule (Texture, Color, VertexColor and State.Lit then only
	// reach it through the Fragment); the State's alpha test, blend, depth
	// and culling still apply.
	Shader Shader
	// Color multiplies every fragment: geoset colour and alpha times layer
	// alpha, straight RGBA. Use {1, 1, 1, 1} for "no tint".
	Color [4]float32
	// VertexColor enables the per-vertex Vertex.Color multiplier.
	VertexColor bool
	Vertices    []Vertex
	// Indices lists triangles, three indices each, into Vertices.
	Indices []uint32
}

// DrawOptions tunes Draw; the zero value is a good default. No option
// changes the output bytes except LODBias and a MaxFragments that is
// reached.
type DrawOptions struct {
	// Workers is the number of band workers; 0 means GOMAXPROCS.
	Workers int
	// LODBias is added to every level of detail. Supersampling at k× makes
	// the rasteriser pick mip levels log2(k) sharper than a 1× render; a
	// bias of log2(k) mimics the 1× reference's texture blur instead.
	LODBias float32
	// MaxFragments bounds the work of one Draw: the fragments its
	// triangles cover on the target, estimated from each triangle's area
	// (at most its on-screen bounding box) after clipping and culling,
	// before any is drawn. The triangles past the bound, in submission
	// order, are left out, and DrawStats says how many. 0 means no bound.
	MaxFragments int64
}

// LightDir is the unit vector from a world-space position to a point light,
// for Vertex.Light.
func LightDir(pos, light [3]float32) [3]float32 {
	d := [3]float64{float64(light[0] - pos[0]), float64(light[1] - pos[1]), float64(light[2] - pos[2])}
	n := math.Sqrt(float64(d[0]*d[0]) + float64(d[1]*d[1]) + float64(d[2]*d[2]))
	if n == 0 {
		return [3]float32{0, 0, 1}
	}
	return [3]float32{float32(d[0] / n), float32(d[1] / n), float32(d[2] / n)}
}

const (
	subBits = 8 // fixed-point sub-pixel precision, as GPUs snap vertices
	subOne  = 1 << subBits
	// guardBand widens the x/y clip planes to ±guardBand·w: triangles only
	// partly off-screen are rasterised without clipping, while clipped
	// coordinates stay small enough for exact int64 edge functions.
	guardBand = 2.0
	maxPoly   = 3 + 6 // a triangle clipped by 6 planes
	nAttr     = 12    // u v | r g b a | nx ny nz | lx ly lz
)

type edge struct {
	a, b, c int64 // E(px, py) = a·px + b·py + c over fixed-point sample positions
	bias    int64 // 0 on top and left edges, −1 otherwise (top-left fill rule)
}

// tri is a clipped, projected, set-up screen triangle, ordered so that the
// inside has all edge functions ≥ 0. setupTri sets every field: it reuses
// the slots of the last Draw without clearing them.
type tri struct {
	// Bounding box first: band workers scan it for every triangle.
	minX, minY, maxX, maxY int32
	batch                  int32
	invArea                float32
	e                      [3]edge
	z, q                   [3]float32 // window depth and 1/w per vertex
	attr                   [3][nAttr]float32
	// Screen-space gradients per pixel of 1/w, u/w and v/w, for the LOD.
	dq, du, dv [2]float32
	// cover is the triangle's coverage estimate (budget.go), worked out
	// once here: a shared set-up copies it with the rest.
	cover float64
	// hull is −1 when no fragment of the triangle can change the picture,
	// else 1 + the index in Target.sides of the first of the nHull sides
	// that cut its rows (hull.go), or 0.
	hull  int32
	nHull uint8
	// big is set for a triangle whose bounding box has hullArea pixels
	// or more: its texture's hull may cut it (hull.go).
	big bool
}

type batchInfo struct {
	st          State
	tex         Sampler
	texW, texH  float32
	color       [4]float32
	vertexColor bool
	shader      Shader
	// lazy: tex or shader prepares its levels per Draw (LazySampler,
	// LazyShader); rho2 is the batch's LODBound so far (left at +Inf,
	// read as no bound, for a settled tex: SettledSampler), drawn whether
	// a triangle was set up.
	lazy    bool
	settled bool
	drawn   bool
	rho2    float64
	// mip is 1 + the index in Target.mips of tex prepared for the
	// fragment loop, when it is a *Texture; 0 otherwise.
	mip int32
	// hull is 1 + the index in Target.hulls of the octagons of tex's
	// level 0 when its large triangles are cut to them (hull.go), −1 when
	// they cannot be, 0 before prepareHulls looks; hullRule says what
	// empties a fragment.
	hull     int32
	hullRule uint8
	// big counts the triangles set up whose bounding box has hullArea
	// pixels or more.
	big int32
}

type cvert struct {
	p [4]float64
	a [nAttr]float32
}

// Draw rasterises the batches, in order, into the target. Every pixel sees
// the triangles in submission order (batch by batch, index order within a
// batch), whatever the number of workers, so the output is deterministic.
// The vertex and index slices are only read, and only during the call. It
// returns an error, drawing nothing, if an index is out of range or a
// *Texture's level is too short for its size. A Target
// is not safe for concurrent Draw calls; render frames in parallel with one
// Target each. It is DrawContext without a context, ignoring the stats.
func (t *Target) Draw(batches []Batch, opt DrawOptions) error {
	_, err := t.DrawContext(context.Background(), batches, opt)
	return err
}

// DrawContext is Draw stopped when ctx is done: it returns ctx's error
// within a few dozen triangles of each band, leaving the target partly
// drawn. It also applies opt.MaxFragments and says what was drawn.
func (t *Target) DrawContext(ctx context.Context, batches []Batch, opt DrawOptions) (DrawStats, error) {
	var st DrawStats
	if err := ctx.Err(); err != nil {
		return st, err
	}
	// The last index slice checked and its vertex count: a material's
	// layers share their indices, and need checking once.
	var checked []uint32
	var checkedN uint32
	for bi := range batches {
		b := &batches[bi]
		n := uint32(len(b.Vertices))
		idx := b.Indices[:len(b.Indices)/3*3]
		if len(idx) > 0 && (len(idx) != len(checked) || &idx[0] != &checked[0] || n < checkedN) {
			for i, ix := range idx {
				if ix >= n {
					return st, fmt.Errorf("raster: batch %d: index %d at position %d out of range (%d vertices)", bi, ix, i, n)
				}
			}
			checked, checkedN = idx, n
		}
		if tex, ok := b.Texture.(*Texture); ok {
			if err := tex.check(); err != nil {
				return st, fmt.Errorf("raster: batch %d: %w", bi, err)
			}
		}
	}
	t.setup(batches)
	// Do not keep the caller's textures and slices reachable after the
	// call.
	defer clear(t.setups)
	defer clear(t.batches)
	defer clear(t.mipLevels)
	defer clear(t.vecLevels)
	st = t.budget(opt.MaxFragments)
	if st.SkippedTriangles > 0 {
		t.rebound()
	}
	if err := ctx.Err(); err != nil {
		return st, err
	}
	// Lazy samplers decode their levels here, for the triangles the
	// budget kept only, and not at all once ctx is done.
	t.prepare(opt.LODBias)
	if err := ctx.Err(); err != nil {
		return st, err
	}
	if len(t.tris) == 0 {
		return st, nil
	}
	t.startDrawn()
	defer t.endDrawn()
	// stop is set once ctx is done; band workers poll it between
	// triangles, which costs an atomic load instead of ctx.Err's lock. A
	// context that is never done costs nothing (no allocation). Each Draw
	// has its own flag, so a late callback cannot stop a later Draw.
	stop := &neverStop
	if ctx.Done() != nil {
		stop = new(atomic.Bool)
		defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	bandH := bandHeight(t.Width, t.Height, workers)
	nBands := (t.Height + bandH - 1) / bandH
	workers = min(workers, nBands)
	t.binBands(bandH, nBands)
	if workers == 1 {
		for band := 0; band < nBands && !stop.Load(); band++ {
			t.rasterBand(band, band*bandH, min(t.Height, (band+1)*bandH), opt.LODBias, stop)
		}
	} else {
		// Bands are handed out dynamically for load balance; that cannot
		// change the output because each band is drawn entirely by one
		// worker, walking all triangles in order, and bands do not share
		// pixels.
		var next atomic.Int32
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !stop.Load() {
					band := int(next.Add(1)) - 1
					if band >= nBands {
						return
					}
					t.rasterBand(band, band*bandH, min(t.Height, (band+1)*bandH), opt.LODBias, stop)
				}
			}()
		}
		wg.Wait()
	}
	if stop.Load() {
		return st, ctx.Err()
	}
	return st, nil
}

// oneBand is the largest target, in pixels, that a single worker draws
// as one band: 2.5 MB of colour and depth, a 256² thumbnail at ssaa 1
// with room to spare.
const oneBand = 1 << 17

// bandHeight is the height of the bands a Draw on a w×h target hands out
// to its band workers (workers of them). A single worker draws a small target as one
// band: in eight, as for two or more workers, the binning and each
// band's set-up were spent for nothing, and a small triangle across two
// bands was started twice (1.3 % of a 256² frame's instructions). A
// larger one keeps its eight bands, in which a material's layers draw
// their triangles over a few rows while those are still in the cache:
// drawn whole, a 1024² frame's second layer found its 20 MB evicted, and
// took 14 % longer.
func bandHeight(w, h, workers int) int {
	if workers == 1 && w*h <= oneBand {
		return h
	}
	return max(4, (h+8*workers-1)/(8*workers))
}

// pvert is a vertex projected to the screen: fixed-point position, window
// depth, 1/w, and its attributes. Projection happens once per vertex (and
// not again for a following batch that shares the vertex slice, as the
// layers of one geoset do); clipped vertices are projected as they appear.
type pvert struct {
	x, y int64
	z, q float32
	code uint8 // outcode against the six clip planes
	a    [nAttr]float32
}

// setup clips, projects, culls and sets up every triangle into t.tris.
func (t *Target) setup(batches []Batch) {
	t.tris = t.tris[:0]
	t.batches = t.batches[:0]
	var buf [2][maxPoly]cvert
	var prev []Vertex
	t.setups = t.setups[:0]
	for bi := range batches {
		b := &batches[bi]
		t.batches = append(t.batches, batchInfo{st: b.State, tex: b.Texture, color: b.Color, vertexColor: b.VertexColor, shader: b.Shader})
		info := &t.batches[len(t.batches)-1]
		if b.Texture != nil {
			info.texW, info.texH = float32(max(b.Texture.Width(), 1)), float32(max(b.Texture.Height(), 1))
			_, info.lazy = b.Texture.(LazySampler)
			if s, ok := b.Texture.(SettledSampler); ok {
				info.settled = s.Settled()
			}
		}
		if b.Shader != nil {
			_, info.lazy = b.Shader.(LazyShader)
			info.settled = false
		}
		info.rho2 = math.Inf(1)
		if len(b.Indices) < 3 {
			continue
		}
		key := setupKey{&b.Vertices[0], &b.Indices[0], len(b.Vertices), len(b.Indices), info.st.Cull, info.tex != nil || info.shader != nil}
		start := len(t.tris)
		if k := t.setupOf(key); k >= 0 {
			// Another layer of the same triangles: their set-up is that
			// batch's, which depends on nothing else.
			s := t.setups[k]
			t.tris = append(t.tris, t.tris[s.start:s.end]...)
			for i := start; i < len(t.tris); i++ {
				t.tris[i].batch = int32(bi)
				info.bound(&t.tris[i])
			}
			continue
		}
		if len(b.Vertices) != len(prev) || &b.Vertices[0] != &prev[0] {
			t.projectAll(b.Vertices)
			prev = b.Vertices
		}
		pv := t.pverts
		for i := 0; i+2 < len(b.Indices); i += 3 {
			i0, i1, i2 := b.Indices[i], b.Indices[i+1], b.Indices[i+2]
			c0, c1, c2 := pv[i0].code, pv[i1].code, pv[i2].code
			if c0&c1&c2 != 0 {
				continue
			}
			all := c0 | c1 | c2
			if all == 0 {
				t.setupTri(&pv[i0], &pv[i1], &pv[i2], int32(bi), info)
				continue
			}
			for k, ix := range [3]uint32{i0, i1, i2} {
				c := &buf[0][k]
				for j := 0; j < 4; j++ {
					c.p[j] = float64(b.Vertices[ix].Position[j])
				}
				c.a = pv[ix].a
			}
			poly, n := clipPoly(&buf, all)
			if n < 3 {
				continue
			}
			var fan [maxPoly]pvert
			for k := 0; k < n; k++ {
				if !t.project(&fan[k], &poly[k].p) {
					// Only with projections that keep w ≤ 0 inside the
					// near plane, or with a vertex the clipping left far
					// outside the guard band: clipping a triangle with a
					// coordinate near 1e36 and a w near 1e-9 loses every
					// digit, and such a vertex would overflow the int64
					// edge functions.
					n = 0
				}
				fan[k].a = poly[k].a
			}
			for k := 1; k+1 < n; k++ {
				t.setupTri(&fan[0], &fan[k], &fan[k+1], int32(bi), info)
			}
		}
		t.setups = append(t.setups, setupRange{key, start, len(t.tris)})
	}
}

// setupKey is what the set-up of a batch's triangles depends on: its
// vertex and index slices (read only during Draw, so the same slices hold
// the same triangles), its culling and whether it has texture gradients.
type setupKey struct {
	v      *Vertex
	i      *uint32
	nv, ni int
	cull   CullMode
	grad   bool
}

// setupRange is the range of t.tris a batch set up.
type setupRange struct {
	key        setupKey
	start, end int
}

// setupOf is the index in t.setups of one of the few batches set up last
// whose triangles are those of key, or −1. A material's layers draw the
// same triangles, though other geosets' opaque layers may come between
// them; looking no further keeps a Draw of thousands of batches linear.
func (t *Target) setupOf(key setupKey) int {
	for k := len(t.setups) - 1; k >= max(0, len(t.setups)-8); k-- {
		if t.setups[k].key == key {
			return k
		}
	}
	return -1
}

// prepare hands every lazy sampler and shader that has a triangle to draw
// the bound on its batch's level of detail, and keeps what it returns.
func (t *Target) prepare(lodBias float32) {
	for bi := range t.batches {
		info := &t.batches[bi]
		if !info.lazy || !info.drawn {
			continue
		}
		b := LODBound{rho2: info.rho2, sx: 1, sy: 1, bias: lodBias}
		if math.IsInf(b.rho2, 0) {
			b.rho2 = 0
		}
		if info.shader != nil {
			info.shader = info.shader.(LazyShader).ForLOD(b)
			continue
		}
		b.sx, b.sy = float64(info.texW), float64(info.texH)
		info.tex = info.tex.(LazySampler).ForLOD(b)
	}
	// Textures the fragment loop reads directly; the level arena is
	// filled first, as appending may move it.
	t.mipLevels, t.mips, t.vecLevels, t.nQuads = t.mipLevels[:0], t.mips[:0], t.vecLevels[:0], 0
	for bi := range t.batches {
		info := &t.batches[bi]
		if tex, ok := info.tex.(*Texture); ok && info.drawn && info.shader == nil {
			// Batches of one texture (a material's layers) share its
			// levels and quads.
			if k := t.texIndex(bi, tex); k >= 0 {
				info.mip = t.batches[k].mip
				continue
			}
			m := t.prepareTexture(tex)
			if t.prepareVec(&m) {
				t.prepareQuads(&m, quadLevels)
			}
			t.mips = append(t.mips, m)
			info.mip = int32(len(t.mips))
		}
	}
	if useHulls {
		t.prepareHulls(lodBias)
	}
}

// texIndex is the index of one of the few batches before bi that reads
// tex through t.mips, or −1. A material's layers are neighbours; looking
// no further keeps a Draw of thousands of batches linear.
func (t *Target) texIndex(bi int, tex *Texture) int {
	for k := bi - 1; k >= max(0, bi-8); k-- {
		if o := &t.batches[k]; o.mip > 0 && o.tex == Sampler(tex) {
			return k
		}
	}
	return -1
}

// projectAll fills t.pverts for a batch's vertices.
func (t *Target) projectAll(vs []Vertex) {
	if cap(t.pverts) < len(vs) {
		t.pverts = make([]pvert, len(vs))
	}
	t.pverts = t.pverts[:len(vs)]
	for i := range vs {
		v, pv := &vs[i], &t.pverts[i]
		p := [4]float64{float64(v.Position[0]), float64(v.Position[1]), float64(v.Position[2]), float64(v.Position[3])}
		pv.code = outcode(&p)
		if pv.code == 0 {
			t.project(pv, &p)
		}
		pv.a = [nAttr]float32{v.UV[0], v.UV[1],
			v.Color[0], v.Color[1], v.Color[2], v.Color[3],
			v.Normal[0], v.Normal[1], v.Normal[2],
			v.Light[0], v.Light[1], v.Light[2]}
	}
}

// project maps a clip-space position inside the clip volume to the screen.
// NDC (x, y) maps to ((x+1)/2·W, (1−y)/2·H), row 0 at the top, snapped to
// 1/256 pixel. It returns false for a w that is not positive and for a
// position more than twice the guard band out, which only a clipped
// vertex that lost its precision can be.
func (t *Target) project(pv *pvert, p *[4]float64) bool {
	w := p[3]
	if !(w > 0) {
		return false
	}
	iw := 1 / w
	nx, ny := float64(p[0]*iw), float64(p[1]*iw)
	if !(math.Abs(nx) <= 2*guardBand && math.Abs(ny) <= 2*guardBand) {
		return false
	}
	pv.x = int64(math.Round((nx + 1) * 0.5 * float64(t.Width) * subOne))
	pv.y = int64(math.Round((1 - ny) * 0.5 * float64(t.Height) * subOne))
	pv.z = float32(float64(0.5*p[2]*iw) + 0.5)
	pv.q = float32(iw)
	return true
}

func planeDist(p *[4]float64, plane int) float64 {
	switch plane {
	case 0:
		return p[3] + p[2] // near
	case 1:
		return p[3] - p[2] // far
	case 2:
		return guardBand*p[3] + p[0]
	case 3:
		return guardBand*p[3] - p[0]
	case 4:
		return guardBand*p[3] + p[1]
	default:
		return guardBand*p[3] - p[1]
	}
}

// outcode has bit i set when the point is outside plane i (see planeDist).
// NaN coordinates count as outside every plane, so they are never drawn.
func outcode(p *[4]float64) uint8 {
	x, y, z, w := p[0], p[1], p[2], p[3]
	g := guardBand * w
	var c uint8
	if !(w+z >= 0) {
		c |= 1
	}
	if !(w-z >= 0) {
		c |= 2
	}
	if !(g+x >= 0) {
		c |= 4
	}
	if !(g-x >= 0) {
		c |= 8
	}
	if !(g+y >= 0) {
		c |= 16
	}
	if !(g-y >= 0) {
		c |= 32
	}
	return c
}

// clipPoly clips the triangle in buf[0][:3] against the planes in mask
// (Sutherland–Hodgman, in homogeneous clip space) and returns the polygon.
// An intersection is always interpolated from the inside vertex towards the
// outside one, so an edge shared by two triangles is cut at the bit-identical
// point in both, and the fill rule still holds along it. A convex polygon
// gains at most one vertex per plane; one that stops being convex (NaN or
// infinite coordinates, or rounding on huge ones) can gain more, and is
// dropped (n = 0) before it outgrows buf.
func clipPoly(buf *[2][maxPoly]cvert, mask uint8) (*[maxPoly]cvert, int) {
	in, out := &buf[0], &buf[1]
	n := 3
	for plane := 0; plane < 6 && n > 0; plane++ {
		if mask&(1<<plane) == 0 {
			continue
		}
		m := 0
		for i := 0; i < n; i++ {
			a, b := &in[i], &in[(i+1)%n]
			da, db := planeDist(&a.p, plane), planeDist(&b.p, plane)
			ina, inb := da >= 0, db >= 0
			if ina {
				if m == maxPoly {
					return in, 0
				}
				out[m] = *a
				m++
			}
			if ina != inb {
				if m == maxPoly {
					return in, 0
				}
				if ina {
					lerpVert(&out[m], a, b, da/(da-db))
				} else {
					lerpVert(&out[m], b, a, db/(db-da))
				}
				m++
			}
		}
		in, out = out, in
		n = m
	}
	return in, n
}

func lerpVert(dst, a, b *cvert, s float64) {
	for j := 0; j < 4; j++ {
		dst.p[j] = a.p[j] + float64(s*(b.p[j]-a.p[j]))
	}
	sf := float32(s)
	for j := 0; j < nAttr; j++ {
		dst.a[j] = a.a[j] + float32(sf*(b.a[j]-a.a[j]))
	}
}

// startDrawn readies the span buffers to bound what the Draw writes.
func (t *Target) startDrawn() {
	for _, sp := range t.spans {
		sp.resetDrawn(t.Width, t.Height)
	}
}

// endDrawn adds what the span buffers bound to t.drawn.
func (t *Target) endDrawn() {
	r := t.drawn
	for _, sp := range t.spans {
		if d := sp.drawn; d.x0 < d.x1 && d.y0 < d.y1 {
			r = r.Union(image.Rect(d.x0, d.y0, d.x1, d.y1))
		}
	}
	t.drawn = r
}

// setupTri sets up one projected triangle and appends it to t.tris unless
// it is culled, degenerate or covers no pixel centre.
func (t *Target) setupTri(v0, v1, v2 *pvert, bi int32, info *batchInfo) {
	area := (v1.x-v0.x)*(v2.y-v0.y) - (v2.x-v0.x)*(v1.y-v0.y)
	if area == 0 {
		return
	}
	// With y pointing down, a counter-clockwise (front) triangle in NDC has
	// a negative area here.
	if area > 0 && info.st.Cull == CullBack {
		return
	}
	if area < 0 {
		v1, v2 = v2, v1
		area = -area
	}
	minFx, maxFx := min(v0.x, v1.x, v2.x), max(v0.x, v1.x, v2.x)
	minFy, maxFy := min(v0.y, v1.y, v2.y), max(v0.y, v1.y, v2.y)
	// Pixel px is sampled at px·256+128.
	x0 := max(0, ceilDiv(minFx-subOne/2, subOne))
	x1 := min(int64(t.Width-1), floorDiv(maxFx-subOne/2, subOne))
	y0 := max(0, ceilDiv(minFy-subOne/2, subOne))
	y1 := min(int64(t.Height-1), floorDiv(maxFy-subOne/2, subOne))
	if x0 > x1 || y0 > y1 {
		return
	}
	// The slot is reused as the last Draw left it, not cleared: every
	// field is set below.
	if n := len(t.tris); n < cap(t.tris) {
		t.tris = t.tris[:n+1]
	} else {
		t.tris = append(t.tris, tri{})
	}
	tr := &t.tris[len(t.tris)-1]
	tr.minX, tr.maxX, tr.minY, tr.maxY = int32(x0), int32(x1), int32(y0), int32(y1)
	tr.hull, tr.nHull = 0, 0
	vs := [3]*pvert{v0, v1, v2}
	// Edge k is the one opposite vertex k.
	tr.e[0], tr.e[1], tr.e[2] = newEdge(v1, v2), newEdge(v2, v0), newEdge(v0, v1)
	for k, v := range vs {
		// Apart: as one tuple assignment, the attributes went through a
		// copy on the stack.
		tr.z[k], tr.q[k] = v.z, v.q
		tr.attr[k] = v.a
	}
	tr.invArea = float32(1 / float64(area))
	tr.cover = coverage(tr)
	tr.batch = bi
	tr.big = (x1-x0+1)*(y1-y0+1) >= hullArea
	if info.tex != nil || info.shader != nil {
		// The vertices' offsets from the first, in pixels, held in
		// locals: through arrays the compiler reloaded them for each
		// gradient. Each position is rounded before the subtraction, as
		// the rule for products says (interp): the division by a power
		// of two is a product.
		px := func(c int64) float64 { return float64(float64(c) / subOne) }
		x0, y0 := px(v0.x), px(v0.y)
		dx1, dy1 := px(v1.x)-x0, px(v1.y)-y0
		dx2, dy2 := px(v2.x)-x0, px(v2.y)-y0
		id := 1 / (float64(dx1*dy2) - float64(dx2*dy1))
		grad := func(f0, f1, f2 float64) [2]float32 {
			return [2]float32{
				float32((float64((f1-f0)*dy2) - float64((f2-f0)*dy1)) * id),
				float32((float64((f2-f0)*dx1) - float64((f1-f0)*dx2)) * id),
			}
		}
		q0, q1, q2 := float64(v0.q), float64(v1.q), float64(v2.q)
		tr.dq = grad(q0, q1, q2)
		tr.du = grad(float64(q0*float64(v0.a[0])), float64(q1*float64(v1.a[0])), float64(q2*float64(v2.a[0])))
		tr.dv = grad(float64(q0*float64(v0.a[1])), float64(q1*float64(v1.a[1])), float64(q2*float64(v2.a[1])))
	} else {
		tr.dq, tr.du, tr.dv = [2]float32{}, [2]float32{}, [2]float32{}
	}
	info.bound(tr)
}

// newEdge returns the edge function of the edge from a to b.
func newEdge(a, b *pvert) edge {
	dx, dy := b.x-a.x, b.y-a.y
	e := edge{a: -dy, b: dx, c: dy*a.x - dx*a.y, bias: -1}
	// With this orientation (inside on the right when walking the edge
	// in y-down screen space), left edges go up and top edges go right.
	if dy < 0 || (dy == 0 && dx > 0) {
		e.bias = 0
	}
	return e
}

// bound adds a set-up triangle of the batch to its LODBound. It is
// small enough to be inlined into the loops over triangles, and leaves
// the bound itself, for lazy samplers only, to lodBound.
func (info *batchInfo) bound(tr *tri) {
	if info.lazy && !info.settled {
		info.lodBound(tr)
	}
	info.drawn = true
	if tr.big {
		info.big++
	}
}

// lodBound lowers a lazy batch's LODBound to a triangle's.
func (info *batchInfo) lodBound(tr *tri) {
	if info.tex != nil || info.shader != nil {
		sx, sy := 1.0, 1.0
		if info.shader == nil {
			sx, sy = float64(info.texW), float64(info.texH)
		}
		info.rho2 = min(info.rho2, triLOD(tr, sx, sy))
	}
}

// rebound recomputes every batch's LODBound and drawn from the triangles
// MaxFragments kept, so that a lazy sampler decodes only what they sample
// and nothing for a batch left out whole.
func (t *Target) rebound() {
	for bi := range t.batches {
		t.batches[bi].drawn, t.batches[bi].rho2, t.batches[bi].big = false, math.Inf(1), 0
	}
	for i := range t.tris {
		t.batches[t.tris[i].batch].bound(&t.tris[i])
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

// binBands lists the triangles that reach each band of bandH rows
// (bandTris), each band's in submission order: a band then visits its own
// triangles only, where each band looked at every triangle's rows. A
// single band's list would be every triangle: it is not made.
func (t *Target) binBands(bandH, nBands int) {
	if t.oneBand = nBands == 1; t.oneBand {
		return
	}
	for len(t.bandTris) < nBands {
		t.bandTris = append(t.bandTris, nil)
	}
	lists := t.bandTris[:nBands]
	for b := range lists {
		lists[b] = lists[b][:0]
	}
	for i := range t.tris {
		tr := &t.tris[i]
		for b := int(tr.minY) / bandH; b <= int(tr.maxY)/bandH; b++ {
			lists[b] = append(lists[b], int32(i))
		}
	}
}

// rasterBand draws the triangles of band k, in order, clipped to its rows
// [y0, y1), giving up when stop is set (looked at every stopEvery
// triangles).
func (t *Target) rasterBand(k, y0, y1 int, lodBias float32, stop *atomic.Bool) {
	var frag *Fragment // for batches with a Shader; one per band, as it escapes
	sp := t.getSpan()
	defer t.putSpan(sp)
	var list []int32
	n := len(t.tris)
	if !t.oneBand {
		list = t.bandTris[k]
		n = len(list)
	}
	for i := 0; i < n; i++ {
		if i%stopEvery == 0 && stop.Load() {
			return
		}
		tr := t.bandTri(list, i)
		b := &t.batches[tr.batch]
		if b.shader != nil && frag == nil {
			frag = new(Fragment)
		}
		t.rasterTri(tr, b, max(y0, int(tr.minY)), min(y1-1, int(tr.maxY)), lodBias, frag, sp)
	}
}

// bandTri is the i-th triangle of a band's list (of t.tris when list is
// nil: a Draw of one band, which binBands does not list).
func (t *Target) bandTri(list []int32, i int) *tri {
	if list != nil {
		return &t.tris[list[i]]
	}
	return &t.tris[i]
}

// lambda is GL's λ = ½·log2 ρ² for a ρ² > 0, computed as the reference
// viewer's rasteriser (SwiftShader) computes it: ¼ of a piecewise-linear
// log2 of ρ⁴, read off the float's bits (exponent, plus the mantissa as a
// linear fraction). It is at most 0.022 below the exact λ, it is cheap
// (no division, no series) and it moves mip blending where the reference
// moves it. ρ⁴ past the float range gives 32, below it about −31.75.
func lambda(rho2 float32) float32 {
	bits := math.Float32bits(rho2 * rho2)
	return float32((float32(int32(bits)) - 0x3f800000) * (1.0 / (1 << 25)))
}
