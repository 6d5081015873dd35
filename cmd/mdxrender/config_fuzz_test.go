package main

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadConfig feeds arbitrary YAML to the loader: it must return a
// config or an error, never panic, and a config it returns must validate.
func FuzzLoadConfig(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "configs", "*.yaml"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(precedenceYAML))
	f.Add([]byte("inputs: {files: [a]}\nviews: {a: {yaw: 1}}\noverrides: [{match: '**', render: {size: 9}}]\n"))
	f.Add([]byte("a: &x [1]\nb: *x\n"))
	f.Add([]byte("inputs:\n  files: [a.mdx]\nsequences: !!binary AAAA\n"))
	dir := f.TempDir()
	p := filepath.Join(dir, "c.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := loadConfig(configLayers{File: p})
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("loaded config does not validate: %v", err)
		}
	})
}
