package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/testmodel"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// The fixture models in testdata/models show one rendering feature each.
// They are MDL text generated from the Go below (UPDATE_FIXTURES=1 go test
// -run TestFixtureModels ./pkg/render rewrites them and their two TGA
// textures); the golden test renders the MDL files as checked in.

var (
	modelsDir = filepath.Join("..", "..", "testdata", "models")
	goldenDir = filepath.Join("..", "..", "testdata", "golden")
)

const (
	texChecker = iota // fixture_checker.tga
	texStripes        // fixture_stripes.tga
	texTeam           // replaceable 1
	texGlow           // replaceable 2
)

// fixtureBase has one looping sequence (0-1000), one non-looping one
// (2000-3000), one bone at the origin and the four textures above.
func fixtureBase(name string) *mdx.Model {
	m := &mdx.Model{Version: 800, Name: name, BlendTime: 150}
	m.Sequences = []mdx.Sequence{
		{Name: "Stand", Interval: [2]uint32{0, 1000}},
		{Name: "Attack", Interval: [2]uint32{2000, 3000}, Flags: mdx.SeqNonLooping},
	}
	m.Textures = []mdx.Texture{
		{Path: `Textures\fixture_checker.tga`},
		{Path: `Textures\fixture_stripes.tga`, Flags: mdx.TexWrapWidth | mdx.TexWrapHeight},
		{ReplaceableID: 1},
		{ReplaceableID: 2},
	}
	addBone(m, "Root", -1, mdx.Vec3{}, 0)
	return m
}

func addBone(m *mdx.Model, name string, parent int32, pivot mdx.Vec3, flags uint32) *mdx.Bone {
	id := int32(len(m.Bones))
	m.Bones = append(m.Bones, mdx.Bone{Node: mdx.Node{Name: name, ObjectID: id, ParentID: parent, Flags: flags | mdx.NodeBone}, GeosetID: -1, GeosetAnimID: -1})
	m.PivotPoints = append(m.PivotPoints, pivot)
	return &m.Bones[id]
}

func layer(mode mdx.FilterMode, tex int32, flags uint32) mdx.Layer {
	return mdx.Layer{FilterMode: mode, TextureID: tex, TextureAnimID: -1, Alpha: 1, Flags: flags}
}

func addMaterial(m *mdx.Model, prio int32, layers ...mdx.Layer) uint32 {
	m.Materials = append(m.Materials, mdx.Material{PriorityPlane: prio, Layers: layers})
	return uint32(len(m.Materials) - 1)
}

// quad is a w×h rectangle centred at c facing +X (in the YZ plane), or
// facing +Z (in the XY plane) when up is true; all vertices on bone.
func quad(c mdx.Vec3, w, h float32, up bool, mat uint32, bone uint32) mdx.Geoset {
	g := mdx.Geoset{MaterialID: mat, MatrixGroups: []uint32{1}, MatrixIndices: []uint32{bone}}
	n := mdx.Vec3{1, 0, 0}
	if up {
		n = mdx.Vec3{0, 0, 1}
	}
	for _, k := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		p := c
		if up {
			p[0] -= k[1] * h / 2
			p[1] += k[0] * w / 2
		} else {
			p[1] += k[0] * w / 2
			p[2] += k[1] * h / 2
		}
		g.Vertices = append(g.Vertices, p)
		g.Normals = append(g.Normals, n)
		g.VertexGroups = append(g.VertexGroups, 0)
	}
	g.UVSets = [][]mdx.Vec2{{{0, 1}, {1, 1}, {1, 0}, {0, 0}}}
	g.Faces = []uint16{0, 1, 2, 0, 2, 3}
	g.FaceTypes = []uint32{4}
	g.FaceGroups = []uint32{6}
	fixExtent(&g)
	return g
}

