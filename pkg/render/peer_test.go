package render

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/golden"
)

// TestPeerFixtureJobs writes, when PEER_FIXTURE_OUT names a folder, our
// render of every fixture (PNG) and a --list file for the reference
// harness (docs/fidelity.md#regenerating-references) with the exact camera we used,
// so scripts/fidelity-fixtures.sh can compare the two. Fixtures the
// harness cannot express (a portrait camera, a non-square size) are left
// out of the list.
func TestPeerFixtureJobs(t *testing.T) {
	out := os.Getenv("PEER_FIXTURE_OUT")
	if out == "" {
		t.Skip("PEER_FIXTURE_OUT not set")
	}
	var list strings.Builder
	for _, f := range fixtures() {
		if f.opt.Camera != "" || (f.opt.Height != 0 && f.opt.Height != f.opt.Width) {
			continue
		}
		path, err := filepath.Abs(filepath.Join(modelsDir, f.name+".mdl"))
		if err != nil {
			t.Fatal(err)
		}
		m := f.m
		opt := f.opt
		opt.MissingTextures = MissingWhite // the viewer's stand-in
		r, err := NewAnimator(m, path, besideModel(path, nil)).newFrame(context.Background(), &opt)
		if err != nil {
			t.Fatal(err)
		}
		img, err := r.draw()
		if err != nil {
			t.Fatal(err)
		}
		golden.WritePNG(t, filepath.Join(out, f.name+".ours.png"), img)
		c := r.cam
		d := c.Eye.Sub(c.Target).Length()
		bg := "transparent"
		if b := background(opt.Background); b != nil {
			bg = fmt.Sprintf("#%02x%02x%02x", b.R, b.G, b.B)
		}
		seq := opt.Sequence.String()
		if seq == "" {
			seq = "0"
		}
		fmt.Fprintf(&list, "%q --out %s --sequence %s --time %g --team %d --yaw %g --pitch %g --fov %g --distance %g --target %g,%g,%g --near %g --far %g --bg %s\n",
			path, filepath.Join(out, f.name+".peer.png"), seq, opt.Time.Value(), func() int { p, _ := opt.Team.Player(); return p }(), opt.Yaw, opt.Pitch, c.Fov, d,
			c.Target.X, c.Target.Y, c.Target.Z, c.Near, c.Far, bg)
	}
	if err := os.WriteFile(filepath.Join(out, "jobs.txt"), []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
