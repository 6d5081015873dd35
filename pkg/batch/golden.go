package batch

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"sort"
	"strings"
)

// Check statuses.
const (
	CheckPass    = "pass"
	CheckFail    = "fail"
	CheckMissing = "missing" // no golden stored: a failure until --update
	CheckUpdated = "updated"
)

// CheckResult is one output compared with its golden.
type CheckResult struct {
	Output string `json:"output"` // relative to the output folder
	Golden string `json:"golden"`
	Status string `json:"status"`
	// Mismatched pixels of Total; MaxDiff is the largest channel difference.
	Mismatched int     `json:"mismatched"`
	Total      int     `json:"total"`
	Share      float64 `json:"share"`
	MaxDiff    int     `json:"maxDiff"`
	// Diff is the diff image (relative to the output folder), for failures.
	Diff    string `json:"diff,omitempty"`
	Message string `json:"message,omitempty"`
}

// Failed reports a regression or a missing golden.
func (c *CheckResult) Failed() bool { return c.Status == CheckFail || c.Status == CheckMissing }

// Comparison is the outcome of comparing two images.
type Comparison struct {
	Mismatched, Total, MaxDiff int
	// SizeMismatch is set when the images differ in size; then every pixel
	// counts as mismatched.
	SizeMismatch bool
}

// Share is the fraction of mismatched pixels.
func (c Comparison) Share() float64 {
	if c.Total == 0 {
		return 0
	}
	return float64(c.Mismatched) / float64(c.Total)
}

// Compare compares decoded pixels of got and want. Colours are compared
// premultiplied by alpha, so the hidden colour of a fully transparent pixel
// does not count. A pixel mismatches when any channel differs by more than
// tol. The diff image shows want in faded grey and mismatches in red
// (brighter for larger differences).
func Compare(got, want image.Image, tol int) (Comparison, *image.NRGBA) {
	gb, wb := got.Bounds(), want.Bounds()
	if gb.Size() != wb.Size() {
		r := image.Rect(0, 0, max(gb.Dx(), wb.Dx()), max(gb.Dy(), wb.Dy()))
		diff := image.NewNRGBA(r)
		draw.Draw(diff, r, &image.Uniform{color.NRGBA{255, 0, 0, 255}}, image.Point{}, draw.Src)
		n := r.Dx() * r.Dy()
		return Comparison{Mismatched: n, Total: n, MaxDiff: 255, SizeMismatch: true}, diff
	}
	g, w := toNRGBA(got), toNRGBA(want)
	diff := image.NewNRGBA(image.Rect(0, 0, gb.Dx(), gb.Dy()))
	var c Comparison
	c.Total = gb.Dx() * gb.Dy()
	for y := 0; y < gb.Dy(); y++ {
		for x := 0; x < gb.Dx(); x++ {
			gi, wi := g.PixOffset(x, y), w.PixOffset(x, y)
			gp, wp := g.Pix[gi:gi+4:gi+4], w.Pix[wi:wi+4:wi+4]
			d := 0
			for k := 0; k < 4; k++ {
				a, b := int(gp[k]), int(wp[k])
				if k < 3 {
					a = (a*int(gp[3]) + 127) / 255
					b = (b*int(wp[3]) + 127) / 255
				}
				if a < b {
					a, b = b, a
				}
				d = max(d, a-b)
			}
			c.MaxDiff = max(c.MaxDiff, d)
			di := diff.PixOffset(x, y)
			if d > tol {
				c.Mismatched++
				diff.Pix[di], diff.Pix[di+1], diff.Pix[di+2], diff.Pix[di+3] = uint8(128+d/2), 0, 0, 255
			} else {
				// faded grey of the golden over white
				l := (299*int(wp[0]) + 587*int(wp[1]) + 114*int(wp[2])) / 1000
				l = 255 - (255-l)*int(wp[3])/255/4
				diff.Pix[di], diff.Pix[di+1], diff.Pix[di+2], diff.Pix[di+3] = uint8(l), uint8(l), uint8(l), 255
			}
		}
	}
	return c, diff
}

func toNRGBA(m image.Image) *image.NRGBA {
	if n, ok := m.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n
	}
	b := m.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Rect, m, b.Min, draw.Src)
	return n
}

