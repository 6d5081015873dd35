package batch

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
)

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
			rows = append(rows, row{"❌ failed", r.Input, "render", mdEscape(strings.Join(r.Errors, "; "))})
		}
		for _, c := range r.Checks {
			if c.Failed() {
				d := mdEscape(c.Message)
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
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.status, mdEscape(r.model), mdEscape(r.what), r.detail)
		}
	} else {
		b.WriteString("\nNo failures.\n")
	}
	var warn []string
	for _, r := range m.Models {
		for _, w := range r.Warnings {
			warn = append(warn, fmt.Sprintf("| %s | %s | %s |", mdEscape(r.Input), mdEscape(string(w.Code)), mdEscape(w.Message)))
		}
	}
	if len(warn) > 0 {
		b.WriteString("\n<details><summary>Warnings</summary>\n\n| Model | Code | Message |\n|---|---|---|\n")
		b.WriteString(strings.Join(warn, "\n"))
		b.WriteString("\n\n</details>\n")
	}
	return b.String()
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
