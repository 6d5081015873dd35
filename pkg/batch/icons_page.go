package batch

import (
	"bytes"
	"encoding/json"
	"html/template"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/mdxrender/mdxrender/pkg/icon"
)

// IconPageName is the icon page's file name in the output folder.
const IconPageName = "icons.html"

// iconPageTmpl is one static page, like the gallery: no scripts, links
// relative to the output folder. Each icon shows at the size the game
// draws it and enlarged with its pixels kept square, so that both the
// look in the command card and the detail can be judged.
var iconPageTmpl = template.Must(template.New("icons").Funcs(template.FuncMap{"href": href, "show": show}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Icons: mdxrender {{.Version}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:1em;background:#1c1e24;color:#ddd}
a{color:#9cf}
section{border-top:1px solid #444;padding:8px 0}
h2{font-size:15px;margin:4px 0;font-family:monospace;word-break:break-all}
.note{font-size:13px;color:#aaa;margin:2px 0}
.row{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-end;margin:8px 0}
figure{margin:0;display:flex;gap:8px;align-items:flex-end}
figcaption{font-size:12px;color:#bbb;margin-top:2px}
.big{image-rendering:pixelated;image-rendering:crisp-edges}
.err{color:#f77}.warn{color:#eb6}
table{border-collapse:collapse;font-size:13px}td{padding:2px 8px;vertical-align:top}
td.path{font-family:monospace;word-break:break-all}
</style>
</head>
<body>
<h1>Icons</h1>
<p>{{.Counts}}{{if .NoPNG}} (icons written without PNGs: the page cannot show them){{end}}. Each icon is shown at the size the game draws it and enlarged {{.Zoom}}× (HD {{.ZoomHD}}×). The folder <a href="{{href .Dir}}/">{{.Dir}}</a> imports into a map as it is.</p>
{{range .Units}}<section>
<h2>{{show .R.Input}}</h2>
<p class="note">{{show .R.Icons.Name}}: a unit because {{show .R.Icons.Why}}; seen through {{show .R.Icons.Framing}}{{if eq .R.Status "cached"}} (unchanged since an earlier run){{end}}.</p>
{{range .Warnings}}<p class="note warn">{{show (print .Code)}}: {{show .Message}}</p>{{end}}
{{range .Rows}}<div class="row">{{range .}}<figure>
{{if .PNG}}<img src="{{href .PNG}}" width="{{.Size}}" height="{{.Size}}" alt="{{show .Kind}}"><a href="{{href .PNG}}"><img class="big" src="{{href .PNG}}" width="{{.Big}}" height="{{.Big}}" alt="{{show .Kind}} enlarged"></a>{{end}}
<figcaption>{{show .Kind}} {{.Size}}×{{.Size}}<br><a href="{{href .File}}">{{show .Ext}}</a></figcaption>
</figure>{{end}}</div>
{{end}}</section>
{{end}}
{{if .Failed}}<section><h2>Failed</h2><table>{{range .Failed}}<tr><td class="path">{{show .Input}}</td><td class="err">{{if .Errors}}{{show (index .Errors 0)}}{{if gt (len .Errors) 1}} (the first of {{len .Errors}} errors; the manifest has them all){{end}}{{end}}</td></tr>{{end}}</table></section>{{end}}
{{if .Others}}<section><h2>Not units</h2><table>{{range .Others}}<tr><td class="path">{{show .Input}}</td><td>{{if .Icons}}{{show .Icons.Why}}{{end}}</td></tr>{{end}}</table></section>{{end}}
</body>
</html>
`))

// pageIcon is one icon on the page: its file, the PNG beside it (if
// written), and the sizes it is shown at.
type pageIcon struct {
	Kind, File, PNG, Ext string
	Size, Big            int
}

type pageUnit struct {
	R        *ModelResult
	Warnings []Warning
	// Rows are the icons by size: the classic ones, then HD.
	Rows [][]pageIcon
}

// The enlargement of the page's classic and HD icons.
const (
	iconPageZoom   = 4
	iconPageZoomHD = 2
)

// IconPage renders the static icons.html of a manifest: every unit
// model's icons, grouped per model with its path, at the game's size and
// enlarged, then the models that failed and those that are not units,
// with why. Models follow the manifest's order.
func IconPage(m *Manifest) ([]byte, error) {
	var units []pageUnit
	var others, failed []*ModelResult
	n, noPNG := 0, false
	for i := range m.Models {
		r := &m.Models[i]
		switch {
		case r.Status == StatusFailed:
			failed = append(failed, r)
			continue
		case r.Icons == nil || !r.Icons.Unit:
			others = append(others, r)
			continue
		}
		u := pageUnit{R: r}
		for _, w := range r.Warnings {
			if w.Code == IconNameTaken && len(u.Warnings) < galleryItems {
				u.Warnings = append(u.Warnings, w)
			}
		}
		pngs := map[string]string{} // by the icon's file
		for _, o := range r.Outputs {
			if o.Kind == KindIconPNG {
				pngs[iconKey(o)] = o.Path
			}
		}
		var sd, hd []pageIcon
		for _, o := range r.Outputs {
			if o.Kind != KindIcon {
				continue
			}
			n++
			ic := pageIcon{Kind: o.Icon, File: o.Path, PNG: pngs[iconKey(o)], Size: o.Size, Big: o.Size * iconPageZoom}
			ic.Ext = strings.ToUpper(strings.TrimPrefix(path.Ext(o.Path), "."))
			if ic.PNG == "" {
				noPNG = true
			}
			if o.Size == icon.HD {
				ic.Big = o.Size * iconPageZoomHD
				hd = append(hd, ic)
			} else {
				sd = append(sd, ic)
			}
		}
		for _, row := range [][]pageIcon{sd, hd} {
			if len(row) > 0 {
				u.Rows = append(u.Rows, row)
			}
		}
		units = append(units, u)
	}
	counts := count(len(units), "unit model", "unit models") + ", " + count(n, "icon", "icons") + "; " + count(len(others), "other model", "other models") + " (not units)"
	if len(failed) > 0 {
		counts += ", " + strconv.Itoa(len(failed)) + " failed"
	}
	var b bytes.Buffer
	err := iconPageTmpl.Execute(&b, struct {
		Version      string
		Counts       string
		Units        []pageUnit
		Others       []*ModelResult
		Failed       []*ModelResult
		NoPNG        bool
		Dir          string
		Zoom, ZoomHD int
	}{m.Version, counts, units, others, failed, noPNG, IconDir, iconPageZoom, iconPageZoomHD})
	return b.Bytes(), err
}

// iconKey tells an icon's PNG from another's: the kind and size.
func iconKey(o OutputFile) string { return o.Icon + "/" + strconv.Itoa(o.Size) }

// writeIconPage writes IconPage of m with the models from models. The
// page lists every model, so they are held for it: an icon batch is a
// map's models, not a model-sharing site's.
func writeIconPage(m *Manifest, models modelSource, w io.Writer) error {
	all := *m
	all.Models = nil
	err := models.eachJSON(func(b []byte) error {
		var r ModelResult
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		all.Models = append(all.Models, r)
		return nil
	})
	if err != nil {
		return err
	}
	b, err := IconPage(&all)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