// DecodePNGFile decodes a PNG file with image/png (never image.Decode, so
// other registered formats cannot claim it).
func DecodePNGFile(name string) (image.Image, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// junit mirrors the JUnit XML layout CI systems read (GitLab, Jenkins,
// GitHub test-reporter actions).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Class   string        `xml:"classname,attr"`
	Name    string        `xml:"name,attr"`
	Time    string        `xml:"time,attr"`
	Failure *junitProblem `xml:"failure,omitempty"`
	Error   *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnitXML writes the check results as JUnit XML: one test case per
// compared output, and one per model that failed to render (as an error).
func (m *Manifest) JUnitXML() ([]byte, error) {
	s := junitSuite{Name: "mdxrender check"}
	var total float64
	for _, r := range m.Models {
		total += r.Timings.TotalMS
		if r.Status == StatusFailed {
			s.Errors++
			s.Cases = append(s.Cases, junitCase{Class: r.Input, Name: "render", Time: secs(r.Timings.TotalMS),
				Error: &junitProblem{Message: firstLine(strings.Join(r.Errors, "; ")), Type: "render", Text: strings.Join(r.Errors, "\n")}})
		}
		for _, c := range r.Checks {
			jc := junitCase{Class: r.Input, Name: c.Output, Time: secs(r.Timings.CheckMS)}
			if c.Failed() {
				s.Failures++
				jc.Failure = &junitProblem{Message: c.Message, Type: c.Status,
					Text: fmt.Sprintf("golden %s\nmismatched %d of %d pixels (%.4f%%), max channel difference %d\ndiff %s",
						c.Golden, c.Mismatched, c.Total, 100*c.Share, c.MaxDiff, c.Diff)}
			}
			s.Cases = append(s.Cases, jc)
		}
	}
	s.Tests = len(s.Cases)
	s.Time = secs(total)
	doc := junitSuites{Name: "mdxrender", Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Suites: []junitSuite{s}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte(xml.Header), b...), '\n'), nil
}

func secs(ms float64) string { return fmt.Sprintf("%.3f", ms/1000) }

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// MarkdownSummary returns a Markdown report for a CI job summary (e.g.
// $GITHUB_STEP_SUMMARY): counts, then a table of failures and regressions
// first, then warnings. Paths are relative to the output folder.
func (m *Manifest) MarkdownSummary() string {
	var b strings.Builder
	s := m.Summary
	fmt.Fprintf(&b, "## mdxrender %s\n\n", m.Version)
	fmt.Fprintf(&b, "%d models: %d rendered, %d unchanged (cached), %d failed; %d warnings.\n", s.Models, s.OK, s.Cached, s.Failed, s.Warnings)
	if s.Checks > 0 {
		fmt.Fprintf(&b, "Golden checks: %d compared, %d regressions, %d updated.\n", s.Checks, s.Regressions, s.Updated)
	}
	type row struct{ status, model, what, detail string }
	var rows []row
	for _, r := range m.Models {
		if r.Status == StatusFailed {
			rows = append(rows, row{"❌ failed", r.Input, "render", strings.Join(r.Errors, "; ")})
		}
		for _, c := range r.Checks {
			if c.Failed() {
				d := c.Message
				if c.Diff != "" {
					d += fmt.Sprintf(" ([diff](%s))", href(c.Diff))
				}
				rows = append(rows, row{"❌ " + c.Status, r.Input, c.Output, d})
			}
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].model < rows[j].model })
	if len(rows) > 0 {
		b.WriteString("\n| Result | Model | Output | Detail |\n|---|---|---|---|\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.status, mdEscape(r.model), mdEscape(r.what), mdEscape(r.detail))
		}
	} else {
		b.WriteString("\nNo failures.\n")
	}
	var warn []string
	for _, r := range m.Models {
		for _, w := range r.Warnings {
			warn = append(warn, fmt.Sprintf("| %s | %s | %s |", mdEscape(r.Input), w.Code, mdEscape(w.Message)))
		}
	}
	if len(warn) > 0 {
		b.WriteString("\n<details><summary>Warnings</summary>\n\n| Model | Code | Message |\n|---|---|---|\n")
		b.WriteString(strings.Join(warn, "\n"))
		b.WriteString("\n\n</details>\n")
	}
	return b.String()
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}
