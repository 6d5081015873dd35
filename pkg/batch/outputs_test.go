package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Sheets: with several yaws every direction gets its own previews; a
// sheet larger than sheet.max_size is split into pages whose metadata
// name each other; each metadata format asked for is written; the batch
// names no camera of its own for a portrait (the renderer's rule,
// render.DefaultCamera, chooses it as for every other entry point); and a
// sheet whose frames show nothing says so.
func TestSheetOutputs(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{
		"models/unit.mdx":          "seq Stand 0 1000\nseq Walk 1000 1600\n",
		"models/hero_portrait.mdx": "seq Talk 0 1000\n",
		"models/fx.mdx":            "seq Birth 0 400\nemptybefore 100000\n",
	})
	c := options(dir, func(o *Options) {
		o.Inputs.Dirs = []string{"models"}
		o.Output = Output{Dir: "out", Name: "{name}", Formats: []Format{FormatPNG, FormatSheet, FormatGIF}, Gallery: true}
		o.Render.Size = Square(64)
		o.Sequences.Select = SelectAll
		o.Sheet.Frames, o.Sheet.Yaws, o.Sheet.MaxSize = 4, []float64{0, 90}, 64
		o.Sheet.Metadata = []Metadata{MetaTexturePacker, MetaGodot}
	})
	fr := &fakeRenderer{}
	m, err := runAll(&Runner{Options: c, Renderer: fr, Version: "test"}, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	files := map[string]bool{}
	for _, r := range m.Models {
		if r.Status != StatusOK {
			t.Fatalf("%s: %s %v", r.Input, r.Status, r.Errors)
		}
		for _, o := range r.Outputs {
			files[o.Path] = true
		}
	}
	for _, want := range []string{
		"unit-Stand_000.gif", "unit-Stand_090.gif", "unit-Walk_000.gif", "unit-Walk_090.gif",
		"unit-sheet-0.png", "unit-sheet-3.png", "unit-sheet-0.json", "unit-sheet-3.json", "unit-sheet.tres",
	} {
		if !files[want] {
			t.Errorf("no %s among %v", want, files)
		}
	}
	for f := range files {
		if strings.Contains(f, "aseprite") || strings.Contains(f, "plain") {
			t.Errorf("%s written, but sheet.metadata does not ask for it", f)
		}
	}
	a, _ := os.ReadFile(filepath.Join(out, "unit-Walk_000.gif"))
	b, _ := os.ReadFile(filepath.Join(out, "unit-Walk_090.gif"))
	if len(a) == 0 || string(a) == string(b) {
		t.Error("the previews of two directions are the same")
	}
	// Four animations of four trimmed frames (discs of about 28 pixels)
	// do not fit one page of 64: one page each, every one naming the
	// three others.
	for p := range 4 {
		var tp struct {
			Frames map[string]struct{ Trimmed bool }
			Meta   struct {
				Image   string
				Size    struct{ W, H int }
				Related []string `json:"related_multi_packs"`
			}
		}
		name := fmt.Sprintf("unit-sheet-%d.json", p)
		raw, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &tp); err != nil {
			t.Fatal(err)
		}
		if len(tp.Meta.Related) != 3 || slices.Contains(tp.Meta.Related, name) || tp.Meta.Size.W > 64 || tp.Meta.Size.H > 64 || len(tp.Frames) != 4 {
			t.Errorf("page %d: %d frames, meta %+v", p, len(tp.Frames), tp.Meta)
		}
		for n, f := range tp.Frames {
			if !f.Trimmed {
				t.Errorf("frame %s not trimmed", n)
			}
		}
	}
	for _, r := range m.Models {
		var blank bool
		for _, w := range r.Warnings {
			blank = blank || strings.Contains(w.Message, "frames of the sheet of view default show nothing")
		}
		if blank != (r.Rel == "fx.mdx") {
			t.Errorf("%s: warnings %v", r.Rel, r.Warnings)
		}
	}
	for rel, cams := range fr.cameras {
		for _, cam := range cams {
			if cam != "" {
				t.Errorf("%s drawn through camera %q: the batch chose a camera of its own", rel, cam)
			}
		}
	}

	// Frames larger than a page fail the model, naming the limit.
	c.Render.Size, c.Force = Square(128), true
	c.Views = nil
	m, err = runAll(&Runner{Options: c, Renderer: fr, Version: "test"}, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Models {
		if r.Status != StatusFailed || !strings.Contains(strings.Join(r.Errors, ";"), "a page of at most 64") {
			t.Errorf("%s: %s %v", r.Rel, r.Status, r.Errors)
		}
	}
}
