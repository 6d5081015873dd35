package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// The demo model (demo/shrine.mdl and its three PNG textures) is written by
// the Go below, so it can be changed by editing code rather than numbers in
// a text file: UPDATE_DEMO=1 go test -run TestDemoAsset ./cmd/mdxrender
// rewrites the files, and without it the test fails if the checked-in files
// differ from what the code produces. All of it is our own work.
//
// The model is a small stone shrine: an octagonal pedestal whose column
// carries runes cut out of the stone so the team colour glows through, a
// faceted crystal floating above it inside a halo, three shards orbiting the
// crystal, and a blob shadow. Bones: Base, Crystal (bob, spin, pulse), Halo
// (billboarded, follows the crystal) and Orbit (the shards). Sequences:
// Stand (2 s, calm) and Spin (1 s, fast, raised and scaled up).

func TestDemoAsset(t *testing.T) {
	files := map[string][]byte{}
	mdl, err := testmodel.EncodeMDL(demoModel())
	if err != nil {
		t.Fatal(err)
	}
	files["shrine.mdl"] = mdl
	for name, img := range map[string]image.Image{
		"shrine_stone.png":   stoneTexture(),
		"shrine_crystal.png": crystalTexture(),
		"shrine_glow.png":    glowTexture(),
		"shrine_shadow.png":  shadowTexture(),
	} {
		var b bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		files[name] = b.Bytes()
	}
	for name, want := range files {
		p := filepath.Join("demo", name)
		if os.Getenv("UPDATE_DEMO") != "" {
			if err := os.WriteFile(p, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what demo_asset_test.go generates; run UPDATE_DEMO=1 go test -run TestDemoAsset ./cmd/mdxrender", p)
		}
	}
}

// Texture indexes of the demo model.
const (
	dtStone = iota
	dtCrystal
	dtGlow
	dtShadow
	dtTeam
)

// Object ids of the demo model's bones.
const (
	dbBase = iota
	dbCrystal
	dbHalo
	dbOrbit
)

const crystalZ = 80 // height of the crystal's centre above the ground

func demoModel() *mdx.Model {
	m := &mdx.Model{Version: 800, Name: "Shrine", BlendTime: 150}
	m.Sequences = []mdx.Sequence{
		{Name: "Stand", Interval: [2]uint32{0, 2000}, Rarity: 0},
		{Name: "Spin", Interval: [2]uint32{3000, 4000}},
	}
	m.Textures = []mdx.Texture{
		{Path: "shrine_stone.png", Flags: mdx.TexWrapWidth},
		{Path: "shrine_crystal.png"},
		{Path: "shrine_glow.png"},
		{Path: "shrine_shadow.png"},
		{ReplaceableID: 1},
	}
	lay := func(mode mdx.FilterMode, tex int32, flags uint32) mdx.Layer {
		return mdx.Layer{FilterMode: mode, TextureID: tex, TextureAnimID: -1, Alpha: 1, Flags: flags}
	}
	// Stone over unshaded team colour: the runes are holes in the stone.
	m.Materials = append(m.Materials,
		mdx.Material{Layers: []mdx.Layer{lay(mdx.FilterNone, dtTeam, mdx.LayerUnshaded), lay(mdx.FilterBlend, dtStone, 0)}},
		mdx.Material{Layers: []mdx.Layer{lay(mdx.FilterNone, dtCrystal, 0)}},
		mdx.Material{Layers: []mdx.Layer{lay(mdx.FilterAdditive, dtGlow, mdx.LayerUnshaded|mdx.LayerTwoSided|mdx.LayerNoDepthSet)}},
		mdx.Material{Layers: []mdx.Layer{lay(mdx.FilterBlend, dtShadow, mdx.LayerUnshaded|mdx.LayerNoDepthSet)}},
	)
	const (
		matStone = iota
		matCrystal
		matHalo
		matShadow
	)

	bone := func(name string, id, parent int32, pivot mdx.Vec3, flags uint32) {
		m.Bones = append(m.Bones, mdx.Bone{Node: mdx.Node{Name: name, ObjectID: id, ParentID: parent, Flags: flags | mdx.NodeBone}, GeosetID: -1, GeosetAnimID: -1})
		m.PivotPoints = append(m.PivotPoints, pivot)
	}
	centre := mdx.Vec3{0, 0, crystalZ}
	bone("Base", dbBase, -1, mdx.Vec3{}, 0)
	bone("Crystal", dbCrystal, dbBase, centre, 0)
	bone("Halo", dbHalo, dbCrystal, centre, mdx.NodeBillboarded)
	bone("Orbit", dbOrbit, dbBase, centre, 0)
	crystal, orbit := &m.Bones[dbCrystal], &m.Bones[dbOrbit]

	// Stand: one turn in 2 s, a 4-unit bob. Spin: two turns in 1 s, raised
	// 10 units, 15 % larger, shards flung out.
	crystal.Rotation = spinZ([]spinSpan{{0, 2000, 1}, {3000, 4000, 2}})
	crystal.Translation = &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1}
	for _, s := range []struct{ start, end, steps int32 }{{0, 2000, 16}, {3000, 4000, 8}} {
		for i := int32(0); i <= s.steps; i++ {
			f := s.start + (s.end-s.start)*i/s.steps
			ph := 2 * math.Pi * float64(i) / float64(s.steps)
			z := 2 - 2*math.Cos(ph) // 0 at both ends, so the loop is seamless
			if s.start == 3000 {
				z = 10 + 3*math.Sin(2*ph)
			}
			crystal.Translation.Keys = append(crystal.Translation.Keys, mdx.Key[mdx.Vec3]{Frame: f, Value: mdx.Vec3{0, 0, float32(z)}})
		}
	}
	crystal.Scaling = &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{
		{Frame: 0, Value: mdx.Vec3{1, 1, 1}}, {Frame: 2000, Value: mdx.Vec3{1, 1, 1}},
		{Frame: 3000, Value: mdx.Vec3{1.15, 1.15, 1.15}}, {Frame: 4000, Value: mdx.Vec3{1.15, 1.15, 1.15}},
	}}
	orbit.Rotation = spinZ([]spinSpan{{0, 2000, -1}, {3000, 4000, -3}})
	orbit.Translation = &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{
		{Frame: 0, Value: mdx.Vec3{0, 0, 0}}, {Frame: 1000, Value: mdx.Vec3{0, 0, 3}}, {Frame: 2000, Value: mdx.Vec3{0, 0, 0}},
		{Frame: 3000, Value: mdx.Vec3{0, 0, 6}}, {Frame: 4000, Value: mdx.Vec3{0, 0, 6}},
	}}
	orbit.Scaling = &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{
		{Frame: 0, Value: mdx.Vec3{1, 1, 1}}, {Frame: 2000, Value: mdx.Vec3{1, 1, 1}},
		{Frame: 3000, Value: mdx.Vec3{1.35, 1.35, 1}}, {Frame: 4000, Value: mdx.Vec3{1.35, 1.35, 1}},
	}}

	// Pedestal: a profile of (height, radius) turned into an octagon. The
	// column (rows 4-5) takes the rune band of the stone texture, the rest
	// plain bricks.
	ped := newMesh(matStone, dbBase)
	type ring struct{ z, r float32 }
	prof := []ring{{0, 29}, {6, 29}, {9, 24}, {13, 23}, {15, 14}, {44, 12}, {48, 18}, {52, 18}}
	// v ranges per band: the column (band 4) takes the rune half of the
	// texture, the others slices of the plain ashlar half
	vr := [][2]float32{{0.3, 0.45}, {0.26, 0.3}, {0.2, 0.26}, {0.15, 0.2}, {0.52, 0.98}, {0.08, 0.15}, {0.02, 0.08}}
	for i := 0; i+1 < len(prof); i++ {
		ped.frustum(8, prof[i].z, prof[i].r, prof[i+1].z, prof[i+1].r, vr[i][0], vr[i][1])
	}
	ped.disc(8, 52, 18, 0.05, 0.45, true)
	ped.disc(8, 0, 29, 0.05, 0.45, false)
	m.Geosets = append(m.Geosets, ped.g)

	// Crystal: a hexagonal bipyramid, long point up.
	cr := newMesh(matCrystal, dbCrystal)
	cr.bipyramid(6, centre, 11, 25, 15)
	m.Geosets = append(m.Geosets, cr.g)

	// Three shards on the orbit bone, at alternating heights.
	sh := newMesh(matCrystal, dbOrbit)
	for i := 0; i < 3; i++ {
		a := float64(i) * 2 * math.Pi / 3
		c := mdx.Vec3{float32(23 * math.Cos(a)), float32(23 * math.Sin(a)), crystalZ - 2 + float32(4*(i%2))}
		sh.bipyramid(4, c, 4, 7.5, 5)
	}
	m.Geosets = append(m.Geosets, sh.g)

	// Halo: a camera-facing quad behind the crystal. The billboard turns the
	// node's X axis towards the viewer, so the quad lies in the YZ plane.
	halo := newMesh(matHalo, dbHalo)
	halo.quadYZ(centre, 52)
	m.Geosets = append(m.Geosets, halo.g)

	// Blob shadow on the ground.
	shadow := newMesh(matShadow, dbBase)
	shadow.quadXY(mdx.Vec3{0, 0, 0.3}, 80)
	m.Geosets = append(m.Geosets, shadow.g)

	m.GeosetAnims = []mdx.GeosetAnim{
		{GeosetID: 3, Alpha: 1, Color: mdx.Vec3{1, 1, 1}, AlphaTrack: &mdx.Track[float32]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[float32]{
			{Frame: 0, Value: 0.75}, {Frame: 1000, Value: 1}, {Frame: 2000, Value: 0.75},
			{Frame: 3000, Value: 1}, {Frame: 4000, Value: 1},
		}}},
	}

	for i := range m.Geosets {
		fitExtent(&m.Geosets[i])
	}
	m.Extent = m.Geosets[0].Extent
	for _, g := range m.Geosets[1:] {
		for k := 0; k < 3; k++ {
			m.Extent.Min[k] = min(m.Extent.Min[k], g.Extent.Min[k])
			m.Extent.Max[k] = max(m.Extent.Max[k], g.Extent.Max[k])
		}
	}
	// The crystal rises 13 units in Spin; the declared extents allow for it.
	m.Extent.Max[2] += 16
	for i := range m.Geosets {
		m.Geosets[i].SequenceExtents = []mdx.Extent{m.Extent, m.Extent}
	}
	for i := range m.Sequences {
		m.Sequences[i].Extent = m.Extent
	}
	return m
}

