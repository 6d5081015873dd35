package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/batchconfig"
)

// FuzzLoadConfig feeds arbitrary YAML to the loader: it must return a
// config or an error, never panic, and a config it returns must validate.
// What the command prints of an error is a screenful at most, with
// nothing from the file left raw.
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
	// Nesting just past the cap, a flood of unknown keys, escapes.
	for _, how := range []hostile.Nesting{hostile.YAMLFlow, hostile.YAMLBlock, hostile.YAMLCompact, hostile.JSONObject} {
		_, data := hostile.NestedConfig(how, batchconfig.MaxDepth+1)
		f.Add(data)
	}
	f.Add(hostile.UnknownKeysConfig(".yaml", 60, 10))
	f.Add(hostile.ConfigEscapes())
	dir := f.TempDir()
	p := filepath.Join(dir, "c.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := loadConfig(configLayers{File: p})
		if err != nil {
			var out bytes.Buffer
			report(err, &out)
			if n := strings.Count(out.String(), "\n"); n > batchconfig.MaxErrors+1 {
				t.Fatalf("%d lines printed", n)
			}
			if bad := rawControl(out.String()); bad != "" {
				t.Fatalf("raw %s printed:\n%s", bad, out.String())
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("loaded config does not validate: %v", err)
		}
	})
}
