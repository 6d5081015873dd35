package render

import (
	"image/color"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/m2build"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/m2"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// WoW fixtures: small early-WoW MDX (v1400, v1500) and M2 (v256, v260)
// files built here and checked in as testdata/models/wow_*.mdx and
// m2_*.m2 (UPDATE_FIXTURES=1 go test -run TestWoWFixtureFiles ./pkg/render
// rewrites them). The golden test loads the files as checked in through
// pkg/model, as the CLI does, so the bytes pass through the real WoW MDX
// and M2 decoders. The M2 files are written from the layout of docs/formats.md#m2 by
// m2File below, not by a pkg/m2 encoder (there is none), so decoder and
// fixture do not share code.

// wowFixture is one fixture file and the render options of its golden.
type wowFixture struct {
	file string // under testdata/models
	data []byte
	opt  View
	// warn lists substrings of the warnings the render must give (and no
	// others).
	warn []string
}

var wowBG = &color.NRGBA{40, 40, 48, 255}

func wowFixtures(t testing.TB) []wowFixture {
	var fs []wowFixture
	enc := func(m *mdx.Model) []byte {
		b, err := testmodel.EncodeMDX(m)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		return b
	}

	// v1400: matrix-group skinning with a compressed-quaternion rotation
	// (KGRT): a checker box on the root and a stripes box on a bone that
	// turns 90° about Z over the Stand sequence, seen at its middle (45°);
	// a TwoSided Transparent quad facing away (its checker cut-outs show
	// the 0.75 alpha test); a geoset whose texture is WoW replaceable 11
	// (Monster1), drawn white with a warning, not as a Warcraft III cliff.
	{
		m := fixtureBase("wow_v1400")
		m.Version = 1400
		m.Sequences = m.Sequences[:1]
		m.Textures = []mdx.Texture{
			{Path: `Textures\fixture_checker.blp`}, // found as .tga by extension substitution
			{Path: `Textures\fixture_stripes.blp`, Flags: mdx.TexWrapWidth | mdx.TexWrapHeight},
			{ReplaceableID: mdx.WoWTexMonster1},
		}
		arm := addBone(m, "Arm", 0, mdx.Vec3{0, 0, 0}, 0)
		arm.Rotation = lin(k(0, qz(0)), k(1000, qz(90)))
		opaque := addMaterial(m, 0, layer(mdx.FilterNone, 0, 0))
		stripes := addMaterial(m, 0, layer(mdx.FilterNone, 1, 0))
		cut := addMaterial(m, 0, layer(mdx.FilterTransparent, 0, mdx.LayerTwoSided))
		monster := addMaterial(m, 0, layer(mdx.FilterNone, 2, 0))
		q := quad(mdx.Vec3{-12, 0, 14}, 22, 22, false, cut, 0)
		q.Faces = []uint16{0, 2, 1, 0, 3, 2} // faces -X: drawn only because TwoSided
		m.Geosets = append(m.Geosets,
			box(mdx.Vec3{0, 0, 8}, 6, opaque, 0),
			box(mdx.Vec3{0, 18, 8}, 5, stripes, 1),
			q,
			box(mdx.Vec3{8, -20, 5}, 4, monster, 0))
		for i := range m.Geosets {
			wowMatrixGroups(&m.Geosets[i])
		}
		fs = append(fs, wowFixture{file: "wow_v1400.mdx", data: enc(finish(m)),
			opt:  withOpt(front, func(o *View) { o.Yaw, o.Pitch, o.Time, o.Width = 25, 20, Ms(500), 144 }),
			warn: []string{"WoW replaceable texture 11 (Monster1)"}})
	}

	// v1500: M2-style geosets with per-vertex weights, seen from the front.
	// Left, a strip of 6 quads along Y, weighted from the root (rows 0-2)
	// to a bone at its middle that bends 60° about X (rows 4-6); row 3 is
	// shared half and half. Its layer has the v1500 flags 0x4|0x8 (wrap
	// width/height: UVs run to 3, so the checker repeats three times each
	// way instead of smearing its edge texels) and 0x100 (no fallback,
	// Warcraft III's Unlit bit: the strip must still be lit). Right, over a
	// stripes backdrop, op 3 (Additive, ONE/ONE: the checker's cut-out
	// ring still adds its colour) and op 4 (AddAlpha, SRC_ALPHA/ONE: the
	// ring adds nothing).
	{
		m := fixtureBase("wow_v1500")
		m.Version = 1500
		m.Sequences = m.Sequences[:1]
		m.Textures = m.Textures[:2]
		bend := addBone(m, "Bend", 0, mdx.Vec3{0, -20, 11}, 0)
		bend.Rotation = lin(k(0, qaxis(mdx.Vec3{1, 0, 0}, 0)), k(1000, qaxis(mdx.Vec3{1, 0, 0}, 60)))
		strip := addMaterial(m, 0, layer(mdx.FilterNone, texChecker,
			mdx.WoWLayerWrapWidth|mdx.WoWLayerWrapHeight|mdx.WoWLayerNoFallback|mdx.LayerTwoSided))
		back := addMaterial(m, 0, layer(mdx.FilterNone, texStripes, 0))
		add := addMaterial(m, 0, layer(mdx.FilterAdditive, texChecker, mdx.LayerUnshaded))
		addA := addMaterial(m, 0, layer(mdx.FilterAddAlpha, texChecker, mdx.LayerUnshaded))
		g := mdx.Geoset{MaterialID: strip, UVSets: [][]mdx.Vec2{nil, nil}}
		for row := 0; row <= 6; row++ {
			for col := 0; col <= 1; col++ {
				g.Vertices = append(g.Vertices, mdx.Vec3{0, float32(row)*6 - 38, float32(col)*14 + 4})
				g.Normals = append(g.Normals, mdx.Vec3{1, 0, 0})
				uv := mdx.Vec2{float32(col) * 3, float32(row) / 2}
				g.UVSets[0] = append(g.UVSets[0], uv)
				g.UVSets[1] = append(g.UVSets[1], uv)
				w0 := uint8(255)
				switch {
				case row == 3:
					w0 = 128
				case row > 3:
					w0 = 0
				}
				g.Skin = append(g.Skin, 0, 1, 0, 0, w0, 255-w0, 0, 0)
			}
		}
		for row := 0; row < 6; row++ {
			a := uint16(2 * row)
			g.Faces = append(g.Faces, a, a+2, a+3, a, a+3, a+1)
		}
		g.FaceTypes, g.FaceGroups = []uint32{4}, []uint32{uint32(len(g.Faces))}
		fixExtent(&g)
		m.Geosets = append(m.Geosets, g)
		for _, q := range []mdx.Geoset{
			quad(mdx.Vec3{-4, 22, 11}, 42, 24, false, back, 0),
			quad(mdx.Vec3{0, 12, 11}, 16, 16, false, add, 0),
			quad(mdx.Vec3{0, 32, 11}, 16, 16, false, addA, 0),
		} {
			wowSkinOnRoot(&q)
			q.UVSets = append(q.UVSets, q.UVSets[0])
			m.Geosets = append(m.Geosets, q)
		}
		fs = append(fs, wowFixture{file: "wow_v1500.mdx", data: enc(finish(m)),
			opt: withOpt(front, func(o *View) { o.Time, o.Width, o.Height = Ms(1000), 160, 112 })})
	}

	// M2 v256, flat in the XY plane like the interface models, so the
	// automatic camera looks down on it: every blend mode 0-6 (a checker
	// quad each, in a row over a stripes backdrop), then a reversed quad
	// with the two-sided render flag (drawn) and one without (culled), and
	// a quad below the backdrop with render flag 0x8, no depth test (drawn
	// over it).
	{
		f := &m2File{version: 256, name: "m2_blend_modes"}
		f.textures = []m2Tex{{name: `Textures\fixture_checker.blp`}, {name: `Textures\fixture_stripes.blp`, flags: 3}}
		f.bones = []m2Bone{{parent: -1}}
		f.seqs = [][2]uint32{{0, 1000}}
		f.quad(mdx.Vec3{0, 0, 0}, 100, 44, false, m2Unit{blend: m2.BlendOpaque, tex: 1})
		for i := 0; i < 7; i++ {
			f.quad(mdx.Vec3{8, float32(i-3) * 13, 1}, 11, 22, false, m2Unit{blend: uint16(i), tex: 0, flags: m2.RenderUnlit})
		}
		f.quad(mdx.Vec3{-14, -20, 1}, 12, 12, true, m2Unit{blend: m2.BlendOpaque, tex: 0, flags: m2.RenderTwoSided})
		f.quad(mdx.Vec3{-14, 0, 1}, 12, 12, true, m2Unit{blend: m2.BlendOpaque, tex: 0})
		f.quad(mdx.Vec3{-14, 20, -1}, 12, 12, false, m2Unit{blend: m2.BlendAlpha, tex: 0, flags: m2.RenderNoDepthTest | m2.RenderUnlit})
		fs = append(fs, wowFixture{file: "m2_blend_modes.m2", data: f.bytes(),
			opt: withOpt(front, func(o *View) { o.Width, o.Height = 144, 144 })})
	}

	// M2 v260 (compressed rotations, 48-byte submeshes): a column of three
	// stacked boxes skinned to a root and a bone at z = 10 that turns 90°
	// about Y over the sequence (seen at 500 ms: 45°); the middle box's
	// vertices are weighted half and half. The top box's submesh has a
	// colour (orange, alpha 0.8 at 500 ms) and a second texture unit, an
	// additive stripes layer whose transparency fades from 1 to 0 and
	// whose texture animation scrolls U.
	{
		f := &m2File{version: 260, name: "m2_skinned"}
		f.textures = []m2Tex{{name: `Textures\fixture_checker.blp`}, {name: `Textures\fixture_stripes.blp`, flags: 3}}
		f.seqs = [][2]uint32{{0, 1000}}
		f.bones = []m2Bone{{parent: -1}, {parent: 0, pivot: mdx.Vec3{0, 0, 10},
			rot: []m2Key{{0, qaxis(mdx.Vec3{0, 1, 0}, 0)}, {1000, qaxis(mdx.Vec3{0, 1, 0}, 90)}}}}
		f.colors = []m2Color{{times: []uint32{0, 1000}, rgb: []mdx.Vec3{{1, 0.6, 0.2}, {1, 0.6, 0.2}}, alpha: []int16{32767, 19660}}}
		f.transp = [][2]int16{{32767, 0}}
		f.texAnims = []mdx.Vec3{{1, 0, 0}}
		f.box(mdx.Vec3{0, 0, 3}, 3, [2]uint8{255, 0}, m2Unit{blend: m2.BlendOpaque, tex: 0})
		f.box(mdx.Vec3{0, 0, 9}, 3, [2]uint8{128, 127}, m2Unit{blend: m2.BlendOpaque, tex: 0})
		f.box(mdx.Vec3{0, 0, 15}, 3, [2]uint8{0, 255}, m2Unit{blend: m2.BlendOpaque, tex: 0, color: 1},
			m2Unit{blend: m2.BlendAddAlpha, tex: 1, transp: 1, texAnim: 1, flags: m2.RenderNoDepthWrite})
		fs = append(fs, wowFixture{file: "m2_skinned.m2", data: f.bytes(),
			opt: withOpt(front, func(o *View) { o.Yaw, o.Pitch, o.Time, o.Width = 60, 20, Ms(500), 112 })})
	}

	// One fixture per emitter kind (docs/particles.md#world-of-warcraft-m2-emitters),
	// each over a stripes floor, seen from the side with particles on.
	particles := withOpt(front, func(o *View) {
		o.Yaw, o.Pitch, o.Time, o.Width, o.Particles = 30, 20, Ms(1500), 128, Particles{Seed: 6}
	})
	floor := func(f *m2File) {
		f.textures = []m2Tex{{name: `Textures\fixture_checker.blp`}, {name: `Textures\fixture_stripes.blp`, flags: 3}}
		f.seqs = [][2]uint32{{0, 2000}}
		f.quad(mdx.Vec3{0, 0, 0}, 8, 8, false, m2Unit{blend: m2.BlendOpaque, tex: 1})
	}
	white := [3][4]uint8{{255, 255, 255, 255}, {255, 255, 255, 255}, {255, 255, 255, 0}}

	// v256 plane: a 3×1 rectangle 1 unit up, shooting upwards within 0.3
	// rad of +Z (all azimuths) against gravity: a fountain of blended
	// checker quads turning from red to yellow and fading.
	{
		f := &m2File{version: 256, name: "m2_particles_plane"}
		floor(f)
		f.bones = []m2Bone{{parent: -1}}
		f.particles = []m2Particle{{pos: mdx.Vec3{0, 0, 1}, tex: 0, blend: m2.BlendAlpha, etype: 1, rows: 1, cols: 1,
			speed: 3, variation: 0.2, vertical: 0.3, horizontal: math.Pi, gravity: 2, life: 1.5, rate: 30, length: 3, width: 1,
			mid: 0.4, colors: [3][4]uint8{{0, 0, 255, 255}, {0, 255, 255, 255}, {0, 255, 255, 0}}, scales: [3]float32{0.15, 0.25, 0.1},
			cells: [6]uint16{0, 0, 1, 0, 0, 1}}}
		fs = append(fs, wowFixture{file: "m2_particles_plane.m2", data: f.bytes(), opt: particles})
	}

	// v256 sphere: a shell of radii 0.8-1 around a point 2 up, particles
	// moving outwards and slowing (drag 2), each showing the cells of the
	// checker as a 2×2 sheet over its life (red, green, blue, white
	// quadrants), added.
	{
		f := &m2File{version: 256, name: "m2_particles_sphere"}
		floor(f)
		f.bones = []m2Bone{{parent: -1}}
		f.particles = []m2Particle{{pos: mdx.Vec3{0, 0, 2}, tex: 0, blend: m2.BlendAddAlpha, etype: 2, rows: 2, cols: 2,
			speed: 1.5, vertical: math.Pi / 2, horizontal: math.Pi, life: 1, rate: 60, length: 0.8, width: 1, drag: 2,
			mid: 0.5, colors: white, scales: [3]float32{0.12, 0.12, 0.06}, cells: [6]uint16{0, 2, 1, 2, 4, 1}}}
		fs = append(fs, wowFixture{file: "m2_particles_sphere.m2", data: f.bytes(), opt: particles})
	}

	// v263 spline (the byte-field layout): a Bézier arch from (0, −2, 0.5)
	// over (0, 0, 3) to (0, 2, 0.5); particles born along its whole length
	// rising at 0.5/s, drawn as heads and tails 0.4 s long, orange to
	// pale yellow, added.
	{
		f := &m2File{version: 263, name: "m2_particles_spline"}
		floor(f)
		f.bones = []m2Bone{{parent: -1}}
		f.particles = []m2Particle{{tex: 1, blend: m2.BlendAdd, etype: 3, ptype: 2, rows: 1, cols: 1,
			speed: 0.5, life: 1.2, rate: 80, length: 0, width: 1, tailLength: 0.4,
			mid: 0.5, colors: [3][4]uint8{{0, 128, 255, 255}, {128, 255, 255, 255}, {255, 255, 255, 0}}, scales: [3]float32{0.08, 0.08, 0.04},
			cells: [6]uint16{0, 0, 1, 0, 0, 1}, spline: []mdx.Vec3{{0, -2, 0.5}, {0, -2, 3.5}, {0, 2, 3.5}, {0, 2, 0.5}}}}
		fs = append(fs, wowFixture{file: "m2_particles_spline.m2", data: f.bytes(), opt: particles})
	}

	// v263 ribbon: an emitter 2 units out on a bone that turns a full
	// circle about Y (its X axis sweeping X-Z) every 2 s; the ribbon spans
	// 0.3 above and below along Y and lives 0.8 s, an orange, half-alpha
	// band trailing round the circle, seen across its plane.
	{
		f := &m2File{version: 263, name: "m2_ribbon"}
		floor(f)
		turn := func(ms uint32, deg float64) m2Key { return m2Key{ms, qaxis(mdx.Vec3{0, 1, 0}, deg)} }
		f.bones = []m2Bone{{parent: -1}, {parent: 0, pivot: mdx.Vec3{0, 0, 2.5},
			rot: []m2Key{turn(0, 0), turn(500, -90), turn(1000, -180), turn(1500, -270), turn(2000, -360)}}}
		f.ribbons = []m2Ribbon{{bone: 1, pos: mdx.Vec3{2, 0, 2.5}, tex: 1, flags: m2.RenderTwoSided, blend: m2.BlendAlpha,
			color: mdx.Vec3{1, 0.6, 0.2}, alpha: 16384, above: 0.3, below: 0.3, eps: 30, life: 0.8}}
		fs = append(fs, wowFixture{file: "m2_ribbon.m2", data: f.bytes(), opt: withOpt(particles, func(o *View) { o.Yaw = 70 })})
	}
	return fs
}

// wowMatrixGroups keeps a fixture geoset's matrix groups (v1300/1400
// skin with them) and gives it the UV set count v1400 writes.
func wowMatrixGroups(g *mdx.Geoset) { g.UVSets = g.UVSets[:1] }

// wowSkinOnRoot turns a matrix-group geoset into v1500 form: every vertex
// fully on bone 0, two UV sets.
func wowSkinOnRoot(g *mdx.Geoset) {
	g.Skin = nil
	for range g.Vertices {
		g.Skin = append(g.Skin, 0, 0, 0, 0, 255, 0, 0, 0)
	}
	g.VertexGroups, g.MatrixGroups, g.MatrixIndices = nil, nil, nil
}

// m2File describes a small M2 for m2File.bytes: one view, one submesh per
// quad or box, texture units in order.
type m2File struct {
	version  uint32
	name     string
	seqs     [][2]uint32
	bones    []m2Bone
	textures []m2Tex
	colors   []m2Color
	transp   [][2]int16 // alpha at the start and end of sequence 0
	texAnims []mdx.Vec3 // translation at the end of sequence 0
	verts    []m2Vert
	tris     [][]uint16 // per submesh, global vertex indices
	subVerts [][2]int   // per submesh: first vertex, count
	units    [][]m2Unit // per submesh
	// particles and ribbons are the emitter blocks
	// (docs/formats.md#m2-particle-and-ribbon-emitters).
	particles []m2Particle
	ribbons   []m2Ribbon
}

// m2Particle is one particle emitter record; every animated parameter is
// a one-key block.
type m2Particle struct {
	flags                                    uint32
	pos                                      mdx.Vec3
	bone, tex, blend, etype                  uint16
	ptype                                    uint8
	rows, cols                               uint16
	speed, variation, vertical, horizontal   float32
	gravity, life, rate, length, width, zsrc float32
	mid                                      float32
	colors                                   [3][4]uint8 // blue, green, red, alpha
	scales                                   [3]float32
	cells                                    [6]uint16 // head: start, end, repeat; decay likewise
	tailLength, drag, spin                   float32
	spline                                   []mdx.Vec3
}

// m2Ribbon is one ribbon emitter record with one texture and render
// flags entry of its own.
type m2Ribbon struct {
	bone                         uint32
	pos                          mdx.Vec3
	tex, flags, blend            uint16
	color                        mdx.Vec3 // red, green, blue
	alpha                        int16
	above, below, eps, life, grv float32
}

type m2Bone struct {
	parent int16
	pivot  mdx.Vec3
	rot    []m2Key
}

type m2Key struct {
	t uint32
	q mdx.Quat
}

type m2Tex struct {
	typ, flags uint32
	name       string
}

type m2Color struct {
	times []uint32
	rgb   []mdx.Vec3
	alpha []int16
}

type m2Vert struct {
	pos, normal mdx.Vec3
	uv          mdx.Vec2
	weights     [2]uint8 // bones 0 and 1
}

// m2Unit is one texture unit. color, transp and texAnim count from 1 (0
// is none), so that a literal names only what it uses.
type m2Unit struct {
	flags, blend           uint16
	tex                    int
	color, transp, texAnim int
}

func (f *m2File) submesh(vs []m2Vert, tris []uint16, units []m2Unit) {
	first := len(f.verts)
	f.verts = append(f.verts, vs...)
	var g []uint16
	for _, t := range tris {
		g = append(g, uint16(first)+t)
	}
	f.tris = append(f.tris, g)
	f.subVerts = append(f.subVerts, [2]int{first, len(vs)})
	f.units = append(f.units, units)
}

// quad adds a w×h quad centred at c in the XY plane facing +Z (reversed:
// facing -Z), on bone 0.
func (f *m2File) quad(c mdx.Vec3, w, h float32, reversed bool, u m2Unit) {
	var vs []m2Vert
	for _, k := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		vs = append(vs, m2Vert{pos: mdx.Vec3{c[0] - k[1]*h/2, c[1] + k[0]*w/2, c[2]}, normal: mdx.Vec3{0, 0, 1},
			uv: mdx.Vec2{(k[0] + 1) / 2, (1 - k[1]) / 2}, weights: [2]uint8{255, 0}})
	}
	tris := []uint16{0, 1, 2, 0, 2, 3}
	if reversed {
		tris = []uint16{0, 2, 1, 0, 3, 2}
	}
	f.submesh(vs, tris, []m2Unit{u})
}