// box is an axis-aligned box of half-size h centred at c, on bone.
func box(c mdx.Vec3, h float32, mat uint32, bone uint32) mdx.Geoset {
	g := cube(h, 0)
	g.MaterialID = mat
	g.MatrixIndices = []uint32{bone}
	for i := range g.Vertices {
		g.Vertices[i][0] += c[0]
		g.Vertices[i][1] += c[1]
		g.Vertices[i][2] += c[2] - h
	}
	fixExtent(&g)
	return g
}

func fixExtent(g *mdx.Geoset) {
	if len(g.Vertices) == 0 {
		return
	}
	mn, mx := g.Vertices[0], g.Vertices[0]
	for _, v := range g.Vertices {
		for k := 0; k < 3; k++ {
			mn[k] = min(mn[k], v[k])
			mx[k] = max(mx[k], v[k])
		}
	}
	g.Extent = mdx.Extent{Min: mn, Max: mx}
}

func finish(m *mdx.Model) *mdx.Model {
	first := true
	for _, g := range m.Geosets {
		if first {
			m.Extent.Min, m.Extent.Max = g.Extent.Min, g.Extent.Max
			first = false
		}
		for k := 0; k < 3; k++ {
			m.Extent.Min[k] = min(m.Extent.Min[k], g.Extent.Min[k])
			m.Extent.Max[k] = max(m.Extent.Max[k], g.Extent.Max[k])
		}
	}
	for i := range m.Sequences {
		m.Sequences[i].Extent = m.Extent
	}
	return m
}

func lin[T mdx.TrackValue](keys ...mdx.Key[T]) *mdx.Track[T] {
	return &mdx.Track[T]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: keys}
}

func k[T mdx.TrackValue](f int32, v T) mdx.Key[T] { return mdx.Key[T]{Frame: f, Value: v} }

func qz(deg float64) mdx.Quat {
	r := deg * math.Pi / 180
	return mdx.Quat{0, 0, float32(math.Sin(r / 2)), float32(math.Cos(r / 2))}
}

func qaxis(axis mdx.Vec3, deg float64) mdx.Quat {
	r := deg * math.Pi / 180
	s := float32(math.Sin(r / 2))
	return mdx.Quat{axis[0] * s, axis[1] * s, axis[2] * s, float32(math.Cos(r / 2))}
}

// fixture is one model plus the render options of its golden image.
type fixture struct {
	name string
	m    *mdx.Model
	opt  View
}

var front = View{Width: 96, Yaw: 0, Pitch: 0, Background: &color.NRGBA{40, 40, 48, 255}, Particles: Particles{Off: true}}

func withOpt(o View, f func(*View)) View { f(&o); return o }

