package batch

import (
	"strings"
	"testing"
)

// A pattern no sequence matches is an error naming the model's
// sequences; a plain name that starts some of them gets the glob that
// matches them.
func TestNoSequenceError(t *testing.T) {
	seqs := []SequenceInfo{{Name: "Stand 1"}, {Name: "Attack 1"}, {Name: "Attack 2"}}
	sel := Sequences{Select: SelectMatch, Patterns: []string{"attack", "Walk*"}}
	if got := selectSequences(seqs, sel); len(got) != 0 {
		t.Fatalf("selected %v", got)
	}
	err := noSequenceError(seqs, sel.Patterns)
	want := `no sequence matches "attack,Walk*" (the model has: Stand 1, Attack 1, Attack 2; names match whole: "attack*" matches those starting so)`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if err := noSequenceError(seqs, []string{"Walk"}); strings.Contains(err.Error(), "names match whole") {
		t.Errorf("a hint where no name starts so: %v", err)
	}
	if got := selectSequences(seqs, Sequences{Select: SelectMatch, Patterns: []string{"attack*"}}); len(got) != 2 {
		t.Errorf("the suggested glob selects %v", got)
	}
}