// box adds a cube of half-size h centred at c, its vertices weighted
// wts between bones 0 and 1. A second unit is a second layer.
func (f *m2File) box(c mdx.Vec3, h float32, wts [2]uint8, units ...m2Unit) {
	var vs []m2Vert
	var tris []uint16
	for axis := 0; axis < 3; axis++ {
		for _, s := range []float32{-1, 1} {
			var n mdx.Vec3
			n[axis] = s
			u, v := (axis+1)%3, (axis+2)%3
			base := uint16(len(vs))
			for _, k := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				p := c
				p[axis] += s * h
				p[u] += k[0] * h
				p[v] += k[1] * h
				vs = append(vs, m2Vert{pos: p, normal: n, uv: mdx.Vec2{(k[0] + 1) / 2, (1 - k[1]) / 2}, weights: wts})
			}
			if s > 0 {
				tris = append(tris, base, base+1, base+2, base, base+2, base+3)
			} else {
				tris = append(tris, base, base+2, base+1, base, base+3, base+2)
			}
		}
	}
	f.submesh(vs, tris, units)
}

// linearTrack appends a linear animation block with no global sequence
// and no per-sequence ranges, the only kind the fixtures animate with.
func linearTrack(b *m2build.Builder, p m2build.W, times []uint32, values []byte) m2build.W {
	return b.Track(p, 1, -1, nil, times, values, len(times))
}