func fixtures() []fixture {
	var fs []fixture

	// Every filter mode: seven checker quads in a row over an opaque
	// stripes backdrop; mode i at y = (i-3)·12.
	{
		m := fixtureBase("filter_modes")
		back := addMaterial(m, 0, layer(mdx.FilterNone, texStripes, 0))
		m.Geosets = append(m.Geosets, quad(mdx.Vec3{-5, 0, 20}, 90, 40, false, back, 0))
		for i := 0; i < 7; i++ {
			mat := addMaterial(m, 0, layer(mdx.FilterMode(i), texChecker, 0))
			m.Geosets = append(m.Geosets, quad(mdx.Vec3{0, float32(i-3) * 12, 20}, 10, 30, false, mat, 0))
		}
		fs = append(fs, fixture{"filter_modes", finish(m), withOpt(front, func(o *View) {
			o.Width, o.Height = 160, 96
			o.Target = &fauxgl.Vector{X: 0, Y: 0, Z: 20}
			o.Distance = 75
		})})
	}
	// TwoSided: two quads facing away from the camera (-X); only the
	// TwoSided one (left) is drawn.
	{
		m := fixtureBase("two_sided")
		two := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, mdx.LayerTwoSided))
		one := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, 0))
		for i, mat := range []uint32{two, one} {
			g := quad(mdx.Vec3{0, float32(i*2-1) * 15, 20}, 25, 25, false, mat, 0)
			g.Faces = []uint16{0, 2, 1, 0, 3, 2} // clockwise from +X
			m.Geosets = append(m.Geosets, g)
		}
		fs = append(fs, fixture{"two_sided", finish(m), front})
	}
	// NoDepthTest / NoDepthSet: left, a Blend quad behind an opaque one
	// with NoDepthTest shows through; right, an opaque NoDepthSet quad in
	// front lets the quad behind it (drawn later) cover it.
	{
		m := fixtureBase("depth_flags")
		opaque := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, 0))
		noTest := addMaterial(m, 0, layer(mdx.FilterBlend, texStripes, mdx.LayerNoDepthTest))
		noSet := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, mdx.LayerNoDepthSet))
		behind := addMaterial(m, 0, layer(mdx.FilterNone, texStripes, 0))
		m.Geosets = append(m.Geosets,
			quad(mdx.Vec3{10, -15, 20}, 24, 24, false, opaque, 0),
			quad(mdx.Vec3{-10, -12, 14}, 24, 24, false, noTest, 0),
			quad(mdx.Vec3{10, 15, 20}, 24, 24, false, noSet, 0),
			quad(mdx.Vec3{-10, 18, 14}, 24, 24, false, behind, 0))
		fs = append(fs, fixture{"depth_flags", finish(m), front})
	}
	// Unshaded: two boxes from above-front; the right one's layer is
	// Unshaded, so its side faces are not darkened to 70%.
	{
		m := fixtureBase("unshaded")
		lit := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, 0))
		flat := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, mdx.LayerUnshaded))
		m.Geosets = append(m.Geosets, box(mdx.Vec3{0, -14, 10}, 10, lit, 0), box(mdx.Vec3{0, 14, 10}, 10, flat, 0))
		fs = append(fs, fixture{"unshaded", finish(m), withOpt(front, func(o *View) { o.Yaw, o.Pitch = 30, 30 })})
	}
	// Priority planes: two overlapping Blend quads at the same depth; the
	// first geoset has the higher priority plane, so it is drawn last and
	// ends up on top.
	{
		m := fixtureBase("priority_planes")
		hi := addMaterial(m, 2, layer(mdx.FilterBlend, texChecker, 0))
		lo := addMaterial(m, 1, layer(mdx.FilterBlend, texStripes, 0))
		m.Geosets = append(m.Geosets, quad(mdx.Vec3{0, -8, 20}, 30, 30, false, hi, 0), quad(mdx.Vec3{0, 8, 20}, 30, 30, false, lo, 0))
		fs = append(fs, fixture{"priority_planes", finish(m), front})
	}
	// Billboards: quads on bones that are full, X-, Y- and Z-locked
	// billboards, seen from yaw 50, pitch 35. Each quad faces +X at rest.
	{
		m := fixtureBase("billboards")
		mat := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, mdx.LayerTwoSided))
		for i, fl := range []uint32{mdx.NodeBillboarded, mdx.NodeBillboardedLockX, mdx.NodeBillboardedLockY, mdx.NodeBillboardedLockZ} {
			c := mdx.Vec3{0, float32(i-1)*22 - 11, 20}
			addBone(m, fmt.Sprintf("Billboard%d", i), -1, c, fl)
			m.Geosets = append(m.Geosets, quad(c, 16, 16, false, mat, uint32(i+1)))
		}
		fs = append(fs, fixture{"billboards", finish(m), withOpt(front, func(o *View) { o.Yaw, o.Pitch = 50, 35 })})
	}
	// DontInherit flags: the root turns 90° about Z and scales 1.5 and
	// moves +10 in Z at 500 ms; children (boxes) that ignore its
	// translation, rotation or scaling, and one that inherits everything.
	{
		m := fixtureBase("dont_inherit")
		root := &m.Bones[0]
		root.Rotation = lin(k(0, qz(0)), k(1000, qz(180)))
		root.Scaling = lin(k(0, mdx.Vec3{1, 1, 1}), k(1000, mdx.Vec3{2, 2, 2}))
		root.Translation = lin(k(0, mdx.Vec3{}), k(1000, mdx.Vec3{0, 0, 20}))
		mat := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, 0))
		for i, fl := range []uint32{0, mdx.NodeDontInheritTranslation, mdx.NodeDontInheritRotation, mdx.NodeDontInheritScaling} {
			c := mdx.Vec3{0, float32(i)*14 - 21, 8}
			addBone(m, fmt.Sprintf("Child%d", i), 0, c, fl)
			m.Geosets = append(m.Geosets, box(c, 4, mat, uint32(i+1)))
		}
		fs = append(fs, fixture{"dont_inherit", finish(m), withOpt(front, func(o *View) { o.Time = Ms(500); o.Yaw, o.Pitch = 20, 25; o.Fit = FitExtent })})
	}
	// Matrix groups of 1, 4 and 6 bones: three columns of a strip; bone b
	// lifts by 4·b, so the columns rise by the group's average.
	{
		m := fixtureBase("matrix_groups")
		for b := 1; b <= 6; b++ {
			bn := addBone(m, fmt.Sprintf("Lift%d", b), -1, mdx.Vec3{}, 0)
			bn.Translation = lin(k(0, mdx.Vec3{0, 0, float32(4 * b)}))
		}
		mat := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, mdx.LayerTwoSided))
		g := mdx.Geoset{MaterialID: mat, MatrixGroups: []uint32{1, 4, 6}, MatrixIndices: []uint32{1, 1, 2, 3, 4, 1, 2, 3, 4, 5, 6}}
		var uvs []mdx.Vec2
		for col := 0; col < 3; col++ {
			base := uint16(len(g.Vertices))
			y := float32(col-1) * 20
			for _, c := range [4][2]float32{{-8, 0}, {8, 0}, {8, 20}, {-8, 20}} {
				g.Vertices = append(g.Vertices, mdx.Vec3{0, y + c[0], c[1]})
				g.Normals = append(g.Normals, mdx.Vec3{1, 0, 0})
				g.VertexGroups = append(g.VertexGroups, uint8(col))
				uvs = append(uvs, mdx.Vec2{(c[0] + 8) / 16, 1 - c[1]/20})
			}
			g.Faces = append(g.Faces, base, base+1, base+2, base, base+2, base+3)
		}
		g.UVSets = [][]mdx.Vec2{uvs}
		g.FaceTypes, g.FaceGroups = []uint32{4}, []uint32{uint32(len(g.Faces))}
		fixExtent(&g)
		m.Geosets = append(m.Geosets, g)
		fs = append(fs, fixture{"matrix_groups", finish(m), withOpt(front, func(o *View) { o.Fit = FitExtent; o.Target = &fauxgl.Vector{X: 0, Y: 0, Z: 25}; o.Distance = 110 })})
	}
	// Reforged SKIN weights (version 1000): a strip whose top vertices are
	// weighted 100%, 50% and 0% to a bone that moves up 15.
	{
		m := fixtureBase("skin_weights")
		m.Version = 1000
		bn := addBone(m, "Up", -1, mdx.Vec3{}, 0)
		bn.Translation = lin(k(0, mdx.Vec3{0, 0, 15}))
		mat := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, mdx.LayerTwoSided))
		g := quad(mdx.Vec3{0, 0, 10}, 40, 20, false, mat, 0)
		g.Vertices = append(g.Vertices, mdx.Vec3{0, 0, 20})
		g.Normals = append(g.Normals, mdx.Vec3{1, 0, 0})
		g.VertexGroups = append(g.VertexGroups, 0)
		g.UVSets[0] = append(g.UVSets[0], mdx.Vec2{0.5, 0})
		g.Faces = []uint16{0, 1, 2, 0, 4, 3, 0, 2, 4}
		g.FaceGroups = []uint32{9}
		w := func(up uint8) []byte { return []byte{1, 0, 0, 0, up, 255 - up, 0, 0} }
		for _, up := range []uint8{0, 0, 255, 0, 128} {
			g.Skin = append(g.Skin, w(up)...)
		}
		g.Tangents = make([]mdx.Vec4, len(g.Vertices))
		fixExtent(&g)
		m.Geosets = append(m.Geosets, g)
		fs = append(fs, fixture{"skin_weights", finish(m), withOpt(front, func(o *View) { o.Target = &fauxgl.Vector{X: 0, Y: 0, Z: 20}; o.Distance = 90 })})
	}
	// Geoset animation: left box fades (KGAO) to 0.6 at 500 ms; middle box
	// a static colour (R,G,B in the file: red); right box an animated
	// colour whose key (B,G,R in the file) (0.2, 0.6, 1) is orange.
	{
		m := fixtureBase("geoset_anim")
		mat := addMaterial(m, 0, layer(mdx.FilterBlend, texChecker, 0))
		for i := 0; i < 3; i++ {
			m.Geosets = append(m.Geosets, box(mdx.Vec3{0, float32(i-1) * 22, 10}, 9, mat, 0))
		}
		m.GeosetAnims = []mdx.GeosetAnim{
			{Alpha: 1, Color: mdx.Vec3{1, 1, 1}, GeosetID: 0, AlphaTrack: lin(k[float32](0, 1), k[float32](1000, 0.2))},
			{Alpha: 1, Color: mdx.Vec3{1, 0.3, 0.3}, Flags: mdx.GeoaUseColor, GeosetID: 1},
			{Alpha: 1, Color: mdx.Vec3{1, 1, 1}, Flags: mdx.GeoaUseColor, GeosetID: 2,
				ColorTrack: lin(k(0, mdx.Vec3{0.2, 0.6, 1}))},
		}
		fs = append(fs, fixture{"geoset_anim", finish(m), withOpt(front, func(o *View) { o.Time = Ms(500); o.Yaw, o.Pitch = 20, 20 })})
	}
	// Layer alpha: a Blend quad over a None quad, KMTA 1 → 0 in Stand; at
	// 250 ms it is at 0.75.
	{
		m := fixtureBase("layer_alpha")
		l := layer(mdx.FilterBlend, texStripes, 0)
		l.AlphaTrack = lin(k[float32](0, 1), k[float32](1000, 0))
		mat := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, 0), l)
		m.Geosets = append(m.Geosets, quad(mdx.Vec3{0, 0, 20}, 40, 40, false, mat, 0))
		fs = append(fs, fixture{"layer_alpha", finish(m), withOpt(front, func(o *View) { o.Time = Ms(250) })})
	}
	// Texture animation: translation, rotation and scaling (one quad each,
	// left to right), at 250 ms of Stand.
	{
		m := fixtureBase("texture_anim")
		m.TextureAnims = []mdx.TextureAnim{
			{Translation: lin(k(0, mdx.Vec3{}), k(1000, mdx.Vec3{1, 0, 0}))},
			{Rotation: lin(k(0, qz(0)), k(500, qz(90)), k(1000, qz(180)))},
			{Scaling: lin(k(0, mdx.Vec3{1, 1, 1}), k(1000, mdx.Vec3{5, 5, 5}))},
		}
		for i := 0; i < 3; i++ {
			l := layer(mdx.FilterNone, texStripes, 0)
			l.TextureAnimID = int32(i)
			mat := addMaterial(m, 0, l)
			m.Geosets = append(m.Geosets, quad(mdx.Vec3{0, float32(i-1) * 22, 20}, 20, 20, false, mat, 0))
		}
		fs = append(fs, fixture{"texture_anim", finish(m), withOpt(front, func(o *View) { o.Time = Ms(250) })})
	}
	// Flipbook: KMTF switches checker → stripes at 500 ms (linear in the
	// file, stepped when rendered); golden at 700 ms shows stripes.
	{
		m := fixtureBase("flipbook")
		l := layer(mdx.FilterNone, texChecker, 0)
		l.TextureIDTrack = lin(k[uint32](0, texChecker), k[uint32](500, texStripes))
		mat := addMaterial(m, 0, l)
		m.Geosets = append(m.Geosets, quad(mdx.Vec3{0, 0, 20}, 40, 40, false, mat, 0))
		fs = append(fs, fixture{"flipbook", finish(m), withOpt(front, func(o *View) { o.Time = Ms(700) })})
	}
	// Team colour and glow, team 1 (blue): a unit-style box (team colour
	// under the checker's alpha) and an additive glow quad above it.
	{
		m := fixtureBase("team_color")
		body := addMaterial(m, 0, layer(mdx.FilterNone, texTeam, 0), layer(mdx.FilterBlend, texChecker, 0))
		glow := addMaterial(m, 0, layer(mdx.FilterAdditive, texGlow, mdx.LayerUnshaded|mdx.LayerTwoSided))
		m.Geosets = append(m.Geosets, box(mdx.Vec3{0, 0, 12}, 12, body, 0), quad(mdx.Vec3{0, 0, 0.5}, 50, 50, true, glow, 0))
		fs = append(fs, fixture{"team_color", finish(m), withOpt(front, func(o *View) { o.Team = texture.Player(1); o.Yaw, o.Pitch = 30, 35 })})
	}
	// Global sequence: a bone spinning once per 2000 ms of a global
	// sequence; at 250 ms (phase 250) the quad is turned 45°.
	{
		m := fixtureBase("global_sequence")
		m.GlobalSequences = []uint32{2000}
		m.Bones[0].Rotation = &mdx.Track[mdx.Quat]{Interpolation: mdx.Linear, GlobalSeqID: 0, Keys: []mdx.Key[mdx.Quat]{
			k(0, qz(0)), k(1000, qz(180)), k(2000, qz(360))}}
		mat := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, mdx.LayerTwoSided))
		m.Geosets = append(m.Geosets, quad(mdx.Vec3{0, 0, 20}, 30, 30, false, mat, 0))
		fs = append(fs, fixture{"global_sequence", finish(m), withOpt(front, func(o *View) { o.Time = Ms(250); o.Fit = FitExtent; o.Yaw, o.Pitch = 0, 40 })})
	}
	// Hermite and Bezier tracks: two boxes move up 30 over Stand with
	// linear, Hermite and Bezier translation (tangents overshoot); at
	// 300 ms they stand at different heights.
	{
		m := fixtureBase("hermite_bezier")
		mat := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, 0))
		for i, kind := range []mdx.Interpolation{mdx.Linear, mdx.Hermite, mdx.Bezier} {
			bn := addBone(m, kind.String(), -1, mdx.Vec3{}, 0)
			bn.Translation = &mdx.Track[mdx.Vec3]{Interpolation: kind, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{
				{Frame: 0, Value: mdx.Vec3{}, OutTan: mdx.Vec3{0, 0, 60}},
				{Frame: 1000, Value: mdx.Vec3{0, 0, 30}, InTan: mdx.Vec3{0, 0, 60}}}}
			m.Geosets = append(m.Geosets, box(mdx.Vec3{0, float32(i-1) * 18, 6}, 6, mat, uint32(i+1)))
		}
		fs = append(fs, fixture{"hermite_bezier", finish(m), withOpt(front, func(o *View) {
			o.Time = Ms(300)
			o.Target = &fauxgl.Vector{X: 0, Y: 0, Z: 25}
			o.Distance = 110
		})})
	}
	// Portrait camera: a CAMS camera above-left of a box, its position
	// animated (KCTR) and its target offset (KTTR); rendered with --camera.
	{
		m := fixtureBase("portrait_camera")
		mat := addMaterial(m, 0, layer(mdx.FilterNone, texChecker, 0))
		m.Geosets = append(m.Geosets, box(mdx.Vec3{0, 0, 10}, 10, mat, 0))
		m.Cameras = []mdx.Camera{{Name: "Portrait", Position: mdx.Vec3{60, 20, 40}, TargetPosition: mdx.Vec3{0, 0, 10},
			FieldOfView: 0.7853982, NearClip: 1, FarClip: 1000,
			Translation:       lin(k(0, mdx.Vec3{}), k(1000, mdx.Vec3{0, -40, 0})),
			TargetTranslation: lin(k(0, mdx.Vec3{0, 0, 0}), k(1000, mdx.Vec3{0, 0, 8}))}}
		fs = append(fs, fixture{"portrait_camera", finish(m), withOpt(front, func(o *View) { o.Camera = "Portrait"; o.Time = Ms(500) })})
	}
	return fs
}

