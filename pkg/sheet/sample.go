package sheet

import "math"

// Sequence is one animation of a model: Start and End are model times in
// ms, End excluded. Looping tells the metadata whether the animation
// repeats.
type Sequence struct {
	Name       string
	Start, End uint32
	Looping    bool
}

// Length is the sequence's duration in ms (0 if End is before Start).
func (s Sequence) Length() uint32 {
	if s.End < s.Start {
		return 0
	}
	return s.End - s.Start
}

// Sample is one sampled moment of a sequence: Time is absolute (ms) and
// Duration is how long the frame shows. The durations of a sequence's
// samples add up to its length exactly.
type Sample struct {
	Time     uint32
	Duration uint32
}

// MaxFrames bounds the frames sampled from one sequence, so a long
// sequence at a high frame rate cannot ask for an unbounded sheet.
const MaxFrames = 1024

// SampleSequence picks the frames of a sequence: n frames evenly over
// [Start, End) or, with fps > 0, one every 1000/fps ms. Intervals are half
// open: the last frame's duration runs up to End, which for a looping
// sequence is the same pose as Start. A zero-length sequence gives one frame
// of duration 0.
func SampleSequence(s Sequence, n int, fps float64) []Sample {
	l := uint64(s.Length())
	if l == 0 {
		return []Sample{{Time: s.Start}}
	}
	var offs []uint64
	if fps > 0 {
		step := 1000 / fps
		for i := 0; i < MaxFrames; i++ {
			o := uint64(math.Round(float64(i) * step))
			if o >= l || (i > 0 && o == offs[len(offs)-1]) {
				break
			}
			offs = append(offs, o)
		}
	} else {
		if n < 1 {
			n = 1
		}
		if uint64(n) > l {
			n = int(l) // at most one frame per ms: no zero durations
		}
		if n > MaxFrames {
			n = MaxFrames
		}
		for i := 0; i < n; i++ {
			offs = append(offs, uint64(i)*l/uint64(n))
		}
	}
	out := make([]Sample, len(offs))
	for i, o := range offs {
		next := l
		if i+1 < len(offs) {
			next = offs[i+1]
		}
		out[i] = Sample{Time: s.Start + uint32(o), Duration: uint32(next - o)}
	}
	return out
}