// quatM2 writes a rotation: float32s before v260, then the int16 form
// (v < 0: (v+32768)/32767, else (v-32767)/32767).
func quatM2(p m2build.W, q mdx.Quat, version uint32) m2build.W {
	if version < 260 {
		return p.F32(q[0], q[1], q[2], q[3])
	}
	for _, c := range q {
		v := math.Round(float64(c) * 32767)
		if c > 0 {
			v -= 32768
		} else {
			v += 32767
		}
		p = p.U16(uint16(int16(v)))
	}
	return p
}

func (f *m2File) bytes() []byte {
	b := m2build.New(f.version)
	b.Set(0x08, len(f.name)+1, append([]byte(f.name), 0))

	lo, hi := f.verts[0].pos, f.verts[0].pos
	for _, v := range f.verts {
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], v.pos[k]), max(hi[k], v.pos[k])
		}
	}
	r := float32(math.Sqrt(float64((hi[0]-lo[0])*(hi[0]-lo[0])+(hi[1]-lo[1])*(hi[1]-lo[1])+(hi[2]-lo[2])*(hi[2]-lo[2])))) / 2

	var seqs m2build.W
	for i, s := range f.seqs {
		seqs = seqs.U16(0, 0).U32(s[0], s[1]).F32(0).U32(0x20).U16(32767, 0).U32(0, 0, 150).
			F32(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], r).U16(0xFFFF, uint16(i))
	}
	b.Set(0x1C, len(f.seqs), seqs)
	b.Set(0x24, 1, m2build.W(nil).U16(0))

	var bones m2build.W
	for _, bn := range f.bones {
		bones = bones.U32(0xFFFFFFFF, 0).U16(uint16(bn.parent), 0)
		if f.version >= 260 {
			bones = bones.U32(0)
		}
		bones = linearTrack(b, bones, nil, nil)
		var times []uint32
		var vals m2build.W
		for _, k := range bn.rot {
			times = append(times, k.t)
			vals = quatM2(vals, k.q, f.version)
		}
		bones = linearTrack(b, bones, times, vals)
		bones = linearTrack(b, bones, nil, nil)
		bones = bones.F32(bn.pivot[0], bn.pivot[1], bn.pivot[2])
	}
	b.Set(0x34, len(f.bones), bones)
	b.Set(0x3C, len(f.bones), make([]byte, 2*len(f.bones)))

	var verts m2build.W
	for _, v := range f.verts {
		verts = verts.F32(v.pos[0], v.pos[1], v.pos[2]).U8(v.weights[0], v.weights[1], 0, 0, 0, 1, 0, 0).
			F32(v.normal[0], v.normal[1], v.normal[2], v.uv[0], v.uv[1], 0, 0)
	}
	b.Set(0x44, len(f.verts), verts)

	// One view: the identity index list, the triangles in submesh order.
	var idx, tri, sm, tu m2build.W
	for i := range f.verts {
		idx = idx.U16(uint16(i))
	}
	ntri := 0
	nunits := 0
	for s, ts := range f.tris {
		sv := f.subVerts[s]
		sm = sm.U16(uint16(s), 0, uint16(sv[0]), uint16(sv[1]), uint16(ntri), uint16(len(ts)), 2, 0, 2, 0).F32(0, 0, 0)
		if f.version >= 260 {
			sm = sm.F32(0, 0, 0, r)
		}
		tri = tri.U16(ts...)
		ntri += len(ts)
		for li, u := range f.units[s] {
			// Colour -1 is none; transparency lookup entry 0 is "always
			// opaque" and texture animation lookup entry 0 "none", so the
			// 1-based unit fields are the lookup indices.
			col := uint16(u.color - 1)
			tr, ta := uint16(u.transp), uint16(u.texAnim)
			// flags, priority, shader, submesh, geoset, colour, render
			// flags, layer, texture count, texture, coord, transparency,
			// texture animation
			tu = tu.U8(16, 0).U16(0, uint16(s), uint16(s), col, uint16(nunits), uint16(li), 1, uint16(u.tex), 0, tr, ta)
			nunits++
		}
	}
	view := b.Array(len(f.verts), idx)
	view = append(view, b.Array(ntri, tri)...)
	view = append(view, b.Array(len(f.verts), make([]byte, 4*len(f.verts)))...)
	view = append(view, b.Array(len(f.tris), sm)...)
	view = append(view, b.Array(nunits, tu)...)
	view = view.U32(0)
	b.Set(0x4C, 1, view)

	var cols m2build.W
	for _, c := range f.colors {
		var rgb, a m2build.W
		for i := range c.times {
			rgb = rgb.F32(c.rgb[i][0], c.rgb[i][1], c.rgb[i][2])
			a = a.U16(uint16(c.alpha[i]))
		}
		cols = linearTrack(b, cols, c.times, rgb)
		cols = linearTrack(b, cols, c.times, a)
	}
	b.Set(0x54, len(f.colors), cols)

	var tex m2build.W
	for _, t := range f.textures {
		if t.name == "" {
			tex = tex.U32(t.typ, t.flags, 0, 0)
			continue
		}
		n := append([]byte(t.name), 0)
		tex = tex.U32(t.typ, t.flags, uint32(len(n)), b.Block(n))
	}
	b.Set(0x5C, len(f.textures), tex)

	end := f.seqs[0][1]
	tr := linearTrack(b, nil, []uint32{0}, m2build.W(nil).U16(32767))
	for _, t := range f.transp {
		tr = linearTrack(b, tr, []uint32{0, end}, m2build.W(nil).U16(uint16(t[0]), uint16(t[1])))
	}
	b.Set(0x64, 1+len(f.transp), tr)

	var ta m2build.W
	for _, v := range f.texAnims {
		ta = linearTrack(b, ta, []uint32{0, end}, m2build.W(nil).F32(0, 0, 0, v[0], v[1], v[2]))
		ta = linearTrack(b, ta, nil, nil)
		ta = linearTrack(b, ta, nil, nil)
	}
	b.Set(0x74, len(f.texAnims), ta)

	var rf m2build.W
	for _, us := range f.units {
		for _, u := range us {
			rf = rf.U16(u.flags, u.blend)
		}
	}
	for _, r := range f.ribbons {
		rf = rf.U16(r.flags, r.blend)
	}
	b.Set(0x84, nunits+len(f.ribbons), rf)
	f.emitters(b, nunits)
	b.Set(0x8C, len(f.bones), m2build.W(nil).U16(0, 1)[:2*len(f.bones)])
	var tl m2build.W
	for i := range f.textures {
		tl = tl.U16(uint16(i))
	}
	b.Set(0x94, len(f.textures), tl)
	b.Set(0x9C, 1, m2build.W(nil).U16(0))
	var trl m2build.W
	for i := 0; i <= len(f.transp); i++ {
		trl = trl.U16(uint16(i))
	}
	b.Set(0xA4, len(f.transp)+1, trl)
	tal := m2build.W(nil).U16(0xFFFF)
	for i := range f.texAnims {
		tal = tal.U16(uint16(i))
	}
	b.Set(0xAC, len(f.texAnims)+1, tal)
	copy(b.Hdr[0xB4:], m2build.W(nil).F32(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], r, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], r))
	return b.Bytes()
}

