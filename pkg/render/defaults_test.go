package render

import (
	"context"
	"image"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/raster"
)

// The defaults a person sees first (docs/rendering.md#camera-and-framing,
// #missing-textures): an effect framed with its particles over its
// sequence, missing textures drawn so that the form reads, particles whose
// texture is missing left out, and sheets framed per sequence.

// plumeModel is an effect without geometry: smoke rising from (0, 0, 40)
// and spreading as it fades, to 24/255 at the end of its 1.5 s life, over
// a looping 1 s Stand. Its texture is the generated team glow, a disc.
func plumeModel() *mdx.Model {
	m := fixtureBase("plume")
	e := pre2("Smoke")
	e.Speed, e.Variation, e.Latitude, e.Gravity = 50, 0.2, 12, -10
	e.LifeSpan, e.EmissionRate, e.Time = 1.5, 20, 0.3
	e.FilterMode = 0 // Blend
	e.SegmentColors = [3]mdx.Vec3{{1, 0.7, 0.3}, {0.6, 0.6, 0.6}, {0.4, 0.4, 0.4}}
	e.SegmentAlphas = [3]uint8{255, 180, 24}
	e.SegmentScaling = mdx.Vec3{6, 14, 24}
	e.TextureID = texGlow
	addPRE2(m, e, 0, mdx.Vec3{0, 0, 40})
	return m
}

// picture draws one still of a with v and says where the origin lands.
func picture(t *testing.T, a *Animator, v View, seq int, ms float64) Picture {
	t.Helper()
	pics, _, err := a.RenderPictures(context.Background(), v, []Frame{{Sequence: seq, Time: ms, Yaw: v.Yaw}})
	if err != nil {
		t.Fatal(err)
	}
	return pics[0]
}

// An effect's default stills, at any moment of its sequence, keep
// everything that shows off the picture's edge, faint smoke at the top of
// the plume included, fill a fair part of the picture, and share one
// camera (the origin lands on the same pixel), as the frames of a sheet
// of the sequence do.
func TestEffectFramedOverItsSequence(t *testing.T) {
	m := plumeModel()
	path := filepath.Join(modelsDir, "plume.mdl")
	a := NewAnimator(m, path, besideModel(path, nil))
	var origin [2]float64
	for i, ms := range []float64{0, 250, 500, 750} {
		p := picture(t, a, View{}, 0, ms)
		shown := opaqueBounds(p.Image, 16)
		if shown.Empty() {
			t.Fatalf("%g ms: nothing drawn", ms)
		}
		if !shown.In(p.Image.Rect.Inset(1)) {
			t.Errorf("%g ms: what shows (%v) touches the edge", ms, shown)
		}
		if span := max(shown.Dx(), shown.Dy()); span < DefaultSize/2 {
			t.Errorf("%g ms: the plume spans %d pixels of %d", ms, span, DefaultSize)
		}
		if i == 0 {
			origin = p.Origin
		} else if p.Origin != origin {
			t.Errorf("%g ms: the origin is at %v, at 0 ms at %v: the stills of one sequence are framed differently", ms, p.Origin, origin)
		}
	}
	// Render, the library's still, gives the same picture.
	img, _, err := a.Render(View{Time: Ms(500)})
	if err != nil {
		t.Fatal(err)
	}
	if p := picture(t, NewAnimator(m, path, besideModel(path, nil)), View{}, 0, 500); !samePixels(img, p.Image) {
		t.Error("Render and RenderPictures draw the still differently")
	}
}

// stockModel is a unit whose only texture is one of the game's own files,
// missing here: a sphere on a box, on an Unshaded layer, which the
// reference viewer's white stand-in draws as a flat white silhouette.
func stockModel() *mdx.Model {
	m := &mdx.Model{Version: 800, Name: "Stock"}
	m.Sequences = []mdx.Sequence{{Name: "Stand", Interval: [2]uint32{0, 1000}}}
	m.Textures = []mdx.Texture{{Path: `Textures\Footman.blp`}}
	addBone(m, "Root", -1, mdx.Vec3{}, 0)
	mat := addMaterial(m, 0, layer(mdx.FilterNone, 0, mdx.LayerUnshaded))
	body := cube(20, 0)
	body.MaterialID = mat
	head := hdSphere(mdx.Vec3{0, 0, 58}, 18, 16, 24, mat)
	head.Tangents = nil
	m.Geosets = []mdx.Geoset{body, head}
	return finish(m)
}