type spinSpan struct {
	start, end int32
	turns      int
}

// spinZ is a rotation about Z with a key every quarter turn, so that
// interpolation between unit quaternions never takes the short way back.
func spinZ(spans []spinSpan) *mdx.Track[mdx.Quat] {
	t := &mdx.Track[mdx.Quat]{Interpolation: mdx.Linear, GlobalSeqID: -1}
	for _, s := range spans {
		n := 4 * s.turns
		if n < 0 {
			n = -n
		}
		for i := 0; i <= n; i++ {
			f := s.start + (s.end-s.start)*int32(i)/int32(n)
			a := float64(i) / float64(n) * float64(s.turns) * 2 * math.Pi
			t.Keys = append(t.Keys, mdx.Key[mdx.Quat]{Frame: f, Value: mdx.Quat{0, 0, float32(math.Sin(a / 2)), float32(math.Cos(a / 2))}})
		}
	}
	return t
}

// mesh builds a flat-shaded geoset on one bone: every triangle has its own
// three vertices, so facets catch the light separately.
type mesh struct{ g mdx.Geoset }

func newMesh(mat uint32, bone uint32) *mesh {
	return &mesh{g: mdx.Geoset{MaterialID: mat, MatrixGroups: []uint32{1}, MatrixIndices: []uint32{bone}, FaceTypes: []uint32{4}, FaceGroups: []uint32{0}}}
}