// emitters writes the particle (504 bytes) and ribbon (220 bytes) blocks;
// ribbon k uses render flags entry firstFlags+k.
func (f *m2File) emitters(b *m2build.Builder, firstFlags int) {
	one := func(p m2build.W, v []byte) m2build.W { return linearTrack(b, p, []uint32{0}, v) }
	var ps m2build.W
	for _, e := range f.particles {
		p := m2build.W(nil).U32(0xFFFFFFFF, e.flags).F32(e.pos[0], e.pos[1], e.pos[2]).U16(e.bone, e.tex).U32(0, 0, 0, 0)
		if f.version >= 263 {
			p = p.U8(uint8(e.blend), uint8(e.etype)).U16(0)
		} else {
			p = p.U16(e.blend, e.etype)
		}
		p = p.U8(e.ptype, 0).U16(0, e.rows, e.cols)
		for _, v := range []float32{e.speed, e.variation, e.vertical, e.horizontal, e.gravity, e.life, e.rate, e.length, e.width, e.zsrc} {
			p = one(p, m2build.W(nil).F32(v))
		}
		p = p.F32(e.mid)
		for _, c := range e.colors {
			p = p.U8(c[:]...)
		}
		p = p.F32(e.scales[:]...).U16(e.cells[:]...).U16(0, 0, 0, 0)
		// tail length, twinkle speed, percent, scale min and max, burst,
		// drag, spin, tumble, wind, wind time, follow speeds and scales
		p = p.F32(e.tailLength, 10, 1, 1, 1, 1, e.drag, e.spin).F32(0, 0, 0, 0, 0, 0).F32(0, 0, 0, 0).F32(0, 0, 0, 0)
		var sp m2build.W
		for _, v := range e.spline {
			sp = sp.F32(v[0], v[1], v[2])
		}
		p = append(p, b.Array(len(e.spline), sp)...)
		ps = append(ps, one(p, m2build.W(nil).U8(1))...)
	}
	b.Set(0x13C, len(f.particles), ps)
	var rs m2build.W
	for i, r := range f.ribbons {
		p := m2build.W(nil).U32(0xFFFFFFFF, r.bone).F32(r.pos[0], r.pos[1], r.pos[2])
		p = append(p, b.Array(1, m2build.W(nil).U16(r.tex))...)
		p = append(p, b.Array(1, m2build.W(nil).U16(uint16(firstFlags+i)))...)
		p = one(p, m2build.W(nil).F32(r.color[0], r.color[1], r.color[2]))
		p = one(p, m2build.W(nil).U16(uint16(r.alpha)))
		p = one(p, m2build.W(nil).F32(r.above))
		p = one(p, m2build.W(nil).F32(r.below))
		p = p.F32(r.eps, r.life, r.grv).U16(1, 1)
		p = one(p, m2build.W(nil).U16(0))
		rs = append(rs, one(p, m2build.W(nil).U8(1))...)
	}
	b.Set(0x134, len(f.ribbons), rs)
}