// writeTGA writes an uncompressed 32-bit top-left TGA with the TGA 2.0
// footer (the reference viewer needs the footer).
func writeTGA(path string, img *image.NRGBA) error {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	var b bytes.Buffer
	hdr := make([]byte, 18)
	hdr[2] = 2
	binary.LittleEndian.PutUint16(hdr[12:], uint16(w))
	binary.LittleEndian.PutUint16(hdr[14:], uint16(h))
	hdr[16] = 32
	hdr[17] = 0x28 // 8 alpha bits, top-left origin
	b.Write(hdr)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := img.NRGBAAt(x, y)
			b.Write([]byte{c.B, c.G, c.R, c.A})
		}
	}
	b.Write(make([]byte, 8))
	b.WriteString("TRUEVISION-XFILE.\x00")
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// fixtureTextures: a checker of four coloured quadrants (red, green, blue,
// white top-left to bottom-right) with a transparent hole ring, and
// diagonal yellow/purple stripes.
func fixtureTextures() map[string]*image.NRGBA {
	ck := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	st := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	quads := [4]color.NRGBA{{220, 40, 40, 255}, {40, 200, 60, 255}, {50, 80, 230, 255}, {235, 235, 235, 255}}
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			c := quads[(y/32)*2+x/32]
			if (x/8+y/8)%2 == 1 {
				c.R, c.G, c.B = c.R/2, c.G/2, c.B/2
			}
			dx, dy := float64(x)-31.5, float64(y)-31.5
			if d := math.Hypot(dx, dy); d > 10 && d < 16 {
				c.A = 0
			} else if d >= 16 && d < 20 {
				c.A = 128
			}
			ck.SetNRGBA(x, y, c)
			s := color.NRGBA{240, 210, 40, 255}
			if ((x+y)/8)%2 == 1 {
				s = color.NRGBA{110, 40, 150, 255}
			}
			st.SetNRGBA(x, y, s)
		}
	}
	return map[string]*image.NRGBA{"fixture_checker.tga": ck, "fixture_stripes.tga": st}
}

// TestFixtureModels checks that every fixture MDL decodes to the model the
// generator builds (so the files and this description agree), and
// rewrites them with UPDATE_FIXTURES=1.
func TestFixtureModels(t *testing.T) {
	if golden.UpdateFixtures() {
		if err := os.MkdirAll(filepath.Join(modelsDir, "Textures"), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, img := range fixtureTextures() {
			if err := writeTGA(filepath.Join(modelsDir, "Textures", name), img); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range fixtures() {
		header := "// mdxrender fixture " + f.name + ": generated by pkg/render/fixtures_test.go\n// (UPDATE_FIXTURES=1 go test -run TestFixtureModels ./pkg/render).\n"
		testmodel.CheckFixture(t, filepath.Join(modelsDir, f.name+".mdl"), header, f.m)
	}
}
