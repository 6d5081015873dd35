package batchconfig

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

// FuzzDecodeConfigFile feeds arbitrary YAML and TOML to the file decoder:
// it must return values or an error, never panic, and the values it
// returns (all of a good file, the good keys of a bad one), written out as
// YAML, must pass the schema again. Every problem it reports names the
// file and a line, the report is a screenful at most, and nothing from
// the file reaches it raw.
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
	// Deep nesting in every way, just past the cap.
	for how := hostile.TOMLHeader; how <= hostile.JSONObject; how++ {
		ext, data := hostile.NestedConfig(how, MaxDepth+1)
		f.Add(ext == ".toml", data)
	}
	f.Add(false, hostile.UnknownKeysConfig(".yaml", 40, 8))
	f.Add(true, hostile.UnknownKeysConfig(".toml", 40, 8))
	f.Add(false, hostile.ConfigEscapes())
	f.Add(true, []byte("a = 1\n[b]\nc.d = 2\n[b.c]\n[[e]]\n[e.f]\n[[e]]\ng = {h = 1, h = 2}\n"))
	where := regexp.MustCompile(`^c\.(yaml|toml):[1-9][0-9]*$`)
	f.Fuzz(func(t *testing.T, isTOML bool, data []byte) {
		name := "c.yaml"
		if isTOML {
			name = "c.toml"
		}
		// With errors, what is returned is the file without the keys in
		// error, which must pass the schema on its own.
		c, err := DecodeFile(name, data)
		if err != nil {
			checkReport(t, err, where)
		}
		if c == nil {
			return
		}
		b, err := yaml.Marshal(values(c))
		if err != nil {
			t.Fatalf("accepted values do not encode: %v", err)
		}
		if _, err := DecodeFile("again.yaml", b); err != nil {
			if ce, ok := err.(*Error); ok && ce.Key == "" {
				// The file written out is refused as a whole, not for a
				// key: go-yaml v3.0.4 cannot read back every string it
				// writes (a list element "\n0" becomes a block scalar
				// "|4-" it then refuses), and aliases written out
				// expanded can pass the caps. Neither is the schema's.
				t.Skipf("written out, refused as a whole:\n%.2000s\n%v", b, err)
			}
			t.Fatalf("accepted values fail the schema when written out:\n%s\n%v", b, err)
		}
	})
}

// checkReport checks the errors of a file: each names the file and a line
// (but the refusal of a file too large to read), there are at most
// MaxErrors and a count, and no control character is left raw.
func checkReport(t *testing.T, err error, where *regexp.Regexp) {
	t.Helper()
	var all Errors
	all.Add(err)
	for _, e := range all.Errs {
		var ce *Error
		if !errors.As(e, &ce) {
			t.Fatalf("%T is not a *Error: %v", e, e)
		}
		if !where.MatchString(ce.Where) && !strings.HasPrefix(ce.Msg, "larger than") {
			t.Fatalf("no line: %v", e)
		}
	}
	msg := err.Error()
	if n := strings.Count(msg, "\n"); n > MaxErrors {
		t.Fatalf("%d lines of errors", n+1)
	}
	if len(msg) > (MaxErrors+1)*4000 {
		t.Fatalf("%d bytes of errors", len(msg))
	}
	if bad := rawControl(msg); bad != "" {
		t.Fatalf("raw %s in\n%s", bad, msg)
	}
}
