package batch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/render"
)

// A still's time lands on a whole model ms within its sequence (the
// forms of render.time are read in internal/forms).
func TestStillTime(t *testing.T) {
	for _, c := range []struct {
		in         render.Time
		start, end uint32
		want       uint32
	}{
		{render.Time{}, 100, 900, 100},
		{render.Ms(0), 100, 900, 100},
		{render.Ms(250), 100, 900, 350},
		{render.Ms(0.6), 100, 900, 101},  // whole ms, rounded
		{render.Ms(5000), 100, 900, 900}, // past the end: the end
		{render.Share(0.5), 100, 900, 500},
		{render.Share(1), 100, 900, 900},
		{render.Share(0.125), 0, 1000, 125},
		{render.Share(0.5), 300, 300, 300}, // empty sequence
	} {
		if got := stillAt(c.in, c.start, c.end); got != c.want {
			t.Errorf("%v in [%d, %d]: %d, want %d", c.in, c.start, c.end, got, c.want)
		}
	}
}

// render.time moves the batch's still into its sequence (a number of ms or
// a share), an override changes it per model, and the manifest records it
// (a bad value is in TestConfigErrorsNameKeyAndLine in cmd/mdxrender).
func TestStillTimeInBatch(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, map[string]string{
		"models/units/footman.mdx":   "seq Stand 1000 2000\n",
		"models/effects/spell.mdx":   "seq Birth 0 400 once\nemptybefore 100\n",
		"models/doodads/rock.mdx":    "\n",
		"models/units/longwalk.mdx":  "seq Stand 0 100\n",
		"models/effects/instant.mdx": "seq Stand 50 50\n",
	})
	var warnings map[string][]Warning
	run := func(edit func(o *Options)) map[string]OutputFile {
		t.Helper()
		warnings = map[string][]Warning{}
		os.RemoveAll(filepath.Join(dir, "out"))
		c := options(dir, func(o *Options) {
			o.Inputs.Dirs, o.Output.Dir, o.Render.Size = []string{"models"}, "out", Square(16)
			if edit != nil {
				edit(o)
			}
		})
		m, err := runAll(&Runner{Options: c, Renderer: &fakeRenderer{}, Version: "test"}, context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]OutputFile{}
		for _, r := range m.Models {
			if r.Status != "ok" {
				t.Fatalf("%s: %s %v", r.Rel, r.Status, r.Errors)
			}
			warnings[r.Rel] = r.Warnings
			for _, o := range r.Outputs {
				if o.Kind == string(FormatPNG) {
					out[r.Rel] = o
				}
			}
		}
		return out
	}
	start := run(nil)
	if o := start["units/footman.mdx"]; o.Sequence != "Stand" || o.TimeMs != 0 {
		t.Errorf("default still: %+v, want Stand at 0", o)
	}
	// The effect draws nothing at its start: a warning says so and why.
	if w := warnings["effects/spell.mdx"]; len(w) != 1 || w[0].Code != "blank" || !strings.Contains(w[0].Message, "Birth at 0 ms") || !strings.Contains(w[0].Message, "render.time") {
		t.Errorf("blank still: warnings %+v, want one \"blank\" naming Birth at 0 ms and render.time", w)
	}
	if w := warnings["units/footman.mdx"]; len(w) != 0 {
		t.Errorf("footman: unexpected warnings %+v", w)
	}
	startPNG, err := os.ReadFile(filepath.Join(dir, "out", filepath.FromSlash(start["units/footman.mdx"].Path)))
	if err != nil {
		t.Fatal(err)
	}

	got := run(func(o *Options) {
		o.Render.Time = render.Ms(250)
		o.Overrides = []Override{{Match: "effects/**", Render: RenderPatch{Time: ptr(render.Share(0.5))}}}
	})
	for rel, want := range map[string]uint32{
		"units/footman.mdx":   250,
		"units/longwalk.mdx":  100, // clamped to the sequence end
		"effects/spell.mdx":   200, // the override's 50% of 400 ms
		"effects/instant.mdx": 0,
		"doodads/rock.mdx":    0, // bind pose: no sequence
	} {
		if o := got[rel]; o.TimeMs != want {
			t.Errorf("%s: still at %d ms, want %d (%+v)", rel, o.TimeMs, want, o)
		}
	}
	if w := warnings["effects/spell.mdx"]; len(w) != 0 {
		t.Errorf("spell at 50%%: warnings %+v, want none", w)
	}
	if got["doodads/rock.mdx"].Sequence != "" {
		t.Errorf("bind-pose still names a sequence: %+v", got["doodads/rock.mdx"])
	}
	// The fake renderer draws time-dependent pixels: the still must change.
	laterPNG, err := os.ReadFile(filepath.Join(dir, "out", filepath.FromSlash(got["units/footman.mdx"].Path)))
	if err != nil {
		t.Fatal(err)
	}
	if string(laterPNG) == string(startPNG) {
		t.Error("render.time 250 gave the same still as the sequence start")
	}

	if o := run(func(o *Options) { o.Render.Time = render.Share(1) })["units/footman.mdx"]; o.TimeMs != 1000 {
		t.Errorf("time 100%%: still at %d ms, want 1000", o.TimeMs)
	}
}
