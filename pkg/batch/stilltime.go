package batch

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"
)

// StillTime is the parsed form of RenderOptions.Time: where in its
// sequence a still thumbnail is taken.
type StillTime struct {
	// Ms is an offset in ms from the sequence start (when !Share).
	Ms float64
	// Share is set when the time is a part of the sequence length;
	// Fraction is then 0..1.
	Share    bool
	Fraction float64
}

// maxStillMs bounds an offset in ms (ten minutes, as the pre-roll): longer
// than any sequence, and an offset past the end is clamped anyway.
const maxStillMs = 600000

// ParseStillTime reads "" (the start), a number of ms ("500", "0.5") or a
// percentage of the sequence length ("50%", "100%").
func ParseStillTime(s string) (StillTime, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return StillTime{}, nil
	}
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || v < 0 || v > 100 {
			return StillTime{}, fmt.Errorf("want a share of the sequence from 0%% to 100%%, got %q", s)
		}
		return StillTime{Share: true, Fraction: v / 100}, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || v < 0 || v > maxStillMs {
		return StillTime{}, fmt.Errorf("want ms after the sequence start (0 to %d) or a share like \"50%%\", got %q", maxStillMs, s)
	}
	return StillTime{Ms: v}, nil
}

// At returns the absolute model time (ms) of the still in the sequence
// [start, end]: the offset rounded to whole ms (model times are integers)
// and clamped to the end.
func (t StillTime) At(start, end uint32) uint32 {
	if end <= start {
		return start
	}
	n := float64(end - start)
	off := t.Ms
	if t.Share {
		off = t.Fraction * n
	}
	off = math.Round(off)
	if off >= n {
		return end
	}
	return start + uint32(off)
}

// Blank reports whether every pixel of img has the same colour: nothing
// but the background was drawn (whatever the background is).
func Blank(img *image.NRGBA) bool {
	r := img.Rect
	if r.Empty() {
		return true
	}
	first := img.Pix[img.PixOffset(r.Min.X, r.Min.Y):][:4]
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(r.Min.X, y):][:4*r.Dx()]
		for i := 0; i < len(row); i += 4 {
			if !bytes.Equal(row[i:i+4], first) {
				return false
			}
		}
	}
	return true
}
