package batch

import (
	"encoding/xml"
	"fmt"
	"strings"
	"testing"
)

// hostileManifest is a batch whose model, sequence, output and message
// texts come from a hostile archive: terminal escapes, line breaks, a
// right-to-left override, markup, a megabyte name, and more warnings and
// errors than a card lists.
func hostileManifest() *Manifest {
	name := "maps/x.w3x:Units/\x1b[2J\x1b]0;owned\a\u202egnp.mdx<script>alert(1)</script>[click](http://e.test)|"
	r := ModelResult{Input: name, Rel: name, Status: StatusFailed, Sequences: []string{"Stand\x1b[1A", strings.Repeat("S", 1<<20)},
		Outputs: []OutputFile{{Kind: string(FormatPNG), Path: "x.png"}, {Kind: string(FormatGIF), Path: "x-Stand.gif", Sequence: "Stand\r\x1b[K"}}}
	for i := range 30 {
		r.Errors = append(r.Errors, fmt.Sprintf("error %d: \x1b[31m%s\r\nmdxrender: all good", i, strings.Repeat("e", 5000)))
		r.Warnings = append(r.Warnings, Warning{Code: "missing-texture", Message: fmt.Sprintf("texture %d \u202e\x07%s", i, strings.Repeat("w", 5000))})
	}
	r.Checks = []CheckResult{{Output: "x\x1b.png", Golden: "g\x1b.png", Status: CheckFail, Diff: "x.diff.png", Message: "differs\x1b[0m\nhere"}}
	return &Manifest{Version: "test", Models: []ModelResult{r}, Summary: Summary{Models: 1, Failed: 1}}
}

// The gallery, the Markdown summary and the JUnit report show what a
// model's names and messages hold, escaped and clipped; none lets a raw
// control character, a text-reversing mark or markup through, and a
// model with a megabyte name and thirty long warnings stays a card.
func TestReportsEscapeNames(t *testing.T) {
	m := hostileManifest()
	page, err := Gallery(m, true)
	if err != nil {
		t.Fatal(err)
	}
	junit, err := m.JUnitXML()
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(junit, new(junitSuites)); err != nil {
		t.Errorf("JUnit XML does not parse: %v", err)
	}
	for name, out := range map[string]string{"index.html": string(page), "summary.md": m.MarkdownSummary(), "junit.xml": string(junit)} {
		for _, r := range out {
			if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 || r == 0x202e {
				t.Errorf("%s: raw %U", name, r)
				break
			}
		}
		if strings.Contains(out, "<script>alert") {
			t.Errorf("%s: markup let through", name)
		}
		shown := `\x1b[2J\x1b]0;owned\x07\u202egnp.mdx`
		if name == "summary.md" { // backslashes and brackets are Markdown's
			shown = `\\x1b\[2J\\x1b\]0;owned\\x07\\u202egnp.mdx`
		}
		if !strings.Contains(out, shown) {
			t.Errorf("%s does not show the name escaped:\n%.3000s", name, out)
		}
		if len(out) > 200_000 {
			t.Errorf("%s: %d bytes", name, len(out))
		}
	}
	if !strings.Contains(string(page), "and 10 more (the manifest has them)") {
		t.Error("index.html lists every warning")
	}
	md := m.MarkdownSummary()
	if strings.Contains(md, "[click](") || !strings.Contains(md, `\[click\](http://e.test)\|`) {
		t.Errorf("summary.md keeps the name's link:\n%s", md)
	}
	if !strings.Contains(md, "([diff](x.diff.png))") {
		t.Errorf("summary.md lost its own link:\n%s", md)
	}
}
