package batch

import (
	"maps"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/render"
)

// TestSummaryCountsWarningCodes: the summary counts warnings by code, so
// a reader learns how many pictures lack a texture or a PopcornFX effect
// without reading every model's list.
func TestSummaryCountsWarningCodes(t *testing.T) {
	m := &Manifest{Models: []ModelResult{
		{Input: "a", Status: StatusOK, Warnings: []Warning{{Code: render.PopcornNotDrawn}, {Code: render.MissingTexture}}},
		{Input: "b", Status: StatusOK, Warnings: []Warning{{Code: render.PopcornNotDrawn}}},
		{Input: "c", Status: StatusOK},
	}}
	m.summarize()
	want := map[string]int{"popcorn": 2, "missing-texture": 1}
	if m.Summary.Warnings != 3 || !maps.Equal(m.Summary.WarningCodes, want) {
		t.Errorf("summary %+v, want 3 warnings counted as %v", m.Summary, want)
	}
}
