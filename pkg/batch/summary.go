package batch

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
)

// MarkdownSummary returns a Markdown report for a CI job summary (e.g.
// $GITHUB_STEP_SUMMARY): counts, then a table of failures and regressions
// first, then warnings. Paths are relative to the output folder.
func (m *Manifest) MarkdownSummary() string {
	var b strings.Builder
	writeMarkdownSummary(m, memoryModels(m.Models), &b)
	return b.String()
}

// writeMarkdownSummary writes the summary of the models, which come in
// input order, in two passes: the failures, then the warnings.
func writeMarkdownSummary(m *Manifest, models modelSource, w io.Writer) error {
	bw := bufio.NewWriter(w)
	s := m.Summary
	fmt.Fprintf(bw, "## mdxrender %s\n\n", m.Version)
	fmt.Fprintf(bw, "%s: %d rendered, %d unchanged (cached), %d failed; %s.\n", count(s.Models, "model", "models"), s.OK, s.Cached, s.Failed, count(s.Warnings, "warning", "warnings"))
	if s.Checks > 0 {
		fmt.Fprintf(bw, "Golden checks: %d compared, %d regressions, %d updated.\n", s.Checks, s.Regressions, s.Updated)
	}
	rows := 0
	err := models.each(func(r *ModelResult) error {
		row := func(status, what, detail string) {
			if rows == 0 {
				bw.WriteString("\n| Result | Model | Output | Detail |\n|---|---|---|---|\n")
			}
			rows++
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", status, mdEscape(r.Input), mdEscape(what), detail)
		}
		if r.Status == StatusFailed {
			row("❌ failed", "render", mdEscape(strings.Join(r.Errors, "; ")))
		}
		for _, c := range r.Checks {
			if c.Failed() {
				d := mdEscape(c.Message)
				if c.Diff != "" {
					d += fmt.Sprintf(" ([diff](%s))", href(c.Diff))
				}
				row("❌ "+c.Status, c.Output, d)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if rows == 0 {
		bw.WriteString("\nNo failures.\n")
	}
	warned := false
	err = models.each(func(r *ModelResult) error {
		for _, wn := range r.Warnings {
			if !warned {
				bw.WriteString("\n<details><summary>Warnings</summary>\n\n| Model | Code | Message |\n|---|---|---|\n")
				warned = true
			}
			fmt.Fprintf(bw, "| %s | %s | %s |\n", mdEscape(r.Input), mdEscape(string(wn.Code)), mdEscape(wn.Message))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if warned {
		bw.WriteString("\n</details>\n")
	}
	return bw.Flush()
}

// String is the summary as a line for a person: "1 model: 1 rendered,
// 0 unchanged, 0 failed, 2 warnings".
func (s Summary) String() string {
	return fmt.Sprintf("%s: %d rendered, %d unchanged, %d failed, %s", count(s.Models, "model", "models"), s.OK, s.Cached, s.Failed, count(s.Warnings, "warning", "warnings"))
}

// count writes n with the noun's singular or plural: "1 model", "2 models".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// mdEscape makes a name or message from a model or an archive one
// table cell of plain text: clipped, control characters escaped
// (clip.Display, which takes the line breaks too), and what Markdown or
// the HTML it allows would read as markup backslashed or written as an
// entity: a cell separator, a link, a tag.
func mdEscape(s string) string {
	return mdReplacer.Replace(clip.Display(s, mdText))
}

// mdText is how many bytes of one name or message a summary cell shows.
const mdText = 500

var mdReplacer = strings.NewReplacer("\\", "\\\\", "|", "\\|", "[", "\\[", "]", "\\]", "`", "\\`", "*", "\\*", "_", "\\_",
	"<", "&lt;", ">", "&gt;", "&", "&amp;")
