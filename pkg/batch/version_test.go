package batch

import "testing"

// A version that names one build keys the cache by itself; one that does
// not (none, "dev", a "+dirty" build) adds the program's hash, so that a
// rebuilt program renders again rather than trust the last one's results.
func TestBuildKey(t *testing.T) {
	program := func() string { return "p1" }
	for _, c := range []struct{ version, want string }{
		{"v1.2.0", "v1.2.0"},
		{"devel-0123456789ab", "devel-0123456789ab"},
		{"devel-0123456789ab+dirty", "devel-0123456789ab+dirty+p1"},
		{"dev", "dev+p1"},
		{"", "+p1"},
	} {
		if got := buildKey(c.version, program); got != c.want {
			t.Errorf("%q: %q, want %q", c.version, got, c.want)
		}
	}
	if got := buildKey("dev", func() string { return "" }); got != "dev" {
		t.Errorf("an unreadable program: %q, want the bare version", got)
	}
	if programHash() == "" || programHash() != programHash() {
		t.Errorf("the test binary's hash: %q", programHash())
	}
}
