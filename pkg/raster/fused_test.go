package raster

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoFusedMultiplyAdd compiles the package as Go builds it where it
// may fuse a multiply and an add into one instruction (amd64 at GOAMD64
// v3, arm64) and fails on any such instruction in the package's own
// code. The vector kernels round every product, and the Go loops they
// stand in for must give the same bits: with a fused product they would
// not on those machines (and the pictures would differ from amd64's).
// float32(x*y) rounds a product where the compiler would fuse it.
//
// It runs the compiler itself, which the build cache does not skip, on
// the dependencies' export data that go list makes (or finds cached).
func TestNoFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the package twice")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	for _, tc := range []struct {
		goarch, goamd64 string
		fused           *regexp.Regexp
	}{
		{"amd64", "v3", regexp.MustCompile(`\sVFN?M(ADD|SUB)[0-9]*[SP][SD]\s`)},
		{"arm64", "", regexp.MustCompile(`\sFN?M(ADD|SUB)[SD]\s`)},
	} {
		t.Run(tc.goarch, func(t *testing.T) {
			env := append(os.Environ(), "GOOS=linux", "GOARCH="+tc.goarch, "GOAMD64="+tc.goamd64, "CGO_ENABLED=0", "GOFLAGS=")
			run := func(args ...string) []byte {
				t.Helper()
				cmd := exec.Command(goCmd, args...)
				cmd.Env = env
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
				}
				return out
			}
			// purego leaves out the assembly, which the compiler would
			// need its symbol ABIs for; the Go files with float
			// arithmetic are the same.
			cfg := run("list", "-tags", "purego", "-export", "-deps", "-f", "{{if .Export}}packagefile {{.ImportPath}}={{.Export}}{{end}}", ".")
			info := strings.Fields(string(run("list", "-tags", "purego", "-f", "{{.ImportPath}} {{.Module.GoVersion}} {{.Dir}} {{join .GoFiles \" \"}}", ".")))
			if len(info) < 4 {
				t.Fatalf("go list: %q", info)
			}
			dir := t.TempDir()
			importcfg := filepath.Join(dir, "importcfg")
			if err := os.WriteFile(importcfg, cfg, 0o666); err != nil {
				t.Fatal(err)
			}
			lang := "go" + info[1]
			if v := strings.SplitN(info[1], ".", 3); len(v) == 3 {
				lang = "go" + v[0] + "." + v[1] // the language version, without the patch
			}
			args := []string{"tool", "compile", "-S", "-p", info[0], "-lang", lang, "-importcfg", importcfg, "-o", filepath.Join(dir, "raster.a")}
			for _, f := range info[3:] {
				args = append(args, filepath.Join(info[2], f))
			}
			listing := run(args...)
			// A listing line names its source position, (file:line); the
			// package's own lines start with its directory (inlined code
			// from other packages names theirs).
			own := "(" + info[2] + string(filepath.Separator)
			lines, found := 0, 0
			sc := bufio.NewScanner(bytes.NewReader(listing))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				l := sc.Text()
				if !strings.Contains(l, own) {
					continue
				}
				lines++
				if tc.fused.MatchString(l) {
					found++
					if found <= 20 {
						t.Errorf("fused multiply-add: %s", strings.TrimSpace(l))
					}
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if lines < 1000 {
				t.Fatalf("the listing has %d instructions of the package: not the listing this test reads", lines)
			}
			if found > 20 {
				t.Errorf("and %d more", found-20)
			}
		})
	}
}
