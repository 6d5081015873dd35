package batch

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestGalleryLinksExist(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, batchModels)
	runBatch(t, dir, 2, &fakeRenderer{})
	checkGalleryLinks(t, filepath.Join(dir, "out"))
}

var linkRE = regexp.MustCompile(`(?:src|href)="([^"]*)"`)

// checkGalleryLinks asserts every image or file index.html links exists and
// returns the linked paths in page order.
func checkGalleryLinks(t *testing.T, out string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, m := range linkRE.FindAllStringSubmatch(string(b), -1) {
		// What a browser does: undo the HTML escaping, then resolve the
		// URL relative to the page.
		u, err := url.Parse(html.UnescapeString(m[1]))
		if err != nil || u.Scheme != "" || u.Host != "" || u.RawQuery != "" || u.Fragment != "" {
			t.Errorf("index.html link %q is not a plain relative path (%v)", m[1], err)
			continue
		}
		links = append(links, u.Path)
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(u.Path))); err != nil {
			t.Errorf("index.html links a missing file: %v", err)
		}
	}
	if len(links) == 0 {
		t.Error("index.html links nothing")
	}
	return links
}

// The gallery says the version and counts in words, names each card by
// its path below the input (two x.mdx of two folders apart), folds its
// warnings, and shows its sheets and animations as pictures.
func TestGalleryCards(t *testing.T) {
	m := &Manifest{Version: "v1.2.3", Models: []ModelResult{
		{Input: "/in/human/Archway.mdx", Rel: "human/Archway.mdx", Status: StatusOK, Sequences: []string{"Stand", "Walk"},
			Outputs: []OutputFile{{Path: "human/Archway.png", Kind: "png"}, {Path: "human/Archway-sheet.png", Kind: "sheet"},
				{Path: "human/Archway-sheet.json", Kind: "sheet-json"}, {Path: "human/Archway-Walk.gif", Kind: "gif", Sequence: "Walk"}},
			Warnings: []Warning{{Code: "missing-texture", Message: "texture x.blp: not found"}}},
	}}
	m.summarize()
	page, err := Gallery(m, false)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{"<title>mdxrender v1.2.3</title>", "1 model: 1 rendered, 0 unchanged, 0 failed, 1 warning.",
		`<h2 class="name">human/Archway.mdx</h2>`, `<div class="input">/in/human/Archway.mdx</div>`,
		`<details class="warn"><summary>1 warning</summary>`, `<img src="human/Archway-sheet.png"`, `<img src="human/Archway-Walk.gif"`,
		`<figcaption>gif Walk</figcaption>`, `<figure class="sheet"><a href="human/Archway-sheet.png">`, `<a href="human/Archway-sheet.json" title="human/Archway-sheet.json">sheet-json</a>`} {
		if !strings.Contains(s, want) {
			t.Errorf("the gallery lacks %s", want)
		}
	}
	m.Models = append(m.Models, ModelResult{Input: "/in/orc/Archway.mdx", Rel: "orc/Archway.mdx", Status: StatusCached})
	m.Version = ""
	m.summarize()
	page, _ = Gallery(m, false)
	s = string(page)
	for _, want := range []string{"<title>mdxrender (development build)</title>", "2 models: 1 rendered, 1 unchanged", `<h2 class="name">orc/Archway.mdx</h2>`,
		`<div class="none">no picture</div>`} {
		if !strings.Contains(s, want) {
			t.Errorf("the gallery lacks %s", want)
		}
	}
}

// A gallery of more models than a page holds is paged, each page linking
// to the others, with a list of every model for the filter; pages a
// larger gallery left are removed.
func TestGalleryPages(t *testing.T) {
	dir := t.TempDir()
	out := testOutput(t, dir)
	write := func(n int) {
		m := &Manifest{Tool: "mdxrender", Version: "v1", Reports: Reports{Gallery: "index.html"}}
		for i := range n {
			m.Models = append(m.Models, ModelResult{Input: fmt.Sprintf("m%04d.mdx", i), Rel: fmt.Sprintf("m%04d.mdx", i), Status: StatusOK})
		}
		m.summarize()
		if _, err := m.writeReports(context.Background(), out, "", memoryModels(m.Models)); err != nil {
			t.Fatal(err)
		}
	}
	write(2*galleryPage + 1)
	for k, want := range map[string]string{"index.html": "page 1 of 3", "index-2.html": "page 2 of 3", "index-3.html": "page 3 of 3"} {
		b, err := os.ReadFile(filepath.Join(dir, k))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v, want %q", k, err, want)
		}
	}
	last, _ := os.ReadFile(filepath.Join(dir, "index-3.html"))
	if c := strings.Count(string(last), `<article class="card`); c != 1 || !strings.Contains(string(last), fmt.Sprintf(`id="m%d"`, 2*galleryPage+1)) {
		t.Errorf("the last page has %d cards", c)
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "index-models.js"))
	if !strings.Contains(string(idx), `["m1000.mdx","ok",0,3,"index-3.html",1001]`) {
		t.Errorf("the list of models lacks the last:\n%.300s", idx)
	}
	write(3)
	for _, gone := range []string{"index-2.html", "index-3.html", "index-models.js"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s left from the larger gallery", gone)
		}
	}
}

// A link whose first segment holds a colon stays a relative path, not
// a scheme: a model named javascript:x.mdx links ./javascript:x.png.
func TestGalleryLinkNoScheme(t *testing.T) {
	if got := string(href("javascript:alert(1)-default.png")); got != "./javascript:alert%281%29-default.png" {
		t.Errorf("href = %q", got)
	}
	if got := string(href("sub/a:b.png")); got != "sub/a:b.png" {
		t.Errorf("href = %q", got)
	}
}

// Counts are written with their thousands apart.
func TestGrouped(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 99899: "99,899", 100000: "100,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := grouped(n); got != want {
			t.Errorf("grouped(%d) = %q, want %q", n, got, want)
		}
	}
}
