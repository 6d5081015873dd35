package batch

import (
	"os"
	"path/filepath"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// FuzzDecodeConfigFile feeds arbitrary YAML and TOML to the file decoder:
// it must return values or an error, never panic, and the values it
// returns (all of a good file, the good keys of a bad one), written out as
// YAML, must pass the schema again.
func FuzzDecodeConfigFile(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "configs", "*.yaml"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(false, b)
		}
	}
	f.Add(false, []byte("a: &x [1]\nb: *x\n"))
	f.Add(true, []byte("Jobs = 2\n\"render.SSAA\" = 2\n[Inputs]\nFiles = [\"a.mdx\"]\n[[overrides]]\nMatch = \"x\"\n"))
	f.Add(true, []byte("[views.a]\nyaw = 1.5\n[sheet]\nyaws = [1, 2]\n"))
	f.Fuzz(func(t *testing.T, isTOML bool, data []byte) {
		name := "c.yaml"
		if isTOML {
			name = "c.toml"
		}
		// With errors, what is returned is the file without the keys in
		// error, which must pass the schema on its own.
		c, _ := DecodeConfigFile(name, data)
		if c == nil {
			return
		}
		b, err := yaml.Marshal(c.Values)
		if err != nil {
			t.Fatalf("accepted values do not encode: %v", err)
		}
		if _, err := DecodeConfigFile("again.yaml", b); err != nil {
			t.Fatalf("accepted values fail the schema when written out:\n%s\n%v", b, err)
		}
	})
}
