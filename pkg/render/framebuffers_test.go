package render

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestFramebuffersReuse draws every golden fixture twice, in turn, with
// Animators that share one Framebuffers (so each picture is drawn in a
// buffer a different model, often of another size, drew in last), and
// compares the pixels with those of an Animator of its own. Round 1 is
// over transparency, so a buffer that is not cleared shows.
func TestFramebuffersReuse(t *testing.T) {
	var fbs Framebuffers
	for round := range 2 {
		for _, f := range fixtures() {
			if round == 1 {
				f.opt.Background = nil
			}
			path := filepath.Join(modelsDir, f.name+".mdl")
			m := loadFixture(t, path)
			want, _, err := renderAt(m, path, f.opt)
			if err != nil {
				t.Fatal(err)
			}
			a := NewAnimator(m, path, besideModel(path, nil))
			a.Framebuffers = &fbs
			img, _, err := a.Render(f.opt)
			if err != nil {
				t.Fatal(err)
			}
			if a.target != nil {
				t.Fatalf("%s: the Animator kept its borrowed framebuffer", f.name)
			}
			if !bytes.Equal(img.Pix, want.Pix) {
				t.Errorf("%s (round %d): pixels differ from a fresh framebuffer's", f.name, round)
			}
		}
	}
	var idle int64
	for _, tg := range fbs.free {
		idle += tg.Bytes()
	}
	if len(fbs.free) == 0 || idle != fbs.bytes || idle > maxIdleBytes {
		t.Errorf("%d idle framebuffers of %d bytes (counted %d), want 1 or more within %d", len(fbs.free), idle, fbs.bytes, maxIdleBytes)
	}
}