// greyStats returns the mean and standard deviation of the grey level of
// the pixels with alpha 255, and whether every one of them is grey.
func greyStats(img *image.NRGBA) (mean, sd float64, grey bool, n int) {
	grey = true
	var sum, sq float64
	for i := 0; i < len(img.Pix); i += 4 {
		p := img.Pix[i : i+4 : i+4]
		if p[3] != 255 {
			continue
		}
		n++
		grey = grey && p[0] == p[1] && p[1] == p[2]
		v := float64(p[0])
		sum += v
		sq += v * v
	}
	if n == 0 {
		return 0, 0, false, 0
	}
	mean = sum / float64(n)
	return mean, math.Sqrt(max(0, sq/float64(n)-mean*mean)), grey, n
}

// A model whose texture is missing is drawn in a lit mid-grey, even on an
// Unshaded layer, so its form reads: the grey varies across the
// silhouette. MissingWhite keeps the reference viewer's flat white. The
// missing texture is one warning of one line naming the model's path,
// with the places looked in beside it.
func TestMissingStockTexturesShaded(t *testing.T) {
	m := stockModel()
	path := filepath.Join(t.TempDir(), "Stock.mdx")
	img, warns, err := renderAt(m, path, View{Yaw: 20, Pitch: 10})
	if err != nil {
		t.Fatal(err)
	}
	mean, sd, grey, n := greyStats(img)
	t.Logf("grey: %d pixels, mean %.1f, sd %.1f", n, mean, sd)
	if !grey || n < 5000 || mean < 70 || mean > 170 || sd < 15 {
		t.Errorf("%d silhouette pixels, grey %v, mean %.1f, sd %.1f: want a lit mid-grey whose shading varies", n, grey, mean, sd)
	}
	var missing []Warning
	for _, w := range warns {
		if w.Code == MissingTexture {
			missing = append(missing, w)
		}
	}
	if len(missing) != 1 {
		t.Fatalf("%d missing-texture warnings, want 1: %v", len(missing), warns)
	}
	w := missing[0]
	if !strings.Contains(w.Message, `Textures\\Footman.blp`) || strings.ContainsAny(w.Message, "\n") || strings.Contains(w.Message, "looked for") {
		t.Errorf("message %q: want one line naming the path, the places looked in apart", w.Message)
	}
	if len(w.Searched) == 0 || !strings.Contains(strings.Join(w.Searched, " "), "Footman.blp") {
		t.Errorf("searched %q: want the places looked in", w.Searched)
	}

	white, _, err := renderAt(m, path, View{Yaw: 20, Pitch: 10, MissingTextures: MissingWhite})
	if err != nil {
		t.Fatal(err)
	}
	mean, sd, grey, n = greyStats(white)
	if !grey || n < 5000 || mean != 255 || sd != 0 {
		t.Errorf("MissingWhite: %d pixels, mean %.1f, sd %.1f: want the viewer's flat white", n, mean, sd)
	}
}

// emitterMissingModel is an effect whose particle emitter and ribbon both
// name textures that are missing.
func emitterMissingModel() *mdx.Model {
	m := fixtureBase("glow_missing")
	m.Textures = append(m.Textures, mdx.Texture{Path: `Textures\GenericGlow2_32.blp`})
	missing := int32(len(m.Textures) - 1)
	e := pre2("Glow")
	e.TextureID, e.FilterMode = missing, 1 // Additive
	e.Speed, e.Latitude, e.EmissionRate = 20, 180, 30
	addPRE2(m, e, 0, mdx.Vec3{0, 0, 30})
	mat := addMaterial(m, 0, layer(mdx.FilterAdditive, missing, mdx.LayerTwoSided))
	m.RibbonEmitters = []mdx.RibbonEmitter{{
		Node: mdx.Node{Name: "Trail", ObjectID: int32(len(m.Bones) + len(m.ParticleEmitters2)), ParentID: 0, Flags: mdx.NodeRibbonEmitter,
			Translation: &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{
				{Frame: 0, Value: mdx.Vec3{0, 0, 0}}, {Frame: 1000, Value: mdx.Vec3{0, 0, 80}}}}},
		HeightAbove: 10, HeightBelow: 10, Alpha: 1, Color: mdx.Vec3{1, 1, 1},
		LifeSpan: 0.5, EmissionRate: 30, Rows: 1, Columns: 1, MaterialID: int32(mat),
	}}
	m.PivotPoints = append(m.PivotPoints, mdx.Vec3{0, 0, 20})
	return m
}

