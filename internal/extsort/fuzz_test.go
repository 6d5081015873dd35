package extsort

import "testing"

// FuzzSort: any records, at any memory, come back as a stable sort in
// memory would order them.
func FuzzSort(f *testing.F) {
	f.Add([]byte("banana\x00apple\x00cherry\x00apple"), uint8(3))
	f.Add([]byte{}, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, mem uint8) {
		var recs [][]byte
		start := 0
		for i, c := range data {
			if c == 0 {
				recs = append(recs, data[start:i])
				start = i + 1
			}
		}
		recs = append(recs, data[start:])
		check(t, recs, int(mem)+1)
	})
}
