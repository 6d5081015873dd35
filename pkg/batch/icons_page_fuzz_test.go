package batch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzIconPage writes the icon page of a manifest whose names, reasons
// and messages are anything a hostile archive or model could make them:
// it must be written, and let no raw control character, text-reversing
// mark or markup from them through.
func FuzzIconPage(f *testing.F) {
	f.Add("maps/x.w3x:Units/Hero.mdx", "it has Stand and \"Walk\" animations", "Hero", "icons/a b#?.blp", "x\x1b[2J")
	f.Add("<script>alert(1)</script>", "\u202e", "\r\n", "icons/%zz/..", "\x00\xff")
	manifest := func(input, why, name, file, msg string) *Manifest {
		return &Manifest{Version: "test", Models: []ModelResult{
			{Input: input, Status: StatusOK, Icons: &IconResult{Unit: true, Why: why, Name: name, Framing: msg},
				Warnings: []Warning{{Code: IconNameTaken, Message: msg}},
				Outputs: []OutputFile{{Kind: KindIcon, Path: file, Icon: name, Size: 64},
					{Kind: KindIconPNG, Path: file + ".png", Icon: name, Size: 64}}},
			{Input: name, Status: StatusOK, Icons: &IconResult{Why: why}},
			{Input: why, Status: StatusFailed, Errors: []string{msg, input}},
		}}
	}
	// The page of plain names: its markup is all the page may hold.
	plain, err := IconPage(manifest("x", "x", "x", "x", "x"))
	if err != nil {
		f.Fatal(err)
	}
	tags := strings.Count(string(plain), "<")
	f.Fuzz(func(t *testing.T, input, why, name, file, msg string) {
		b, err := IconPage(manifest(input, why, name, file, msg))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		if !utf8.ValidString(page) {
			t.Fatal("not UTF-8")
		}
		for _, r := range page {
			if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 || r == 0x202e {
				t.Fatalf("raw %U in the page", r)
			}
		}
		if n := strings.Count(page, "<"); n != tags {
			t.Fatalf("%d '<' in the page, %d in the page of plain names: markup let through", n, tags)
		}
	})
}
