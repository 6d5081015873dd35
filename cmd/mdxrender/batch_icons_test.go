package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// batch --icons makes the icons of the unit models among its inputs and
// nothing else; with --format it makes those outputs too.
func TestBatchIconsFlag(t *testing.T) {
	in := t.TempDir()
	b, err := os.ReadFile(filepath.Join(fixtureDir, "portrait_camera.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "Scout.mdl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	btn := filepath.Join("icons", "ReplaceableTextures", "CommandButtons", "BTNScout.blp")
	for _, c := range []struct {
		args  []string
		still bool
	}{
		{[]string{"--icons"}, false},
		{[]string{"--icons", "--format", "png"}, true},
		{[]string{"--format", "png,icons"}, true},
	} {
		out := t.TempDir()
		args := append([]string{"batch", in, "-o", out, "--size", "32"}, c.args...)
		if _, e, code := run(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, e)
		}
		for p, want := range map[string]bool{btn: true, "icons.html": true, "Scout-default.png": c.still} {
			if _, err := os.Stat(filepath.Join(out, p)); (err == nil) != want {
				t.Errorf("%v: %s written: %v, want %v", c.args, p, err == nil, want)
			}
		}
	}
	// --shot reaches the icons as icon's does, and its value form is the
	// same.
	out := t.TempDir()
	if _, e, code := run(t, "batch", in, "-o", out, "--icons", "--shot", "whole"); code != exitOK {
		t.Fatalf("--shot whole: exit %d: %s", code, e)
	}
	m, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil || !bytes.Contains(m, []byte(`"framing": "the whole model"`)) {
		t.Errorf("--shot whole: the manifest does not say the whole model was seen (%v)", err)
	}
	if _, e, code := run(t, "batch", in, "-o", t.TempDir(), "--icons", "--shot", "shared"); code != exitUsage {
		t.Errorf("--shot shared: exit %d, want %d (%s)", code, exitUsage, e)
	}
	if _, e, code := run(t, "batch", in, "-o", t.TempDir(), "--shot", "head"); code != exitUsage || !strings.Contains(e, "add --icons") {
		t.Errorf("--shot without icons: exit %d, want %d (%s)", code, exitUsage, e)
	}
}

// icon takes --missing-textures as render does: grey by default, white
// on request, anything else a usage error.
func TestIconMissingTextures(t *testing.T) {
	in := t.TempDir()
	b, err := os.ReadFile(filepath.Join(fixtureDir, "portrait_camera.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(in, "Bare.mdl") // its textures are not beside it
	if err := os.WriteFile(model, b, 0o644); err != nil {
		t.Fatal(err)
	}
	png := func(extra ...string) []byte {
		t.Helper()
		out := t.TempDir()
		args := append([]string{"icon", model, "-o", out}, extra...)
		if _, e, code := run(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, e)
		}
		b, err := os.ReadFile(filepath.Join(out, "ReplaceableTextures", "CommandButtons", "BTNBare.png"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	grey, white := png(), png("--missing-textures", "white")
	if bytes.Equal(grey, white) {
		t.Error("--missing-textures white made the same icon as the default")
	}
	if !bytes.Equal(grey, png("--missing-textures", "grey")) {
		t.Error("--missing-textures grey is not the default")
	}
	if _, e, code := run(t, "icon", model, "-o", t.TempDir(), "--missing-textures", "pink"); code != exitUsage {
		t.Errorf("--missing-textures pink: exit %d, want %d (%s)", code, exitUsage, e)
	}
}
