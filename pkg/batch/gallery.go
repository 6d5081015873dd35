package batch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"html/template"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/internal/clip"
)

// The gallery is static HTML, no server, so it works as a CI artifact
// opened from disk. It is paged: a page holds galleryPage cards, so a
// batch of a hundred thousand models opens as quickly as one of a few
// hundred (index.html, index-2.html, ...; a shard's index-0-of-4.html,
// index-0-of-4-2.html, ...). A small script filters the cards by name and
// status; across pages it reads index-models.js, one short line per
// model, and links the matches on other pages. Without scripts the pages
// and their links still work. Links are relative to the output folder.
const (
	// galleryPage is how many cards a page holds.
	galleryPage = 500
	// galleryItems is how many errors and warnings a card lists, and
	// galleryText how many bytes of one name or message it shows.
	galleryItems = 20
	galleryText  = 300
	// galleryPreviews is how many sheets and animations a card shows
	// before it folds the rest away.
	galleryPreviews = 4
)

var galleryFuncs = template.FuncMap{"href": href, "count": countGrouped, "num": grouped}

var galleryHead = template.Must(template.New("head").Funcs(galleryFuncs).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}{{if gt .Pages 1}} (page {{num .Page}} of {{num .Pages}}){{end}}</title>
<style>
*{box-sizing:border-box}
html{overflow-wrap:anywhere}
body{font-family:system-ui,sans-serif;margin:0;padding:12px;background:#f6f6f6;color:#222}
h1{font-size:1.4em;margin:0 0 4px}
header p{margin:4px 0}
.controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}
.controls input{flex:1 1 12em;min-width:0;font:inherit;padding:4px 6px}
.controls select{font:inherit;padding:3px}
nav.pager{margin:8px 0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,17rem),1fr));gap:12px}
.card{min-width:0;background:#fff;border:1px solid #ccc;border-radius:6px;padding:8px}
.card.failed,.card.bad{border:2px solid #c00}
.card[hidden]{display:none}
.thumb{display:block}
.thumb img,.thumb .none{display:block;width:100%;max-width:256px;aspect-ratio:1;margin:0 auto;object-fit:contain;image-rendering:pixelated;
background:repeating-conic-gradient(#ddd 0% 25%,#fff 0% 50%) 50%/16px 16px}
.thumb .none{max-width:96px;display:flex;align-items:center;justify-content:center;background:#eee;color:#777;font-size:12px;text-align:center}
.name{font-size:1em;margin:6px 0 0;font-family:ui-monospace,monospace;word-break:break-all}
.input{font-size:11px;color:#666;font-family:ui-monospace,monospace;word-break:break-all}
.status{margin:4px 0}
.status b{font-weight:600}
.failed .status b,.bad .status b,.err{color:#b00}
.warn{color:#8a5300}
.previews{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0}
.previews figure{margin:0;max-width:100%}
.previews img{display:block;max-width:100%;max-height:128px;object-fit:contain;
background:repeating-conic-gradient(#ddd 0% 25%,#fff 0% 50%) 50%/12px 12px}
.previews figcaption{font-size:11px;color:#555}
.previews figure.sheet{flex:1 1 100%}
.previews .sheet a{display:block;max-height:12rem;overflow:hidden}
.previews .sheet img{max-height:none}
details{margin:4px 0}
summary{cursor:pointer}
ul{padding-left:1.2em;margin:4px 0}
li{margin:2px 0}
.matches li{font-family:ui-monospace,monospace;font-size:12px}
</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
<p>{{count .S.Models "model" "models"}}: {{num .S.OK}} rendered, {{num .S.Cached}} unchanged, {{num .S.Failed}} failed, {{count .S.Warnings "warning" "warnings"}}{{if .Check}}; {{count .S.Checks "check" "checks"}}, {{num .S.Regressions}} regressions, {{num .S.Updated}} updated{{end}}{{if .Interrupted}}; the run was interrupted: these are the models that finished{{end}}.{{if .Icons}} The icons of the unit models, at game size and enlarged: <a href="{{.Icons}}">{{.Icons}}</a>.{{end}}</p>
<div class="controls"><input id="q" type="search" placeholder="filter by name" aria-label="filter by name">
<select id="st" aria-label="status"><option value="">every status</option><option value="ok">rendered</option><option value="cached">unchanged</option><option value="failed">failed</option><option value="warn">with warnings</option></select>
<span id="shown"></span></div>
{{template "pager" .}}
</header>
<ul class="matches" id="elsewhere" hidden></ul>
<main class="grid">
`))

var galleryPager = template.Must(galleryHead.New("pager").Parse(`{{if gt .Pages 1}}<nav class="pager">{{if .Prev}}<a href="{{.First}}">« first</a> · <a href="{{.Prev}}">‹ previous</a> · {{end}}page {{num .Page}} of {{num .Pages}}{{if .Next}} · <a href="{{.Next}}">next ›</a> · <a href="{{.Last}}">last »</a>{{end}}</nav>{{end}}`))

var galleryFoot = template.Must(galleryHead.New("foot").Parse(`</main>
<footer>{{template "pager" .}}</footer>
<script>
(function(){
var q=document.getElementById("q"),st=document.getElementById("st"),shown=document.getElementById("shown"),
 elsewhere=document.getElementById("elsewhere"),cards=document.querySelectorAll(".card"),
 pages={{.Pages}},page={{.Page}},index={{.Index}},all=null,loading=false;
function match(name,status,warn){
 var t=q.value.trim().toLowerCase(),s=st.value;
 if(t&&name.indexOf(t)<0)return false;
 if(s==="warn")return warn>0;
 return !s||s===status;
}
function others(){
 elsewhere.textContent="";
 if(pages<2||(!q.value.trim()&&!st.value)){elsewhere.hidden=true;return;}
 if(!all){if(!loading){loading=true;var sc=document.createElement("script");sc.src=index;
  sc.onload=function(){all=window.mdxrenderModels||[];others();};document.head.appendChild(sc);}return;}
 var n=0,most=200;
 for(var i=0;i<all.length;i++){var m=all[i];
  if(m[3]===page||!match(m[0].toLowerCase(),m[1],m[2]))continue;
  if(n<most){var li=document.createElement("li"),a=document.createElement("a");
   a.href=m[4]+"#m"+m[5];a.textContent=m[0]+" ("+m[1]+", page "+m[3]+")";li.appendChild(a);elsewhere.appendChild(li);}
  n++;}
 if(n>most){var li=document.createElement("li");li.textContent="and "+(n-most)+" more";elsewhere.appendChild(li);}
 if(n){var h=document.createElement("li");h.textContent=n+" on other pages:";elsewhere.insertBefore(h,elsewhere.firstChild);}
 elsewhere.hidden=!n;
}
function apply(){
 var n=0;
 for(var i=0;i<cards.length;i++){var c=cards[i],ok=match(c.dataset.name,c.dataset.status,+c.dataset.warn);
  c.hidden=!ok;if(ok)n++;}
 shown.textContent=(q.value.trim()||st.value)?n+" of "+cards.length+" on this page":"";
 others();
}
q.addEventListener("input",apply);st.addEventListener("change",apply);
if(q.value||st.value)apply();
})();
</script>
</body>
</html>
`))

// writeCard writes a model's card. It is written by hand, not by
// html/template, whose reflection took most of the time a gallery of
// 100,000 cards took: every text goes through esc (HTML escaping, after
// show has clipped it and escaped its control characters) and every link
// through href.
func writeCard(b *bytes.Buffer, c *galleryCard) {
	w := b.WriteString
	r := c.R
	w(`<article class="card `)
	w(esc(c.Class))
	w(`" id="m`)
	w(strconv.Itoa(c.N))
	w(`" data-name="`)
	w(esc(strings.ToLower(show(c.Name))))
	w(`" data-status="`)
	w(esc(r.Status))
	w(`" data-warn="`)
	w(strconv.Itoa(len(r.Warnings)))
	w("\">\n")
	if c.Thumb != "" {
		w(`<a class="thumb" href="`)
		w(escURL(c.Thumb))
		w(`"><img src="`)
		w(escURL(c.Thumb))
		w(`" alt="`)
		w(esc(show(c.Name)))
		w(`" loading="lazy" width="256" height="256"></a>`)
	} else {
		none := "no picture"
		if r.Icons != nil && !r.Icons.Unit && len(r.Outputs) == 0 {
			// A batch of icons alone: the model is not drawn at all.
			none = "no icon: not a unit"
		}
		w(`<div class="thumb"><div class="none">`)
		w(none)
		w(`</div></div>`)
	}
	w("\n<h2 class=\"name\">")
	w(esc(show(c.Name)))
	w("</h2>\n")
	if c.Name != r.Input {
		w(`<div class="input">`)
		w(esc(show(r.Input)))
		w("</div>\n")
	}
	w(`<div class="status"><b>`)
	w(esc(c.Status))
	w("</b>")
	for i, s := range r.Sequences {
		if i == 0 {
			w(": ")
		} else {
			w(", ")
		}
		w(esc(show(s)))
	}
	w("</div>\n")
	previews := func(ps []galleryPreview) {
		w(`<div class="previews">`)
		for _, p := range ps {
			if p.Sheet {
				// A sheet is shown at its own size, its first rows
				// when it is tall: shrunk to the card's height, a
				// sheet of thirty sequences is a thin strip.
				w(`<figure class="sheet"><a href="`)
			} else {
				w(`<figure><a href="`)
			}
			w(escURL(p.Path))
			w(`"><img src="`)
			w(escURL(p.Path))
			w(`" alt="`)
			w(esc(p.Caption))
			w(`" loading="lazy"></a><figcaption>`)
			w(esc(p.Caption))
			w("</figcaption></figure>")
		}
		w("</div>\n")
	}
	if len(c.Previews) > 0 {
		previews(c.Previews)
	}
	if len(c.MorePreviews) > 0 {
		w("<details><summary>")
		w(countGrouped(len(c.MorePreviews), "more preview", "more previews"))
		w("</summary>")
		previews(c.MorePreviews)
		w("</details>\n")
	}
	// items writes n list items, each item(i), and a last one for the
	// more the card leaves out.
	items := func(n, more int, item func(i int)) {
		for i := range n {
			w("<li>")
			item(i)
			w("</li>")
		}
		if more > 0 {
			w("<li>and " + grouped(more) + " more (the manifest has them)</li>")
		}
	}
	if len(c.Errors) > 0 {
		w(`<ul class="err">`)
		items(len(c.Errors), c.MoreErrors, func(i int) { w(esc(show(c.Errors[i]))) })
		w("</ul>\n")
	}
	if len(r.Checks) > 0 {
		w("<ul>")
		for _, k := range r.Checks {
			if k.Failed() {
				w(`<li class="err">`)
			} else {
				w("<li>")
			}
			w(esc(k.Status))
			w(` <a href="`)
			w(escURL(k.Output))
			w(`">`)
			w(esc(show(k.Output)))
			w("</a>")
			if k.Diff != "" {
				w(` (<a href="`)
				w(escURL(k.Diff))
				w(`">diff</a>)`)
			}
			if k.Message != "" {
				w(": ")
				w(esc(show(k.Message)))
			}
			w("</li>")
		}
		w("</ul>\n")
	}
	if len(c.Warnings) > 0 {
		w(`<details class="warn"><summary>`)
		w(countGrouped(len(r.Warnings), "warning", "warnings"))
		w("</summary><ul>")
		items(len(c.Warnings), c.MoreWarnings, func(i int) {
			w(esc(show(string(c.Warnings[i].Code))))
			w(": ")
			w(esc(show(c.Warnings[i].Message)))
		})
		w("</ul></details>\n")
	}
	if len(c.Others) > 0 {
		w("<details><summary>")
		w(countGrouped(len(c.Others), "other file", "other files"))
		w("</summary><ul>")
		for _, o := range c.Others {
			w(`<li><a href="`)
			w(escURL(o.Path))
			w(`" title="`)
			w(esc(show(o.Path)))
			w(`">`)
			w(esc(o.Kind))
			w("</a></li>")
		}
		w("</ul></details>\n")
	}
	w("</article>\n")
}

// esc escapes text for HTML, in an element or a quoted attribute.
var esc = template.HTMLEscapeString

// escURL is href of p, escaped for a quoted attribute.
func escURL(p string) string { return esc(string(href(p))) }

type galleryCard struct {
	R *ModelResult
	// N numbers the card in the gallery, for links to it (#mN).
	N     int
	Name  string // the path below the input: what tells two Archway.mdx apart
	Class string
	// Status says the status in words.
	Status string
	Thumb  string
	// Previews are the sheets and animations shown; MorePreviews those
	// folded away, past galleryPreviews: a model with thirty sequences
	// gets a card, not a column.
	Previews, MorePreviews []galleryPreview
	Others                 []OutputFile
	// The first galleryItems errors and warnings, and how many more the
	// manifest has: a model with thousands of warnings gets a card, not
	// a page.
	Errors                   []string
	Warnings                 []Warning
	MoreErrors, MoreWarnings int
}

// galleryPreview is a sheet or an animation shown on a card.
type galleryPreview struct {
	Path, Caption string
	Sheet         bool
}

// grouped writes n with its thousands apart ("100,000"), as a person
// reads a count at a glance.
func grouped(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// countGrouped is count with the number grouped.
func countGrouped(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return grouped(n) + " " + many
}

// show is what a card shows of a name or message from a model or an
// archive: clipped, control characters and text-reversing marks written
// as escapes (html/template escapes the HTML).
func show(s string) string { return clip.Display(s, galleryText) }

// statusWords are the statuses as a card says them.
var statusWords = map[string]string{StatusOK: "rendered", StatusCached: "unchanged", StatusFailed: "failed"}

func newCard(r *ModelResult, n int) galleryCard {
	c := galleryCard{R: r, N: n, Name: r.Rel, Class: r.Status, Status: statusWords[r.Status],
		Errors: r.Errors[:min(len(r.Errors), galleryItems)], Warnings: r.Warnings[:min(len(r.Warnings), galleryItems)]}
	if c.Name == "" {
		c.Name = r.Input
	}
	if c.Status == "" {
		c.Status = r.Status
	}
	if r.Failed() && r.Status != StatusFailed {
		c.Class += " bad"
	}
	c.MoreErrors, c.MoreWarnings = len(r.Errors)-len(c.Errors), len(r.Warnings)-len(c.Warnings)
	// The still if there is one, else the sheet, else an animation
	// (browsers play GIF and APNG in an img), else an icon's PNG (a batch
	// of icons alone); every sheet page and animation is shown too, and
	// the other files are listed.
	thumb := -1
	for _, kind := range []string{string(FormatPNG), string(FormatSheet), string(FormatGIF), string(FormatAPNG), KindIconPNG} {
		for i, o := range r.Outputs {
			if thumb < 0 && o.Kind == kind {
				thumb = i
			}
		}
	}
	for i, o := range r.Outputs {
		switch {
		case i == thumb:
			c.Thumb = o.Path
		case o.Kind == string(FormatPNG) || o.Kind == string(FormatSheet) || o.Kind == string(FormatGIF) || o.Kind == string(FormatAPNG):
			c.Previews = append(c.Previews, galleryPreview{o.Path, previewCaption(o), o.Kind == string(FormatSheet)})
		default:
			c.Others = append(c.Others, o)
		}
	}
	if len(c.Previews) > galleryPreviews {
		c.Previews, c.MorePreviews = c.Previews[:galleryPreviews], c.Previews[galleryPreviews:]
	}
	return c
}

// previewCaption names a preview on its card: its kind, sequence and,
// with several, view and team.
func previewCaption(o OutputFile) string {
	parts := []string{o.Kind}
	if o.Kind == string(FormatSheet) {
		parts[0] = "sheet"
	}
	if o.Sequence != "" {
		parts = append(parts, o.Sequence)
	}
	if o.View != "" && o.View != "default" {
		parts = append(parts, o.View)
	}
	if o.Team != "" {
		parts = append(parts, o.Team)
	}
	return show(strings.Join(parts, " "))
}

// galleryPageData is what the head, pager and foot of a page show.
type galleryPageData struct {
	Title       string
	S           Summary
	Check       bool
	Interrupted bool
	Page, Pages int
	// First, Prev, Next and Last are the pager's links ("" for none);
	// Index is the script that lists every model.
	First, Prev, Next, Last string
	Index                   template.URL
	// Icons is the icons page ("" for a batch without icons).
	Icons string
}

// galleryTitle is the gallery's title: the program and its version, or
// that it is a development build when it has none.
func galleryTitle(version string) string {
	if !knownVersion(version) {
		return "mdxrender (development build)"
	}
	return "mdxrender " + version
}

// pageName is the file of page k (from 1) of the gallery named name.
func pageName(name string, k int) string {
	if k == 1 {
		return name
	}
	return strings.TrimSuffix(name, ".html") + "-" + strconv.Itoa(k) + ".html"
}

// indexName is the gallery's list of every model, for the filter.
func indexName(name string) string { return strings.TrimSuffix(name, ".html") + "-models.js" }

// galleryOrder calls fn with every model in the gallery's order, with its
// number: failures first in a check run (two passes), else the
// manifest's order.
func galleryOrder(models modelSource, check bool, fn func(r *ModelResult, n int) error) error {
	n := 0
	if !check {
		return models.each(func(r *ModelResult) error { n++; return fn(r, n) })
	}
	for _, bad := range []bool{true, false} {
		err := models.each(func(r *ModelResult) error {
			if r.Failed() != bad {
				return nil
			}
			n++
			return fn(r, n)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// galleryPages renders the gallery of the models, calling emit with each
// page as it is done (k from 1); name is the first page's file name.
func galleryPages(m *Manifest, models modelSource, check bool, name string, emit func(k int, page []byte) error) (pages int, err error) {
	return galleryPagesAnd(m, models, check, name, emit, nil)
}

// galleryPagesAnd is galleryPages that also calls card with every card,
// for the list of every model.
func galleryPagesAnd(m *Manifest, models modelSource, check bool, name string, emit func(k int, page []byte) error, card func(c *galleryCard) error) (pages int, err error) {
	total := m.Summary.Models
	pages = max(1, (total+galleryPage-1)/galleryPage)
	d := galleryPageData{Title: galleryTitle(m.Version), S: m.Summary, Check: check, Interrupted: m.Interrupted,
		Pages: pages, Index: href(indexName(name))}
	if m.Reports.Icons != "" {
		d.Icons = ReportName(m.Reports.Icons, m)
	}
	var b bytes.Buffer
	k, inPage := 1, 0
	begin := func() error {
		b.Reset()
		d.Page = k
		d.First, d.Prev, d.Next, d.Last = "", "", "", ""
		if k > 1 {
			d.First, d.Prev = pageName(name, 1), pageName(name, k-1)
		}
		if k < pages {
			d.Next, d.Last = pageName(name, k+1), pageName(name, pages)
		}
		return galleryHead.Execute(&b, d)
	}
	end := func() error {
		if err := galleryFoot.Execute(&b, d); err != nil {
			return err
		}
		return emit(k, b.Bytes())
	}
	if err := begin(); err != nil {
		return pages, err
	}
	err = galleryOrder(models, check, func(r *ModelResult, n int) error {
		if inPage == galleryPage && k < pages {
			if err := end(); err != nil {
				return err
			}
			k, inPage = k+1, 0
			if err := begin(); err != nil {
				return err
			}
		}
		inPage++
		c := newCard(r, n)
		writeCard(&b, &c)
		if card != nil {
			return card(&c)
		}
		return nil
	})
	if err != nil {
		return pages, err
	}
	for {
		// A page for each the summary counted, even if fewer models came.
		if err := end(); err != nil {
			return pages, err
		}
		if k >= pages {
			return pages, nil
		}
		k++
		if err := begin(); err != nil {
			return pages, err
		}
	}
}

// writeGallery writes the gallery's pages through g into d, the first as
// name, and,
// with several pages, the list of every model the filter reads; pages an
// earlier, larger gallery of the name left are removed. It returns the
// names a person opens: the first page (and the list, with several).
func writeGallery(ctx context.Context, d *atomicfile.Dir, g *atomicfile.Group, name string, m *Manifest, models modelSource, check bool) ([]string, error) {
	var written []string
	idx := indexName(name)
	pages := max(1, (m.Summary.Models+galleryPage-1)/galleryPage)
	// The list of every model is written as the pages are, from the same
	// pass over the models, through a pipe into its file.
	var list *bufio.Writer
	var pw *io.PipeWriter
	listDone := make(chan error, 1)
	if pages > 1 {
		var pr *io.PipeReader
		pr, pw = io.Pipe()
		list = bufio.NewWriter(pw)
		list.WriteString("window.mdxrenderModels=[\n")
		go func() {
			err := g.Write(ctx, idx, func(w io.Writer) error { _, err := io.Copy(w, pr); return err })
			pr.CloseWithError(err) // the pass stops writing if the file failed
			listDone <- err
		}()
	}
	var listed func(c *galleryCard) error
	if list != nil {
		listed = func(c *galleryCard) error {
			k := (c.N-1)/galleryPage + 1
			b, err := json.Marshal([]any{c.Name, c.R.Status, len(c.R.Warnings), k, pageName(name, k), c.N})
			if err != nil {
				return err
			}
			// json.Marshal escapes U+2028 and U+2029, which end a line
			// of script in older parsers.
			list.Write(b)
			_, err = list.WriteString(",\n")
			return err
		}
	}
	_, err := galleryPagesAnd(m, models, check, name, func(k int, page []byte) error {
		n := pageName(name, k)
		if err := g.WriteFile(ctx, n, page); err != nil {
			return err
		}
		if k == 1 {
			written = append(written, n)
		}
		return nil
	}, listed)
	if list != nil {
		if err == nil {
			list.WriteString("];\n")
			err = list.Flush()
		}
		pw.CloseWithError(err)
		if lerr := <-listDone; err == nil {
			err = lerr
		}
	}
	if err != nil {
		return written, err
	}
	if pages > 1 {
		written = append(written, idx)
	} else {
		d.Remove(idx)
	}
	for k := pages + 1; ; k++ {
		if d.Remove(pageName(name, k)) != nil {
			break
		}
	}
	return written, nil
}

// Gallery renders the gallery of a manifest held in memory, one page of
// it: the first, with links to the others, which WriteReports writes.
// Each card has the model's thumbnail, its path below the input, its
// sequences, its sheets and animations, its warnings folded away, its
// errors, and, in a check run, the comparisons with links to the diff
// images. Failures come first in a check run; otherwise cards follow the
// manifest.
func Gallery(m *Manifest, check bool) ([]byte, error) {
	var first []byte
	_, err := galleryPages(m, memoryModels(m.Models), check, ReportName("index.html", m), func(k int, page []byte) error {
		if k == 1 {
			first = bytes.Clone(page)
		}
		return nil
	})
	return first, err
}

// href turns a slash path relative to the output folder into a relative
// URL: each segment is escaped, so names with spaces, '#' or '?' still
// link to their file.
func href(p string) template.URL {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := strings.Join(segs, "/")
	if strings.Contains(segs[0], ":") {
		// A first segment with a colon reads as a scheme
		// ("javascript:x.png"): it is made a relative path.
		u = "./" + u
	}
	return template.URL(u)
}
