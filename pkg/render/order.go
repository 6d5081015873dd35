package render

import (
	"sort"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// drawItem is what the draw order depends on for one drawable: a geoset
// layer batch (listed in geoset, then layer order) or an emitter.
type drawItem struct {
	// emitter marks particle emitters, ribbons and spawned models' particle
	// quads; they are always translucent and their filter is ignored.
	emitter       bool
	filter        mdx.FilterMode
	priorityPlane int
}

// drawOrder returns the indices of items in the order to draw them, the
// reference viewer's (docs/rendering.md#draw-order-and-priority-planes):
// first every opaque batch (filter None or Transparent) in the given
// order; then the translucent batches stable-sorted by filter mode,
// followed by the emitters in the given order, and that whole list
// stable-sorted by priority plane. So translucent things end up ordered
// by priority plane, then (batches before emitters) filter mode, then
// creation order. Triangles are never depth-sorted.
//
// Skipping batches whose geoset or layer alpha is ≤ skipAlpha is the
// caller's job: it happens per frame, while this order depends only on the
// model.
func drawOrder(items []drawItem) []int {
	order := make([]int, 0, len(items))
	var trans, emit []int
	for i, it := range items {
		switch {
		case it.emitter:
			emit = append(emit, i)
		case opaqueFilter(it.filter):
			order = append(order, i)
		default:
			trans = append(trans, i)
		}
	}
	sort.SliceStable(trans, func(a, b int) bool {
		return normalizeFilter(items[trans[a]].filter) < normalizeFilter(items[trans[b]].filter)
	})
	trans = append(trans, emit...)
	sort.SliceStable(trans, func(a, b int) bool {
		return items[trans[a]].priorityPlane < items[trans[b]].priorityPlane
	})
	return append(order, trans...)
}

// skipAlpha is the geoset or layer alpha at or below which the reference
// viewer skips a batch entirely.
const skipAlpha = 0.01

// visible reports whether a batch with these animated alphas is drawn.
func visible(geosetAlpha, layerAlpha float32) bool {
	return geosetAlpha > skipAlpha && layerAlpha > skipAlpha
}