// TestWoWFixtureFiles checks that the checked-in WoW fixture files are
// what the generator above writes, and rewrites them with
// UPDATE_FIXTURES=1.
func TestWoWFixtureFiles(t *testing.T) {
	for _, f := range wowFixtures(t) {
		golden.CheckFile(t, filepath.Join(modelsDir, f.file), f.data)
	}
}

// TestWoWGoldenFixtures renders the WoW fixture files as checked in,
// loaded through pkg/model, and compares decoded pixels with
// testdata/golden/<name>.png (UPDATE_GOLDEN=1 rewrites them).
func TestWoWGoldenFixtures(t *testing.T) {
	for _, f := range wowFixtures(t) {
		name := strings.TrimSuffix(f.file, filepath.Ext(f.file))
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(modelsDir, f.file)
			m, err := testmodel.LoadPath(path)
			if err != nil {
				t.Fatal(err)
			}
			img, warns, err := renderAt(m, path, f.opt)
			if err != nil {
				t.Fatal(err)
			}
			checkWarnings(t, warns, f.warn)
			golden.Check(t, filepath.Join(goldenDir, name+".png"), img, goldenTol)
		})
	}
}

// checkWarnings wants exactly one warning per expected substring.
func checkWarnings(t *testing.T, warns []Warning, want []string) {
	t.Helper()
	left := append([]string(nil), want...)
next:
	for _, w := range warns {
		for i, s := range left {
			if strings.Contains(w.Message, s) {
				left = append(left[:i], left[i+1:]...)
				continue next
			}
		}
		t.Errorf("unexpected warning: %v", w)
	}
	for _, s := range left {
		t.Errorf("no warning mentions %q", s)
	}
}