func (m *mesh) tri(p [3]mdx.Vec3, uv [3]mdx.Vec2) {
	a := [3]float64{float64(p[1][0] - p[0][0]), float64(p[1][1] - p[0][1]), float64(p[1][2] - p[0][2])}
	b := [3]float64{float64(p[2][0] - p[0][0]), float64(p[2][1] - p[0][1]), float64(p[2][2] - p[0][2])}
	n := [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
	nv := mdx.Vec3{float32(n[0] / l), float32(n[1] / l), float32(n[2] / l)}
	if len(m.g.UVSets) == 0 {
		m.g.UVSets = [][]mdx.Vec2{nil}
	}
	for k := 0; k < 3; k++ {
		m.g.Faces = append(m.g.Faces, uint16(len(m.g.Vertices)))
		m.g.Vertices = append(m.g.Vertices, p[k])
		m.g.Normals = append(m.g.Normals, nv)
		m.g.VertexGroups = append(m.g.VertexGroups, 0)
		m.g.UVSets[0] = append(m.g.UVSets[0], uv[k])
	}
	m.g.FaceGroups[0] = uint32(len(m.g.Faces))
}

func (m *mesh) quad(p [4]mdx.Vec3, uv [4]mdx.Vec2) {
	m.tri([3]mdx.Vec3{p[0], p[1], p[2]}, [3]mdx.Vec2{uv[0], uv[1], uv[2]})
	m.tri([3]mdx.Vec3{p[0], p[2], p[3]}, [3]mdx.Vec2{uv[0], uv[2], uv[3]})
}

// corner is vertex i of an n-gon of radius r at height z, turned half a
// side so that a flat face looks down the +X axis (the camera's yaw 0).
func corner(n, i int, r, z float32) mdx.Vec3 {
	a := (float64(i) + 0.5) * 2 * math.Pi / float64(n)
	return mdx.Vec3{r * float32(math.Cos(a)), r * float32(math.Sin(a)), z}
}

// frustum is the side of an n-sided prism from (z0, r0) up to (z1, r1);
// u runs once round, v from v0 (top) to v1 (bottom).
func (m *mesh) frustum(n int, z0, r0, z1, r1, v0, v1 float32) {
	for i := 0; i < n; i++ {
		u0, u1 := float32(i)/float32(n), float32(i+1)/float32(n)
		m.quad([4]mdx.Vec3{corner(n, i, r0, z0), corner(n, i+1, r0, z0), corner(n, i+1, r1, z1), corner(n, i, r1, z1)},
			[4]mdx.Vec2{{u0, v1}, {u1, v1}, {u1, v0}, {u0, v0}})
	}
}

// disc closes an n-gon at height z, facing up or down; its texture is the
// square [0.05, 0.45] of u and [v0, v1] of v.
func (m *mesh) disc(n int, z, r, v0, v1 float32, up bool) {
	c := mdx.Vec3{0, 0, z}
	uv := func(p mdx.Vec3) mdx.Vec2 {
		return mdx.Vec2{0.25 + 0.2*p[0]/r, (v0+v1)/2 + (v1-v0)/2*p[1]/r}
	}
	for i := 0; i < n; i++ {
		a, b := corner(n, i, r, z), corner(n, i+1, r, z)
		if !up {
			a, b = b, a
		}
		m.tri([3]mdx.Vec3{c, a, b}, [3]mdx.Vec2{uv(c), uv(a), uv(b)})
	}
}

// bipyramid is an n-sided double pyramid around c: girdle radius r, tips
// up and down above and below c.
func (m *mesh) bipyramid(n int, c mdx.Vec3, r, up, down float32) {
	top := mdx.Vec3{c[0], c[1], c[2] + up}
	bot := mdx.Vec3{c[0], c[1], c[2] - down}
	for i := 0; i < n; i++ {
		a, b := corner(n, i, r, 0), corner(n, i+1, r, 0)
		for k := 0; k < 3; k++ {
			a[k] += c[k]
			b[k] += c[k]
		}
		u0, u1 := float32(i)/float32(n), float32(i+1)/float32(n)
		um := (u0 + u1) / 2
		m.tri([3]mdx.Vec3{a, b, top}, [3]mdx.Vec2{{u0, 0.55}, {u1, 0.55}, {um, 0.02}})
		m.tri([3]mdx.Vec3{b, a, bot}, [3]mdx.Vec2{{u1, 0.55}, {u0, 0.55}, {um, 0.98}})
	}
}

// quadYZ is a size×size square centred at c facing +X.
func (m *mesh) quadYZ(c mdx.Vec3, size float32) {
	h := size / 2
	m.quad([4]mdx.Vec3{{c[0], c[1] - h, c[2] - h}, {c[0], c[1] + h, c[2] - h}, {c[0], c[1] + h, c[2] + h}, {c[0], c[1] - h, c[2] + h}},
		[4]mdx.Vec2{{0, 1}, {1, 1}, {1, 0}, {0, 0}})
}

// quadXY is a size×size square centred at c facing +Z.
func (m *mesh) quadXY(c mdx.Vec3, size float32) {
	h := size / 2
	m.quad([4]mdx.Vec3{{c[0] - h, c[1] - h, c[2]}, {c[0] + h, c[1] - h, c[2]}, {c[0] + h, c[1] + h, c[2]}, {c[0] - h, c[1] + h, c[2]}},
		[4]mdx.Vec2{{0, 1}, {1, 1}, {1, 0}, {0, 0}})
}

func fitExtent(g *mdx.Geoset) {
	mn, mx := g.Vertices[0], g.Vertices[0]
	for _, v := range g.Vertices {
		for k := 0; k < 3; k++ {
			mn[k] = min(mn[k], v[k])
			mx[k] = max(mx[k], v[k])
		}
	}
	g.Extent = mdx.Extent{Min: mn, Max: mx}
}

// hash2 is a small integer hash giving a deterministic value in [0, 1) per
// lattice point (no math/rand, whose streams are not promised forever).
func hash2(x, y, seed int) float64 {
	h := uint32(x)*0x8da6b343 ^ uint32(y)*0xd8163841 ^ uint32(seed)*0xcb1ab31f
	h ^= h >> 13
	h *= 0x5bd1e995
	h ^= h >> 15
	return float64(h&0xffffff) / (1 << 24)
}

// noise is tileable value noise with period p lattice cells.
func noise(x, y float64, p, seed int) float64 {
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	sx, sy := fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	w := func(i, j int) float64 { return hash2(((i%p)+p)%p, ((j%p)+p)%p, seed) }
	a := w(x0, y0) + (w(x0+1, y0)-w(x0, y0))*sx
	b := w(x0, y0+1) + (w(x0+1, y0+1)-w(x0, y0+1))*sx
	return a + (b-a)*sy
}

func fbm(x, y float64, p, seed int) float64 {
	v, amp, tot := 0.0, 1.0, 0.0
	for o := 0; o < 4; o++ {
		v += amp * noise(x, y, p, seed+o)
		tot += amp
		amp /= 2
		x, y, p = x*2, y*2, p*2
	}
	return v / tot
}

func clamp8(v float64) uint8 { return uint8(math.Max(0, math.Min(255, math.Round(v)))) }

// stoneTexture is 256×256: the top half plain ashlar (4 courses of
// blocks), the bottom half the column's rune band, one rune per face of
// the octagon (32 px each); rune strokes are transparent.
func stoneTexture() *image.NRGBA {
	const S = 256
	img := image.NewNRGBA(image.Rect(0, 0, S, S))
	for y := 0; y < S; y++ {
		for x := 0; x < S; x++ {
			fx, fy := float64(x)/S, float64(y)/S
			n := fbm(fx*8, fy*8, 8, 1)
			base := [3]float64{136, 122, 104}
			shade := 0.72 + 0.5*n
			// block joints in the top half only: 4 courses, 4 blocks each,
			// alternate courses offset by half a block
			if y < S/2 {
				course := y / 32
				bx := (x + (course%2)*32) % 64
				by := y % 32
				d := math.Min(math.Min(float64(bx), float64(63-bx)), math.Min(float64(by), float64(31-by)))
				if d < 2 {
					shade *= 0.55 + 0.2*d
				}
				// each block a slightly different tone
				blk := hash2((x+(course%2)*32)/64, course, 7)
				shade *= 0.9 + 0.2*blk
			} else {
				// rune band: a bevelled border at the top and bottom
				by := y - S/2
				if by < 5 || by > S/2-6 {
					shade *= 0.8
				}
			}
			img.SetNRGBA(x, y, color.NRGBA{clamp8(base[0] * shade), clamp8(base[1] * shade), clamp8(base[2] * shade), 255})
		}
	}
	// Runes: strokes in a 0-1 box, one glyph per 32-px face.
	glyphs := [8][][4]float64{
		{{0.5, 0, 0.5, 1}, {0.5, 0.15, 0.9, 0.45}, {0.5, 0.45, 0.9, 0.75}},                               // fehu-like
		{{0.2, 0, 0.2, 1}, {0.2, 0, 0.8, 0.35}, {0.8, 0.35, 0.8, 1}},                                     // uruz
		{{0.5, 0, 0.5, 1}, {0.1, 0.3, 0.5, 0.55}, {0.9, 0.3, 0.5, 0.55}},                                 // algiz turned
		{{0.25, 0, 0.25, 1}, {0.75, 0, 0.75, 1}, {0.25, 0.3, 0.75, 0.7}},                                 // hagalaz
		{{0.5, 0, 0.5, 1}, {0.1, 0.1, 0.5, 0.4}, {0.9, 0.1, 0.5, 0.4}},                                   // algiz
		{{0.3, 0, 0.3, 1}, {0.3, 0.15, 0.8, 0.35}, {0.8, 0.35, 0.3, 0.55}},                               // thurisaz
		{{0.2, 0.15, 0.8, 0.85}, {0.8, 0.15, 0.2, 0.85}, {0.5, 0, 0.5, 1}},                               // star
		{{0.5, 0.05, 0.15, 0.5}, {0.15, 0.5, 0.5, 0.95}, {0.5, 0.95, 0.85, 0.5}, {0.85, 0.5, 0.5, 0.05}}, // ingwaz
	}
	for f, g := range glyphs {
		x0, y0, w, h := float64(f*32)+5, float64(S/2)+20, 22.0, 88.0
		for y := S / 2; y < S; y++ {
			for x := f * 32; x < f*32+32; x++ {
				d := math.Inf(1)
				px, py := float64(x)+0.5, float64(y)+0.5
				for _, s := range g {
					d = math.Min(d, segDist(px, py, x0+s[0]*w, y0+s[1]*h, x0+s[2]*w, y0+s[3]*h))
				}
				// a 6-px stroke with a soft edge and a darker rim
				c := img.NRGBAAt(x, y)
				if d < 3.8 {
					c.A = clamp8(255 * math.Max(0, math.Min(1, d-2.6)/1.2))
				}
				if d < 6 {
					k := 0.55 + 0.45*math.Max(0, d-3.8)/2.2
					c.R, c.G, c.B = clamp8(float64(c.R)*k), clamp8(float64(c.G)*k), clamp8(float64(c.B)*k)
				}
				img.SetNRGBA(x, y, c)
			}
		}
	}
	return img
}

func segDist(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := ((px-ax)*dx + (py-ay)*dy) / (dx*dx + dy*dy)
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(px-(ax+t*dx), py-(ay+t*dy))
}

// crystalTexture is 64×128: pale cyan at the tips fading to deep blue at
// the girdle, with faint diagonal veins.
func crystalTexture() *image.NRGBA {
	const W, H = 64, 128
	img := image.NewNRGBA(image.Rect(0, 0, W, H))
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			v := float64(y) / (H - 1)
			// distance from the girdle (v = 0.55) towards either tip
			t := math.Abs(v-0.55) / 0.55
			lo := [3]float64{40, 90, 230}
			hi := [3]float64{190, 250, 255}
			vein := 0.5 + 0.5*math.Sin(float64(x)*0.35+float64(y)*0.22+4*fbm(float64(x)/16, float64(y)/16, 4, 3))
			k := math.Pow(t, 0.8)*0.85 + 0.15*vein
			var c [3]float64
			for i := range c {
				c[i] = lo[i] + (hi[i]-lo[i])*k
			}
			img.SetNRGBA(x, y, color.NRGBA{clamp8(c[0]), clamp8(c[1]), clamp8(c[2]), 255})
		}
	}
	return img
}

