package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/batchconfig"
)

// rawControl names the first character of s, other than a line break or
// a tab between columns, that a terminal would obey, or "".
func rawControl(s string) string {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0 || r == 0x202e || r == 0x2028 {
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// However many problems a configuration has, the command prints
// batchconfig.MaxErrors of them and how many more there are.
func TestConfigReportCapped(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	data := append([]byte("inputs: {files: [a.mdx]}\n"), hostile.UnknownKeysConfig(".yaml", 500, 50)...)
	os.WriteFile(cfg, data, 0o644)
	_, se, code := run(t, "batch", "-c", cfg)
	lines := strings.Split(strings.TrimSuffix(se, "\n"), "\n")
	if code != exitUsage || len(lines) != batchconfig.MaxErrors+1 || lines[len(lines)-1] != "mdxrender: batch: and 480 more problems" {
		t.Errorf("exit %d, %d lines:\n%s", code, len(lines), se)
	}
	if !strings.HasPrefix(lines[0], "mdxrender: batch: "+cfg+":4: overrides[0].unknown_0000000: unknown key") {
		t.Errorf("first line %s", lines[0])
	}
	// Too deep, too large: one line, naming the file and, where there is
	// one, the line.
	_, deep := hostile.NestedConfig(hostile.YAMLCompact, 1000)
	os.WriteFile(cfg, deep, 0o644)
	if _, se, code := run(t, "batch", "-c", cfg); code != exitUsage || se != "mdxrender: batch: "+cfg+":3: nested deeper than 64 levels\n" {
		t.Errorf("deep: exit %d\n%s", code, se)
	}
	os.WriteFile(cfg, bytes.Repeat([]byte("# filler\n"), 200_000), 0o644)
	if _, se, code := run(t, "batch", "-c", cfg); code != exitUsage || !strings.HasSuffix(se, "larger than 1048576 bytes (1 MiB), the most a configuration file may have\n") {
		t.Errorf("large: exit %d\n%s", code, se)
	}
}

// Names and messages from files (a configuration's keys and values, a
// model's file name, its node names, warnings and errors) are printed
// with their control characters escaped, clipped: on stderr, in progress
// lines, in inspect's report and in the gallery.
func TestMessagesShownNotObeyed(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, hostile.ConfigEscapes(), 0o644)
	_, se, code := run(t, "batch", "-c", cfg)
	if bad := rawControl(se); code != exitUsage || bad != "" || !strings.Contains(se, `key\x1b]0;owned\x07\x0dhidden: unknown key`) {
		t.Errorf("configuration: exit %d, raw %s:\n%q", code, bad, se)
	}

	var out bytes.Buffer
	report(fmt.Errorf("open %s: %w", "x\x1b[2J\u202e.mdx", errors.New("bad\r\nmdxrender: all good"+strings.Repeat("y", 1<<20))), &out)
	if bad := rawControl(out.String()); bad != "" || out.Len() > 2*maxMessage || strings.Count(out.String(), "\n") != 1 ||
		!strings.HasPrefix(out.String(), `mdxrender: open x\x1b[2J\u202e.mdx: bad\x0d\x0amdxrender: all goodyyy`) {
		t.Errorf("report: raw %s, %d bytes: %.300q", bad, out.Len(), out.String())
	}

	var log bytes.Buffer
	p := newProgress(&log)
	p.Planned(1)
	p.Started(&batch.Input{Key: "a.mdx", Rel: "a.mdx"})
	p.Finished(&batch.ModelResult{Input: "m.w3x:\x1b[2J" + strings.Repeat("n", 100_000) + ".mdx", Status: batch.StatusFailed,
		Errors:   []string{"bad \x1b]0;title\a chunk\r\nlevel=INFO msg=forged"},
		Warnings: []batch.Warning{{Code: "missing-texture", Message: "T\u202egnp.blp\x1b[K"}}})
	p.finish(&batch.Manifest{})
	if bad := rawControl(log.String()); bad != "" || strings.Count(log.String(), "\n") != 3 || log.Len() > 3000 {
		t.Errorf("progress: raw %s, %d bytes:\n%.2000s", bad, log.Len(), log.String())
	}

	m := testModel()
	m.Name = "\x1b[2Jclear"
	m.Bones[0].Name = "bone\r\nforged line"
	model := writeModel(t, dir, "m.mdx", m)
	so, se, code := run(t, "inspect", model)
	if bad := rawControl(so + se); code != 0 || bad != "" || !strings.Contains(so, `"\x1b[2Jclear"`) || !strings.Contains(so, `"bone\r\nforged line"`) {
		t.Errorf("inspect: exit %d, raw %s:\n%s%s", code, bad, so, se)
	}

	// A model whose very file name is hostile, in a batch: the progress
	// lines, the summary and the gallery show it escaped.
	name := "m\x1b[2J\u202elmd.mdl"
	models := filepath.Join(dir, "models")
	os.MkdirAll(models, 0o755)
	fixtureModel(t, models, "hermite_bezier.mdl", name)
	os.WriteFile(filepath.Join(models, "bad\x1b[31m.mdx"), []byte("MDLXVERS\x04\x00\x00\x00"), 0o644)
	outDir := filepath.Join(dir, "out")
	so, se, code = run(t, "batch", "-o", outDir, "--size", "24", models)
	if bad := rawControl(so + se); code != 1 || bad != "" || !strings.Contains(so+se, `m\x1b[2J\u202elmd.mdl`) || !strings.Contains(se, `bad\x1b[31m.mdx`) {
		t.Errorf("batch: exit %d, raw %s:\n%s%s", code, bad, so, se)
	}
	page, err := os.ReadFile(filepath.Join(outDir, "index.html"))
	if bad := rawControl(string(page)); err != nil || bad != "" || !strings.Contains(string(page), `m\x1b[2J\u202elmd.mdl`) {
		t.Errorf("gallery: %v, raw %s", err, bad)
	}
}
