//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFilesRefused is the hostile-input table's special paths as
// models and textures: a FIFO (opening it would block until a writer
// comes), and links to /dev/zero and /dev/urandom (reading them never
// ends). Every command refuses them before opening, naming the file.
func TestSpecialFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.mdx")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	paths := []string{fifo}
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err != nil {
			continue
		}
		p := filepath.Join(dir, filepath.Base(dev)+".mdx")
		if err := os.Symlink(dev, p); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		paths = append(paths, p)
	}
	// Should a command open the FIFO after all, a writer releases it so
	// that the test fails (on the message) instead of hanging: a hang
	// guard, which a command that refuses the FIFO never meets. A command
	// that read a device would not end, or end on the read_bytes budget,
	// and fail on the message too.
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
		}
	}()
	for i, p := range paths {
		for _, args := range [][]string{
			{"inspect", p},
			{"render", p, "-o", filepath.Join(dir, "out.png")},
			{"convert", p, filepath.Join(dir, "out.mdl")},
			{"texture", p, "-o", filepath.Join(dir, "out.png")},
		} {
			_, stderr, code := run(t, args...)
			name := p
			if args[0] == "texture" && i > 0 {
				// The texture command follows the link it is given and
				// names what it found.
				name, _ = filepath.EvalSymlinks(p)
			}
			if code != 1 || !strings.Contains(stderr, name) || !strings.Contains(stderr, "not a regular file") {
				t.Errorf("%s %s: exit %d: %s", args[0], filepath.Base(p), code, stderr)
			}
		}
	}
}
