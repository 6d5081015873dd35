package raster

import "sort"

// DrawItem is what the draw order depends on for one drawable: a geoset
// layer batch (listed in geoset, then layer order) or an emitter.
type DrawItem struct {
	// Emitter marks particle emitters, ribbons and event objects; they are
	// always translucent and their Filter is ignored.
	Emitter       bool
	Filter        FilterMode
	PriorityPlane int
}

// DrawOrder returns the indices of items in the order to draw them
// (RENDERING.md §6.2, mdx-m3-viewer's setupGroups): first every opaque batch
// (filter None or Transparent) in the given order; then the translucent
// batches stable-sorted by filter mode, followed by the emitters in the given
// order, and that whole list stable-sorted by priority plane. So translucent
// things end up ordered by priority plane, then (batches before emitters)
// filter mode, then creation order. Triangles are never depth-sorted.
//
// Skipping batches whose geoset or layer alpha is ≤ 0.01 is the caller's job:
// it happens per frame, while this order depends only on the model.
func DrawOrder(items []DrawItem) []int {
	order := make([]int, 0, len(items))
	var trans, emit []int
	for i, it := range items {
		switch {
		case it.Emitter:
			emit = append(emit, i)
		case it.Filter.Opaque():
			order = append(order, i)
		default:
			trans = append(trans, i)
		}
	}
	sort.SliceStable(trans, func(a, b int) bool {
		return items[trans[a]].Filter.Normalize() < items[trans[b]].Filter.Normalize()
	})
	trans = append(trans, emit...)
	sort.SliceStable(trans, func(a, b int) bool {
		return items[trans[a]].PriorityPlane < items[trans[b]].PriorityPlane
	})
	return append(order, trans...)
}

// SkipAlpha is the geoset or layer alpha at or below which the reference
// viewer skips a batch entirely (RENDERING.md §15.5). The caller decides per
// frame with Visible, before building batches; the rasteriser itself draws
// whatever it is given.
const SkipAlpha = 0.01

// Visible reports whether a batch with these animated alphas is drawn.
func Visible(geosetAlpha, layerAlpha float32) bool {
	return geosetAlpha > SkipAlpha && layerAlpha > SkipAlpha
}
