package batch

import (
	"bytes"
	"html/template"
	"net/url"
	"sort"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
)

// galleryTmpl is a single static page: no scripts, no server, so it works
// as a CI artifact opened from disk. Links are relative to the output folder.
var galleryTmpl = template.Must(template.New("index").Funcs(template.FuncMap{"href": href, "show": show}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mdxrender {{.Version}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:1em;background:#fafafa}
.grid{display:flex;flex-wrap:wrap;gap:12px}
.card{background:#fff;border:1px solid #ccc;border-radius:6px;padding:8px;width:280px;overflow-wrap:anywhere}
.card.bad{border:2px solid #c00}
.thumb{width:256px;height:256px;object-fit:contain;image-rendering:pixelated;
background:repeating-conic-gradient(#ddd 0% 25%,#fff 0% 50%) 50%/16px 16px}
.path{font-family:monospace;font-size:12px;word-break:break-all}
.err{color:#c00}.warn{color:#a60}
ul{padding-left:1.2em;margin:4px 0}
</style>
</head>
<body>
<h1>mdxrender {{.Version}}</h1>
<p>{{.S.Models}} models: {{.S.OK}} rendered, {{.S.Cached}} unchanged, {{.S.Failed}} failed, {{.S.Warnings}} warnings{{if .Check}}; {{.S.Checks}} checks, {{.S.Regressions}} regressions, {{.S.Updated}} updated{{end}}.</p>
<div class="grid">
{{range .Cards}}<div class="card{{if .Bad}} bad{{end}}">
{{if .Thumb}}<a href="{{href .Thumb}}"><img class="thumb" src="{{href .Thumb}}" alt="{{show .R.Input}}"></a>{{else}}<div class="thumb"></div>{{end}}
<div class="path">{{show .R.Input}}</div>
<div>{{.R.Status}}{{if .R.Sequences}}: {{range $i, $s := .R.Sequences}}{{if $i}}, {{end}}{{show $s}}{{end}}{{end}}</div>
{{if .Errors}}<ul class="err">{{range .Errors}}<li>{{show .}}</li>{{end}}{{if .MoreErrors}}<li>and {{.MoreErrors}} more (the manifest has them)</li>{{end}}</ul>{{end}}
{{if .R.Checks}}<ul>{{range .R.Checks}}<li{{if .Failed}} class="err"{{end}}>{{.Status}} <a href="{{href .Output}}">{{show .Output}}</a>{{if .Diff}} (<a href="{{href .Diff}}">diff</a>){{end}}{{if .Message}}: {{show .Message}}{{end}}</li>{{end}}</ul>{{end}}
{{if .Others}}<ul>{{range .Others}}<li><a href="{{href .Path}}">{{.Kind}}{{if .Sequence}} {{show .Sequence}}{{end}}</a></li>{{end}}</ul>{{end}}
{{if .Warnings}}<ul class="warn">{{range .Warnings}}<li>{{show (print .Code)}}: {{show .Message}}</li>{{end}}{{if .MoreWarnings}}<li>and {{.MoreWarnings}} more (the manifest has them)</li>{{end}}</ul>{{end}}
</div>
{{end}}</div>
</body>
</html>
`))

type galleryCard struct {
	R      *ModelResult
	Bad    bool
	Thumb  string
	Others []OutputFile
	// The first galleryItems errors and warnings, and how many more the
	// manifest has: a model with thousands of warnings gets a card, not
	// a page.
	Errors                   []string
	Warnings                 []Warning
	MoreErrors, MoreWarnings int
}

// galleryItems is how many errors and warnings a card lists, and
// galleryText how many bytes of one name or message it shows.
const (
	galleryItems = 20
	galleryText  = 300
)

// show is what a card shows of a name or message from a model or an
// archive: clipped, control characters and text-reversing marks written
// as escapes (html/template escapes the HTML).
func show(s string) string { return clip.Display(s, galleryText) }

// Gallery renders the static index.html contact sheet of a manifest: one
// card per model with its thumbnail, path, sequences, warnings and errors,
// and, in a check run, the comparisons with links to the diff images.
// Failures come first in a check run; otherwise cards follow the manifest.
func Gallery(m *Manifest, check bool) ([]byte, error) {
	cards := make([]galleryCard, len(m.Models))
	for i := range m.Models {
		r := &m.Models[i]
		c := galleryCard{R: r, Bad: r.Failed(),
			Errors: r.Errors[:min(len(r.Errors), galleryItems)], Warnings: r.Warnings[:min(len(r.Warnings), galleryItems)]}
		c.MoreErrors, c.MoreWarnings = len(r.Errors)-len(c.Errors), len(r.Warnings)-len(c.Warnings)
		// the still if there is one, else the sheet, else an animation
		// (browsers play GIF and APNG in an img)
		thumb := -1
		for _, kind := range []string{string(FormatPNG), string(FormatSheet), string(FormatGIF), string(FormatAPNG)} {
			for i, o := range r.Outputs {
				if thumb < 0 && o.Kind == kind {
					thumb = i
				}
			}
		}
		for i, o := range r.Outputs {
			if i == thumb {
				c.Thumb = o.Path
				continue
			}
			c.Others = append(c.Others, o)
		}
		cards[i] = c
	}
	if check {
		sort.SliceStable(cards, func(i, j int) bool { return cards[i].Bad && !cards[j].Bad })
	}
	var b bytes.Buffer
	err := galleryTmpl.Execute(&b, struct {
		Version string
		S       Summary
		Check   bool
		Cards   []galleryCard
	}{m.Version, m.Summary, check, cards})
	return b.Bytes(), err
}

// href turns a slash path relative to the output folder into a relative
// URL: each segment is escaped, so names with spaces, '#' or '?' still
// link to their file.
func href(p string) template.URL {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return template.URL(strings.Join(segs, "/"))
}
