package batch

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mdxrender/mdxrender"
)

// Icon names clash case-blind, portrait models aside; the numbered name
// of a long one keeps within 100 bytes and whole characters; a shard's
// jobs take the names the whole batch gives them.
func TestIconNames(t *testing.T) {
	long := strings.Repeat("é", 50) // 100 bytes
	keys := []string{"a/Hero.mdx", "a/Hero_Portrait.mdx", "b/HERO.mdl", "c/hero.mdx", "d/" + long + ".mdx", "e/" + long + ".mdl", "f/Other.mdx"}
	set, err := newInputSet()
	if err != nil {
		t.Fatal(err)
	}
	defer set.close()
	var all []Job
	for _, k := range keys {
		set.add(Input{Key: k})
		all = append(all, Job{Input: Input{Key: k}})
	}
	if err := set.sort(); err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.Output.Formats = []Format{FormatIcons}
	ip, err := o.planIcons(set)
	if err != nil {
		t.Fatal(err)
	}
	// A shard's jobs are given their icons one at a time, as a run
	// comes to them.
	shard := []Job{all[2], all[5]}
	for i := range shard {
		ip.attach(&shard[i])
	}
	for i := range all {
		ip.attach(&all[i])
	}
	want := []string{"Hero", "Hero", "HERO_2", "hero_3", long, strings.Repeat("é", 49) + "_2", "Other"}
	for i, j := range all {
		if j.Icons.Name != want[i] {
			t.Errorf("%s: named %q, want %q", keys[i], j.Icons.Name, want[i])
		}
		if err := mdxrender.CheckIconName(j.Icons.Name); err != nil || !utf8.ValidString(j.Icons.Name) {
			t.Errorf("%s: %v", keys[i], err)
		}
	}
	if shard[0].Icons.Name != "HERO_2" || shard[1].Icons.Name != want[5] || shard[0].Icons.Clash != "a/Hero.mdx" {
		t.Errorf("the shard's jobs: %+v, %+v", shard[0].Icons, shard[1].Icons)
	}
}
