package batch

import (
	"strings"
	"testing"
)

// The icon page shows what a model's names and messages hold, escaped
// and clipped, as the gallery does; its links are escaped per segment.
func TestIconPageEscapesNames(t *testing.T) {
	m := hostileManifest()
	unit := m.Models[0]
	unit.Status, unit.Errors = StatusOK, nil
	unit.Icons = &IconResult{Unit: true, Why: "it has Stand and \"Walk\x1b[2J\" animations", Name: "x<b>", Framing: "the camera \u202eA"}
	unit.Warnings = append(unit.Warnings, Warning{Code: IconNameTaken, Message: "its icons are named \"x<b>_2\"\r\x1b[K"})
	unit.Outputs = []OutputFile{
		{Kind: KindIcon, Path: "icons/ReplaceableTextures/CommandButtons/BTNx #?.blp", Icon: "BTN", Size: 64},
		{Kind: KindIconPNG, Path: "icons/ReplaceableTextures/CommandButtons/BTNx #?.png", Icon: "BTN", Size: 64},
	}
	other := m.Models[0]
	other.Input, other.Status, other.Errors = "b\x07.mdx", StatusOK, nil
	other.Icons = &IconResult{Why: "no geometry \u202e"}
	failed := m.Models[0]
	failed.Input = "c.mdx"
	m.Models = []ModelResult{unit, other, failed}
	b, err := IconPage(m)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, r := range page {
		if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 || r == 0x202e {
			t.Errorf("raw %U", r)
			break
		}
	}
	if strings.Contains(page, "<script>") || strings.Contains(page, "x<b>") {
		t.Error("markup let through")
	}
	for _, want := range []string{`\x1b[2J\x1b]0;owned\x07\u202egnp.mdx`, `src="icons/ReplaceableTextures/CommandButtons/BTNx%20%23%3F.png"`,
		`href="icons/ReplaceableTextures/CommandButtons/BTNx%20%23%3F.blp"`, `b\x07.mdx`, "c.mdx", `no geometry \u202e`, "1 unit model, 1 icon; 1 other model (not units), 1 failed", "(the first of 30 errors; the manifest has them all)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s:\n%.3000s", want, page)
		}
	}
	if len(page) > 200_000 {
		t.Errorf("%d bytes", len(page))
	}
}
