package texture

import (
	"bytes"
	"testing"
)

// FuzzJPEGProgressive is differential like FuzzJPEGFast, on progressive
// streams built to be valid: the fuzzer's bytes choose the frame, the
// coefficients (from sparse to dense, small to the largest a scan can
// code, so that dequantisation and the inverse DCT overflow int32), the
// quantisation tables, the restart interval and a script (how the bands
// and bits are split into scans, in which order, which scans are left
// out, which tables they use, runs cut by restarts). Mutating a whole
// stream rarely keeps its entropy-coded data decodable; this reaches
// every path of the coefficient arithmetic instead. The fast path must
// take every such stream and give image/jpeg's pixels.
func FuzzJPEGProgressive(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{1, 37, 21, 75, 3, 0x40, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte{2, 16, 16, 100, 0, 0xff, 0xf0, 13, 1, 1, 1, 0, 0, 0, 12, 3, 0xff, 0x81})
	f.Add(bytes.Repeat([]byte{0x5a, 0xc3, 7}, 20))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, o := progFromBytes(data)
		s := blpStream(e.encodeProgressive(o))
		if ok, err := checkFast(t, s, e.w, e.h, len(data)%2 == 0); !ok {
			t.Fatalf("fast path declined a valid progressive stream: %v", err)
		}
	})
}

// fuzzBytes hands out a fuzz input's bytes, then zeros.
type fuzzBytes []byte

func (b *fuzzBytes) next() int {
	if len(*b) == 0 {
		return 0
	}
	v := (*b)[0]
	*b = (*b)[1:]
	return int(v)
}

// progFromBytes builds a progressive stream's description from data.
func progFromBytes(data []byte) (testJPEG, progOptions) {
	r := fuzzBytes(data)
	e := testJPEG{comps: []int{1, 3, 4}[r.next()%3], transform: -1}
	e.w, e.h = 1+r.next()%48, 1+r.next()%48
	e.quality = 1 + r.next()%100
	e.ri = r.next() % 6
	flags := r.next()
	e.q16 = flags&1 != 0
	// The coefficients: a linear congruential sequence seeded by the
	// input, density and size chosen by it.
	density, bitsMax := r.next(), 1+r.next()%15
	x := uint32(r.next()<<8 | r.next())
	rnd := func() uint32 {
		x = x*1664525 + 1013904223
		return x >> 8
	}
	nb := ((e.w + 7) / 8) * ((e.h + 7) / 8)
	coef := make([][][64]int, e.comps)
	for c := range coef {
		coef[c] = make([][64]int, nb)
		for b := range nb {
			for k := range 64 {
				if int(rnd()&255) >= density {
					continue
				}
				size := 1 + int(rnd())%bitsMax
				if k == 0 {
					size = 1 + int(rnd())%11 // DC differences stay within 16 bits
				}
				v := int(rnd()) & (1<<size - 1)
				if rnd()&1 != 0 {
					v = -v
				}
				coef[c][b][zigzag[k]] = v
			}
		}
	}
	// Chains of scans that must stay in order: DC first, then its
	// refinements; each AC band's first scan, then its refinements.
	var chains [][]progScanSpec
	maxAl := 4
	if flags&2 != 0 {
		maxAl = 14
	}
	var dcGroups [][]int
	if flags&4 != 0 {
		for c := range e.comps {
			dcGroups = append(dcGroups, []int{c})
		}
	} else {
		all := make([]int, e.comps)
		for c := range all {
			all[c] = c
		}
		dcGroups = [][]int{all}
	}
	var dcChain []progScanSpec
	for _, g := range dcGroups {
		al := r.next() % maxAl
		slot := r.next() % 4
		dcChain = append(dcChain, progScanSpec{comps: g, al: al, dcSlot: slot})
		for a := al - 1; a >= 0; a-- {
			dcChain = append(dcChain, progScanSpec{comps: g, ah: a + 1, al: a})
		}
	}
	chains = append(chains, dcChain)
	for c := range e.comps {
		// Cut 1-63 into bands.
		k := 1
		for k <= 63 {
			se := min(63, k+r.next()%64)
			al := r.next() % maxAl
			slot := r.next() % 4
			inflate := 0
			if flags&8 != 0 {
				inflate = r.next() % 4
			}
			chain := []progScanSpec{{comps: []int{c}, ss: k, se: se, al: al, acSlot: slot, inflateRST: inflate}}
			for a := al - 1; a >= 0; a-- {
				chain = append(chain, progScanSpec{comps: []int{c}, ss: k, se: se, ah: a + 1, al: a, acSlot: (slot + a) % 4, inflateRST: inflate})
			}
			chains = append(chains, chain)
			k = se + 1
		}
	}
	// Interleave the chains; some lose their tails.
	var script []progScanSpec
	for len(chains) > 0 {
		i := r.next() % len(chains)
		script = append(script, chains[i][0])
		chains[i] = chains[i][1:]
		if len(chains[i]) == 0 || flags&16 != 0 && r.next()%8 == 0 {
			chains = append(chains[:i], chains[i+1:]...)
		}
	}
	o := progOptions{script: script, coef: coef}
	if flags&32 != 0 {
		var q [64]int
		for i := range q {
			q[i] = 1 + r.next()
		}
		o.dqtAfter, o.dqtAt = &q, r.next()%len(script)
	}
	return e, o
}
