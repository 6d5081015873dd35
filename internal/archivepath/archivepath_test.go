package archivepath

import "testing"

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in, archive, inner string
		ok                 bool
	}{
		{"maps/Hero.w3x:war3mapImported/Hero.mdx", "maps/Hero.w3x", "war3mapImported/Hero.mdx", true},
		{`C:\maps\Hero.W3M:war3mapImported\Hero.mdx`, `C:\maps\Hero.W3M`, "war3mapImported/Hero.mdx", true},
		{"war3.mpq:/Units/Footman.mdx", "war3.mpq", "Units/Footman.mdx", true},
		{`C:\models\a.mdx`, "", "", false},
		{"a.w3x", "", "", false},
		{"a.w3x:", "a.w3x", "", false},
		{"odd:name.mdx", "", "", false},
	} {
		a, in, ok := Split(c.in)
		if a != c.archive || in != c.inner || ok != c.ok {
			t.Errorf("Split(%q) = %q, %q, %v", c.in, a, in, ok)
		}
		if ok && Join(a, in) != c.in && c.in[len(a)+1] != '/' && c.in[len(a)+1:] == in {
			t.Errorf("Join does not invert Split for %q", c.in)
		}
	}
	if !IsArchive("X.MPQ") || IsArchive("x.mdx") {
		t.Error("IsArchive")
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		`Textures\Stone.blp`: "Textures/Stone.blp", `\war3map.j`: "war3map.j", `a\\.\b`: "a/b", "a/b/c": "a/b/c",
		"/abs/x.mdl": "abs/x.mdl", `units\\\foot.mdl`: "units/foot.mdl", "esc\x1b[2J.mdl": "esc\x1b[2J.mdl",
		`..\..\etc\passwd`: "", `a\..\b`: "", `C:\x.txt`: "", "": "", `\\`: "", ".": "", "a\x00b": "", "..": "",
	} {
		got, err := Clean(in)
		if want == "" {
			if err == nil {
				t.Errorf("%q: accepted as %q", in, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
}
