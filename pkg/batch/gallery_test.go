package batch

import (
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
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
