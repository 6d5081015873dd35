package batch

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// eachSortMemory runs test with planning's sorts in memory, then with
// every one of them going through the disk.
func eachSortMemory(t *testing.T, test func(t *testing.T)) {
	t.Run("memory", test)
	t.Run("disk", func(t *testing.T) {
		defer func(m int) { sortMemory = m }(sortMemory)
		sortMemory = 64
		test(t)
	})
}

// Planning many inputs through the disk gives the plan it gives in
// memory: sorted by key, a file named twice once, the relative paths two
// roots share told apart, and the first of two inputs that write one
// file named.
func TestPlanThroughDisk(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := 0; i < 700; i++ {
		// Found in an order other than the keys' (the walk reads "b"
		// before "b-x" and "b.x", whose keys sort before "b/").
		for _, d := range []string{"r1/b", "r1/b-x", "r1/b.x", "r2/b"} {
			files[fmt.Sprintf("%s/m%04d.mdx", d, (i*7919)%700)] = ""
		}
	}
	fixture(t, dir, files)
	plan := func(edit func(o *Options)) ([]string, error) {
		c := options(dir, func(o *Options) {
			o.Inputs.Dirs = []string{"r1", "r2"}
			// r2/b/m0650.mdx named again, and found again late in the walk:
			// kept once, as named first.
			o.Inputs.Files = []string{"r2/b/m0650.mdx"}
			o.Output.Name = "{path}"
			o.Output.Formats = []Format{FormatPNG}
			if edit != nil {
				edit(o)
			}
		})
		jobs, err := c.Plan()
		var out []string
		for i := range jobs {
			out = append(out, jobs[i].Input.Key+" "+c.Stem(&jobs[i], "default", ""))
		}
		return out, err
	}
	want, err := plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 4*700 {
		t.Fatalf("%d jobs, want %d", len(want), 4*700)
	}
	for i := 1; i < len(want); i++ {
		if want[i-1] >= want[i] {
			t.Fatalf("jobs out of order: %q before %q", want[i-1], want[i])
		}
	}
	if !strings.HasSuffix(want[0], " b-x/m0000") || !strings.HasSuffix(want[len(want)-1], " r2/b/m0699") {
		t.Errorf("first %q, last %q: want b-x/m0000 first and the shared r2/b/m0699 last with its root's name", want[0], want[len(want)-1])
	}
	clash := func(o *Options) { o.Output.Name = "{name}" }
	_, wantErr := plan(clash)
	if wantErr == nil || !strings.Contains(wantErr.Error(), filepath.ToSlash(filepath.Join(dir, "r1/b-x/m0000.mdx"))+" and ") {
		t.Fatalf("{name}: %v", wantErr)
	}

	defer func(m int) { sortMemory = m }(sortMemory)
	sortMemory = 256
	got, err := plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the plan through the disk differs from the plan in memory")
	}
	if _, err := plan(clash); err == nil || err.Error() != wantErr.Error() {
		t.Errorf("through the disk: %v\nin memory: %v", err, wantErr)
	}
}
