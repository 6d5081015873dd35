package render

import (
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// The default sequence is Stand wherever it sits, then a "Stand ..."
// sequence, then the first; a name the model lacks lists what it has.
func TestSequenceDefaultIsStand(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  int
	}{
		{nil, -1},
		{[]string{"Walk", "Attack"}, 0},
		{[]string{"Walk", "Stand Ready", "stand "}, 2},
		{[]string{"Birth", "Stand Victory", "Walk"}, 1},
	} {
		m := &mdx.Model{}
		for _, n := range c.names {
			m.Sequences = append(m.Sequences, mdx.Sequence{Name: n})
		}
		got, err := Sequence{}.Index(m)
		if err != nil || got != c.want {
			t.Errorf("%q: default sequence %d (%v), want %d", c.names, got, err, c.want)
		}
		if s := StandSequence(len(c.names), func(i int) string { return c.names[i] }); s != c.want {
			t.Errorf("%q: StandSequence %d, want %d", c.names, s, c.want)
		}
	}
	m := &mdx.Model{Sequences: []mdx.Sequence{{Name: "Walk"}, {Name: "Stand"}}}
	_, err := SequenceNamed("Spell").Index(m)
	if err == nil || !strings.Contains(err.Error(), `0 "Walk", 1 "Stand"`) {
		t.Errorf("unknown sequence: %v", err)
	}
}
