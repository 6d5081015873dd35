package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// yamlBlocks returns the ```yaml blocks of a document in docs/.
func yamlBlocks(t *testing.T, doc string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", doc))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(b, -1) {
		out = append(out, string(m[1]))
	}
	if len(out) == 0 {
		t.Fatalf("%s has no yaml blocks", doc)
	}
	return out
}

// checkCommandLine parses an mdxrender command line of the docs with the
// real command tree, without running it: the subcommand and every flag
// must exist and take the value given.
func checkCommandLine(t *testing.T, where string, args []string) {
	t.Helper()
	root := newRootCmd()
	cmd, rest, err := root.Find(args)
	if err != nil || cmd == root {
		t.Errorf("%s: %q: no such command (%v)", where, args, err)
		return
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s: %q: %v", where, args, err)
	}
}

// The Kubernetes example: each document is a Job whose containers run the
// image's entry point with mdxrender arguments (no shell: the image has
// none), and those arguments parse.
func TestKubernetesExampleCommands(t *testing.T) {
	type container struct {
		Name    string
		Image   string
		Command []string
		Args    []string
	}
	n := 0
	for _, block := range yamlBlocks(t, "kubernetes-indexed-job.md") {
		dec := yaml.NewDecoder(strings.NewReader(block))
		for {
			var job struct {
				APIVersion string `yaml:"apiVersion"`
				Kind       string
				Metadata   struct{ Name string }
				Spec       struct {
					Template struct {
						Spec struct {
							RestartPolicy string `yaml:"restartPolicy"`
							Containers    []container
						}
					}
				}
			}
			err := dec.Decode(&job)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("YAML: %v", err)
			}
			if job.APIVersion != "batch/v1" || job.Kind != "Job" || job.Spec.Template.Spec.RestartPolicy != "Never" {
				t.Errorf("%s: %s %s, restartPolicy %q", job.Metadata.Name, job.APIVersion, job.Kind, job.Spec.Template.Spec.RestartPolicy)
			}
			for _, c := range job.Spec.Template.Spec.Containers {
				n++
				if len(c.Command) > 0 {
					t.Errorf("%s/%s: command %q: the image has only its entry point", job.Metadata.Name, c.Name, c.Command)
				}
				checkCommandLine(t, job.Metadata.Name+"/"+c.Name, c.Args)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d containers, want the render and merge Jobs' 2", n)
	}
}

// The GitHub Actions example: the workflow is YAML, every mdxrender
// command in its run steps parses, and actionlint (when installed)
// accepts the workflow.
func TestGitHubActionsExampleCommands(t *testing.T) {
	blocks := yamlBlocks(t, "ci-github-actions.md")
	expr := regexp.MustCompile(`\$\{\{[^}]*\}\}`)
	// mdxrender (or go run ./cmd/mdxrender) as a command word, and its
	// arguments.
	command := regexp.MustCompile(`(?:^|[\s:;&|(])(?:\./cmd/)?mdxrender\s+([a-z].*)$`)
	n := 0
	for i, block := range blocks {
		var doc any
		if err := yaml.Unmarshal([]byte(block), &doc); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
		for _, line := range strings.Split(block, "\n") {
			m := command.FindStringSubmatch(line)
			if m == nil || strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			n++
			checkCommandLine(t, "workflow", strings.Fields(expr.ReplaceAllString(m[1], "0")))
		}
	}
	if n < 3 {
		t.Errorf("found %d mdxrender commands in the workflow examples", n)
	}
	lint, err := exec.LookPath("actionlint")
	if err != nil {
		t.Skip("actionlint not installed: the workflow was only parsed")
	}
	p := filepath.Join(t.TempDir(), "thumbnails.yml")
	os.WriteFile(p, []byte(blocks[0]), 0o644)
	var out bytes.Buffer
	c := exec.Command(lint, p)
	c.Stdout, c.Stderr = &out, &out
	if err := c.Run(); err != nil {
		t.Errorf("actionlint: %v\n%s", err, out.String())
	}
}
