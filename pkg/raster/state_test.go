package raster

import "testing"

func TestLayerStateTable(t *testing.T) {
	// Expected values transcribed from RENDERING.md §6.1.
	cases := []struct {
		mode FilterMode
		want State
	}{
		{FilterNone, State{Blend: BlendReplace, DepthTest: true, DepthWrite: true, Lit: true}},
		{FilterTransparent, State{Blend: BlendReplace, AlphaTest: true, AlphaRef: 0.75, DepthTest: true, DepthWrite: true, Lit: true}},
		{FilterBlend, State{Blend: BlendOver, DepthTest: true, Lit: true}},
		{FilterAdditive, State{Blend: BlendAdd, DepthTest: true, Lit: true}},
		{FilterAddAlpha, State{Blend: BlendAdd, DepthTest: true, Lit: true}},
		{FilterModulate, State{Blend: BlendModulate, AlphaTest: true, AlphaRef: 0.02, DepthTest: true, Lit: true}},
		{FilterModulate2x, State{Blend: BlendModulate2x, AlphaTest: true, AlphaRef: 0.02, DepthTest: true, Lit: true}},
		{FilterMode(7), State{Blend: BlendOver, DepthTest: true, Lit: true}},
		{FilterMode(1 << 31), State{Blend: BlendOver, DepthTest: true, Lit: true}},
	}
	for _, c := range cases {
		if got := LayerState(c.mode, 0); got != c.want {
			t.Errorf("mode %d: got %+v, want %+v", c.mode, got, c.want)
		}
	}
	s := LayerState(FilterNone, FlagUnshaded|FlagTwoSided|FlagNoDepthSet)
	if s.Lit || s.Cull != CullNone || s.DepthWrite || !s.DepthTest {
		t.Errorf("Unshaded|TwoSided|NoDepthSet: %+v", s)
	}
	s = LayerState(FilterTransparent, FlagNoDepthTest)
	if s.DepthTest || s.DepthWrite || !s.Lit || s.Cull != CullBack {
		t.Errorf("NoDepthTest: %+v", s)
	}
	// Flags that must not change anything.
	if LayerState(FilterBlend, FlagSphereEnvMap|FlagUnfogged) != LayerState(FilterBlend, 0) {
		t.Error("SphereEnvMap/Unfogged changed the state")
	}
}

func TestEmitterState(t *testing.T) {
	cases := []struct {
		mode EmitterFilterMode
		want State
	}{
		{EmitterBlend, State{Blend: BlendOver, DepthTest: true, Cull: CullNone}},
		{EmitterAdditive, State{Blend: BlendAdd, DepthTest: true, Cull: CullNone}},
		{EmitterModulate, State{Blend: BlendModulate, AlphaTest: true, AlphaRef: 0.02, DepthTest: true, Cull: CullNone}},
		{EmitterModulate2x, State{Blend: BlendModulate2x, AlphaTest: true, AlphaRef: 0.02, DepthTest: true, Cull: CullNone}},
		{EmitterAlphaKey, State{Blend: BlendOver, AlphaTest: true, AlphaRef: 0.75, DepthTest: true, Cull: CullNone}},
		{EmitterFilterMode(9), State{Blend: BlendOver, DepthTest: true, Cull: CullNone}},
	}
	for _, c := range cases {
		if got := EmitterState(c.mode); got != c.want {
			t.Errorf("mode %d: got %+v, want %+v", c.mode, got, c.want)
		}
	}
}

func TestDrawOrder(t *testing.T) {
	items := []DrawItem{
		0: {Filter: FilterAdditive},
		1: {Filter: FilterNone},
		2: {Filter: FilterBlend, PriorityPlane: 1},
		3: {Filter: FilterTransparent},
		4: {Filter: FilterBlend},
		5: {Emitter: true, PriorityPlane: 0},
		6: {Filter: FilterModulate, PriorityPlane: -2},
		7: {Filter: FilterMode(9)}, // treated as Blend
		8: {Emitter: true, PriorityPlane: -2},
		9: {Filter: FilterAdditive, PriorityPlane: 1},
	}
	// Opaque in order; then plane -2: batch 6, emitter 8; plane 0: Blend 4, 7,
	// Additive 0, emitter 5; plane 1: Blend 2, Additive 9.
	want := []int{1, 3, 6, 8, 4, 7, 0, 5, 2, 9}
	got := DrawOrder(items)
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
		if got := Visible(c.g, c.l); got != c.want {
			t.Errorf("Visible(%v, %v) = %v", c.g, c.l, got)
		}
	}
}