// glowTexture is a 64×64 radial glow: white at the centre through cyan to
// transparent at the rim.
func glowTexture() *image.NRGBA {
	const S = 64
	img := image.NewNRGBA(image.Rect(0, 0, S, S))
	for y := 0; y < S; y++ {
		for x := 0; x < S; x++ {
			r := math.Hypot(float64(x)+0.5-S/2, float64(y)+0.5-S/2) / (S / 2)
			a := math.Max(0, 1-r)
			a = a * a
			w := math.Max(0, 1-2*r) // white core
			img.SetNRGBA(x, y, color.NRGBA{clamp8(90 + 165*w), clamp8(200 + 55*w), 255, clamp8(255 * a)})
		}
	}
	return img
}

// shadowTexture is a 32×32 soft black disc, 70 % opaque out to 70 % of
// its radius (the pedestal covers that much), then fading out.
func shadowTexture() *image.NRGBA {
	const S = 32
	img := image.NewNRGBA(image.Rect(0, 0, S, S))
	for y := 0; y < S; y++ {
		for x := 0; x < S; x++ {
			r := math.Hypot(float64(x)+0.5-S/2, float64(y)+0.5-S/2) / (S / 2)
			t := math.Max(0, math.Min(1, (r-0.7)/0.3))
			img.SetNRGBA(x, y, color.NRGBA{0, 0, 0, clamp8(180 * (1 - t*t*(3-2*t)))})
		}
	}
	return img
}
