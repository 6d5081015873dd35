package render

import (
	"testing"

	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/raster"
)

func TestLayerStateTable(t *testing.T) {
	// The reference viewer's filter-mode table (docs/rendering.md#filter-modes).
	cases := []struct {
		mode mdx.FilterMode
		want raster.State
	}{
		{mdx.FilterNone, raster.State{Blend: raster.BlendReplace, DepthTest: true, DepthWrite: true, Lit: true, Ambient: 0.7}},
		{mdx.FilterTransparent, raster.State{Blend: raster.BlendReplace, AlphaTest: true, AlphaRef: 0.75, DepthTest: true, DepthWrite: true, Lit: true, Ambient: 0.7}},
		{mdx.FilterBlend, raster.State{Blend: raster.BlendOver, DepthTest: true, Lit: true, Ambient: 0.7}},
		{mdx.FilterAdditive, raster.State{Blend: raster.BlendAdd, DepthTest: true, Lit: true, Ambient: 0.7}},
		{mdx.FilterAddAlpha, raster.State{Blend: raster.BlendAdd, DepthTest: true, Lit: true, Ambient: 0.7}},
		{mdx.FilterModulate, raster.State{Blend: raster.BlendModulate, AlphaTest: true, AlphaRef: 0.02, DepthTest: true, Lit: true, Ambient: 0.7}},
		{mdx.FilterModulate2x, raster.State{Blend: raster.BlendModulate2x, AlphaTest: true, AlphaRef: 0.02, DepthTest: true, Lit: true, Ambient: 0.7}},
		{mdx.FilterMode(7), raster.State{Blend: raster.BlendOver, DepthTest: true, Lit: true, Ambient: 0.7}},
		{mdx.FilterMode(1 << 31), raster.State{Blend: raster.BlendOver, DepthTest: true, Lit: true, Ambient: 0.7}},
	}
	for _, c := range cases {
		if got := layerState(c.mode, 0); got != c.want {
			t.Errorf("mode %d: got %+v, want %+v", c.mode, got, c.want)
		}
	}
	s := layerState(mdx.FilterNone, mdx.LayerUnshaded|mdx.LayerTwoSided|mdx.LayerNoDepthSet)
	if s.Lit || s.Cull != raster.CullNone || s.DepthWrite || !s.DepthTest {
		t.Errorf("Unshaded|TwoSided|NoDepthSet: %+v", s)
	}
	s = layerState(mdx.FilterTransparent, mdx.LayerNoDepthTest)
	if s.DepthTest || s.DepthWrite || !s.Lit || s.Cull != raster.CullBack {
		t.Errorf("NoDepthTest: %+v", s)
	}
	// Flags that must not change anything.
	if layerState(mdx.FilterBlend, mdx.LayerSphereEnvMap|mdx.LayerUnfogged) != layerState(mdx.FilterBlend, 0) {
		t.Error("SphereEnvMap/Unfogged changed the state")
	}
}

func TestEmitterState(t *testing.T) {
	cases := []struct {
		mode uint32
		want raster.State
	}{
		{emitterBlend, raster.State{Blend: raster.BlendOver, DepthTest: true, Cull: raster.CullNone}},
		{emitterAdditive, raster.State{Blend: raster.BlendAdd, DepthTest: true, Cull: raster.CullNone}},
		{emitterModulate, raster.State{Blend: raster.BlendModulate, AlphaTest: true, AlphaRef: 0.02, DepthTest: true, Cull: raster.CullNone}},
		{emitterModulate2x, raster.State{Blend: raster.BlendModulate2x, AlphaTest: true, AlphaRef: 0.02, DepthTest: true, Cull: raster.CullNone}},
		{emitterAlphaKey, raster.State{Blend: raster.BlendOver, AlphaTest: true, AlphaRef: 0.75, DepthTest: true, Cull: raster.CullNone}},
		{9, raster.State{Blend: raster.BlendOver, DepthTest: true, Cull: raster.CullNone}},
	}
	for _, c := range cases {
		if got := emitterState(c.mode); got != c.want {
			t.Errorf("mode %d: got %+v, want %+v", c.mode, got, c.want)
		}
	}
}

func TestDrawOrder(t *testing.T) {
	items := []drawItem{
		0: {filter: mdx.FilterAdditive},
		1: {filter: mdx.FilterNone},
		2: {filter: mdx.FilterBlend, priorityPlane: 1},
		3: {filter: mdx.FilterTransparent},
		4: {filter: mdx.FilterBlend},
		5: {emitter: true, priorityPlane: 0},
		6: {filter: mdx.FilterModulate, priorityPlane: -2},
		7: {filter: mdx.FilterMode(9)}, // treated as Blend
		8: {emitter: true, priorityPlane: -2},
		9: {filter: mdx.FilterAdditive, priorityPlane: 1},
	}
	// Opaque in order; then plane -2: batch 6, emitter 8; plane 0: Blend 4, 7,
	// Additive 0, emitter 5; plane 1: Blend 2, Additive 9.
	want := []int{1, 3, 6, 8, 4, 7, 0, 5, 2, 9}
	got := drawOrder(items)
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestVisible(t *testing.T) {
	for _, c := range []struct {
		g, l float32
		want bool
	}{{1, 1, true}, {0.01, 1, false}, {1, 0.01, false}, {0.011, 0.5, true}, {0, 0, false}} {
		if got := visible(c.g, c.l); got != c.want {
			t.Errorf("Visible(%v, %v) = %v", c.g, c.l, got)
		}
	}
}