// Particles and ribbons whose texture is missing are not drawn: the
// picture is empty and says why; MissingWhite draws the reference
// viewer's white squares and strips.
func TestMissingParticleTextureNotDrawn(t *testing.T) {
	m := emitterMissingModel()
	path := filepath.Join(t.TempDir(), "glow_missing.mdx")
	img, warns, err := renderAt(m, path, View{Time: Ms(500)})
	if err != nil {
		t.Fatal(err)
	}
	var missing, blank bool
	for _, w := range warns {
		missing = missing || w.Code == MissingTexture && strings.Contains(w.Message, "GenericGlow2_32.blp")
		blank = blank || w.Code == BlankPicture
	}
	if !Blank(img) || !missing || !blank {
		t.Errorf("blank %v, warnings %v: want nothing drawn, the missing texture and the blank picture warned about", Blank(img), warns)
	}
	for _, off := range []struct {
		name string
		edit func(*mdx.Model)
	}{{"particles", func(m *mdx.Model) { m.RibbonEmitters = nil }}, {"ribbon", func(m *mdx.Model) { m.ParticleEmitters2 = nil }}} {
		m := emitterMissingModel()
		off.edit(m)
		img, _, err := renderAt(m, path, View{Time: Ms(500), MissingTextures: MissingWhite})
		if err != nil {
			t.Fatal(err)
		}
		if shown := opaqueBounds(img, 128); shown.Dx() < 10 || shown.Dy() < 10 {
			t.Errorf("MissingWhite, %s only: drawn %v, want white squares", off.name, shown)
		}
	}
}

// swingModel is a post on a ground plate: in Stand it sways a little; in
// Attack an arm swings out to four times its reach.
func swingModel() *mdx.Model {
	m := &mdx.Model{Version: 800, Name: "Swing"}
	m.Sequences = []mdx.Sequence{
		{Name: "Stand", Interval: [2]uint32{0, 1000}},
		{Name: "Attack", Interval: [2]uint32{2000, 3000}},
	}
	m.Textures = []mdx.Texture{{ReplaceableID: 1}}
	addBone(m, "Root", -1, mdx.Vec3{}, 0)
	arm := addBone(m, "Arm", 0, mdx.Vec3{0, 0, 50}, 0)
	arm.Translation = &mdx.Track[mdx.Vec3]{Interpolation: mdx.Linear, GlobalSeqID: -1, Keys: []mdx.Key[mdx.Vec3]{
		{Frame: 0, Value: mdx.Vec3{0, 0, 0}}, {Frame: 500, Value: mdx.Vec3{0, 5, 0}}, {Frame: 1000, Value: mdx.Vec3{0, 0, 0}},
		{Frame: 2000, Value: mdx.Vec3{0, 0, 0}}, {Frame: 2500, Value: mdx.Vec3{0, 150, 0}}, {Frame: 3000, Value: mdx.Vec3{0, -150, 0}},
	}}
	mat := addMaterial(m, 0, layer(mdx.FilterNone, 0, 0))
	post := cube(10, 0)
	post.MaterialID = mat
	hand := cube(8, 42)
	hand.MaterialID = mat
	hand.MatrixGroups, hand.MatrixIndices = []uint32{1}, []uint32{1}
	m.Geosets = []mdx.Geoset{post, hand}
	return finish(m)
}

