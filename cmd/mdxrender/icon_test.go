package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIconCommand makes the default icons of a fixture model and checks
// what lands where, what is printed, and that bad flags are usage errors.
func TestIconCommand(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join("..", "..", "testdata", "models", "portrait_camera.mdl")
	out, errOut, code := run(t, "icon", model, "-o", dir, "--name", "Scout")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, p := range []string{
		"ReplaceableTextures/CommandButtons/BTNScout.blp",
		"ReplaceableTextures/CommandButtons/BTNScout.png",
		"ReplaceableTextures/CommandButtonsDisabled/DISBTNScout.blp",
		"ReplaceableTextures/CommandButtonsDisabled/DISBTNScout.png",
	} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if !strings.Contains(out, p) {
			t.Errorf("stdout does not list %s: %q", p, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ReplaceableTextures", "PassiveButtons")); err == nil {
		t.Error("passive icons written without --kinds")
	}
	if !strings.Contains(errOut, `"Portrait"`) {
		t.Errorf("stderr does not say which camera: %q", errOut)
	}
	for _, args := range [][]string{
		{"icon", model, "-o", dir, "--kinds", "btn,foo"},
		{"icon", model, "-o", dir, "--name", "a/b"},
		{"icon", model, "-o", dir, "--bg", "#12"},
		{"icon", model, "-o", dir, "--dds", "bc7"},
		{"icon", model, "-o", dir, "--shot", "sequence"},
		{"icon", model, "-o", dir, "--framing", "head"}, // the sheets' option, not the icon's
		{"icon", model},
	} {
		if _, e, code := run(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, e)
		}
	}
	// --shot says how much of the model the icon shows.
	if _, e, code := run(t, "icon", model, "-o", t.TempDir(), "--shot", "whole"); code != exitOK || !strings.Contains(e, "seen through the whole model") {
		t.Errorf("--shot whole: exit %d: %s", code, e)
	}
}
