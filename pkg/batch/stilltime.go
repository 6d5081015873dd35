package batch

import (
	"fmt"
	"math"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"

	"github.com/mdxrender/mdxrender/pkg/render"
)

// maxStillMs bounds render.time in ms (ten minutes, as the pre-roll):
// longer than any sequence, and an offset past the end is clamped anyway.
const maxStillMs = 600000

// ParseStillTime reads render.time (and the command line's --time): ""
// (the start), a number of ms ("500", "0.5") from 0 to 600000, or a share
// of the sequence ("50%").
func ParseStillTime(s string) (render.Time, error) {
	if strings.TrimSpace(s) == "" {
		return render.Time{}, nil
	}
	t, err := render.ParseTime(s)
	if err != nil && !strings.HasSuffix(strings.TrimSpace(s), "%") || err == nil && !t.IsShare() && !(t.Value() >= 0 && t.Value() <= maxStillMs) {
		err = fmt.Errorf("want ms after the sequence start (0 to %d) or a share like \"50%%\", got %s", maxStillMs, clip.Quote(s))
	}
	return t, err
}

// stillAt returns the absolute model time (ms) of a still at t in the
// sequence [start, end]: whole ms (model times are integers), at most the
// end.
func stillAt(t render.Time, start, end uint32) uint32 {
	if end <= start {
		return start
	}
	n := float64(end - start)
	off := math.Round(t.MsIn(n))
	if off >= n {
		return end
	}
	return start + uint32(off)
}