// A sheet's sequences are framed each on its own: the little sway of
// Stand fills its frames as the wide swing of Attack fills its own, and
// within a sequence the camera and the origin stay put. With FrameShared
// one camera holds both, and Stand is small.
func TestSequencesFramedOnTheirOwn(t *testing.T) {
	m := swingModel()
	path := filepath.Join(t.TempDir(), "Swing.mdx")
	var frames []Frame
	for seq := range 2 {
		for k := range 4 {
			frames = append(frames, Frame{Sequence: seq, Time: float64(k) * 250})
		}
	}
	const size = 128
	fill := func(fr RunFraming) [2]float64 {
		pics, _, err := NewAnimator(m, path, besideModel(path, nil)).RenderPictures(context.Background(), View{Width: size, RunFraming: fr}, frames)
		if err != nil {
			t.Fatal(err)
		}
		var out [2]float64
		for seq := range 2 {
			var union image.Rectangle
			for i, p := range pics[4*seq : 4*seq+4] {
				shown := opaqueBounds(p.Image, 16)
				if !shown.In(p.Image.Rect.Inset(1)) {
					t.Errorf("%v: %s frame %d touches the edge: %v", fr, m.Sequences[seq].Name, i, shown)
				}
				if p.Origin != pics[4*seq].Origin {
					t.Errorf("%v: %s: the origin moves within the sequence", fr, m.Sequences[seq].Name)
				}
				union = union.Union(opaqueBounds(p.Image, 1))
			}
			out[seq] = float64(max(union.Dx(), union.Dy())) / size
		}
		return out
	}
	own := fill(FramePerSequence)
	for seq, f := range own {
		if f < 0.85 {
			t.Errorf("per sequence: %s fills %.0f%% of its frames' side, want at least 85%%", m.Sequences[seq].Name, 100*f)
		}
	}
	shared := fill(FrameShared)
	if shared[0] > 0.6 || shared[1] < 0.85 {
		t.Errorf("shared: Stand fills %.0f%%, Attack %.0f%%: want Stand small beside the swing", 100*shared[0], 100*shared[1])
	}
}

// A Reforged unit's animations each fill their preview: eight sequences,
// four frames each, every preview's frames together spanning at least 85%
// of the side with nothing that shows on its edge.
func TestReforgedPreviewsFill(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 32 frames of a Reforged unit")
	}
	m, p := corpusModel(t, "TheScourgeSlayer/map.w3x/units/human/rifleman/rifleman.mdx")
	const size, n = 128, 4
	var frames []Frame
	for seq := range min(8, len(m.Sequences)) {
		s := m.Sequences[seq]
		for k := range n {
			frames = append(frames, Frame{Sequence: seq, Time: float64(k) * float64(s.Interval[1]-s.Interval[0]) / n})
		}
	}
	pics, _, err := NewAnimator(m, p, besideModel(p, nil)).RenderPictures(context.Background(), View{Width: size}, frames)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(pics); i += n {
		var union image.Rectangle
		for _, pic := range pics[i : i+n] {
			if shown := opaqueBounds(pic.Image, 16); !shown.In(pic.Image.Rect.Inset(1)) {
				t.Errorf("%s: a frame touches the edge: %v", m.Sequences[frames[i].Sequence].Name, shown)
			}
			union = union.Union(opaqueBounds(pic.Image, 1))
		}
		f := float64(max(union.Dx(), union.Dy())) / size
		t.Logf("%s: %.0f%%", m.Sequences[frames[i].Sequence].Name, 100*f)
		if f < 0.85 {
			t.Errorf("%s fills %.0f%% of its preview's side, want at least 85%%", m.Sequences[frames[i].Sequence].Name, 100*f)
		}
	}
}

// The stand-in layers of one geoset draw one array of grey vertices: a
// model without its textures (the usual case without the game's files)
// copied its vertices once per layer, and the rasteriser set the same
// triangles up again for each.
func TestStandInLayersShareVertices(t *testing.T) {
	m := stockModel()
	m.Materials[0].Layers = append(m.Materials[0].Layers, layer(mdx.FilterBlend, 0, mdx.LayerTwoSided), layer(mdx.FilterAdditive, 0, 0))
	path := filepath.Join(t.TempDir(), "Stock.mdx")
	opt := View{Yaw: 20, Pitch: 10}
	r, err := NewAnimator(m, path, besideModel(path, nil)).newFrame(context.Background(), &opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.draw(); err != nil {
		t.Fatal(err)
	}
	bs, err := r.batches(r.cam.ViewProjection(1), opt.light())
	if err != nil {
		t.Fatal(err)
	}
	shared := map[*raster.Vertex]int{}
	for i, b := range bs {
		if b.Texture != nil || !b.VertexColor || len(b.Vertices) == 0 {
			t.Fatalf("batch %d: texture %v, vertex colour %v, %d vertices: want the stand-in's", i, b.Texture, b.VertexColor, len(b.Vertices))
		}
		shared[&b.Vertices[0]]++
	}
	// Two geosets of one material of three layers.
	if len(bs) != 6 || len(shared) != 2 {
		t.Errorf("%d batches drawing %d vertex arrays, want 6 drawing 2 (one per geoset)", len(bs), len(shared))
	}
}
