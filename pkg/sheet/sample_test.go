package sheet

import "testing"

func TestSampleSequence(t *testing.T) {
	for _, tc := range []struct {
		seq Sequence
		n   int
		fps float64
		len int
	}{
		{Sequence{Start: 1000, End: 1600}, 16, 0, 16},
		{Sequence{Start: 0, End: 1001}, 3, 0, 3},
		{Sequence{Start: 5, End: 9}, 16, 0, 4}, // at most one frame per ms
		{Sequence{Start: 100, End: 1100}, 0, 12, 12},
		{Sequence{Start: 100, End: 1133}, 0, 30, 31},
		{Sequence{Start: 0, End: 1 << 30}, 0, 240, MaxFrames},
		{Sequence{Start: 7, End: 7}, 8, 0, 1},
	} {
		s := SampleSequence(tc.seq, tc.n, tc.fps)
		if len(s) != tc.len {
			t.Errorf("%+v n=%d fps=%g: %d samples, want %d", tc.seq, tc.n, tc.fps, len(s), tc.len)
		}
		var sum uint64
		for i, x := range s {
			sum += uint64(x.Duration)
			if x.Time < tc.seq.Start || (x.Time >= tc.seq.End && tc.seq.Length() > 0) {
				t.Errorf("%+v: sample %d at %d outside the interval", tc.seq, i, x.Time)
			}
			if i > 0 && x.Time <= s[i-1].Time {
				t.Errorf("%+v: times not increasing at %d", tc.seq, i)
			}
			if tc.seq.Length() > 0 && x.Duration == 0 {
				t.Errorf("%+v: zero duration at %d", tc.seq, i)
			}
			if i+1 < len(s) && x.Time+x.Duration != s[i+1].Time {
				t.Errorf("%+v: duration %d does not reach the next frame", tc.seq, i)
			}
		}
		// A sequence capped at MaxFrames covers only part of its length.
		if len(s) < MaxFrames && sum != uint64(tc.seq.Length()) {
			t.Errorf("%+v: durations sum to %d, want %d", tc.seq, sum, tc.seq.Length())
		}
	}
}
