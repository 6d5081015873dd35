package pngenc

// adler is the zlib stream's Adler-32 checksum. hash/adler32 adds byte
// by byte, each add waiting on the one before, and was 2-3 % of making a
// thumbnail; on amd64 with AVX2 (adler_amd64.s) runs of 32 bytes are
// summed in vector lanes instead. Over a run of n bytes bᵢ the sums move
// by
//
//	s1 += Σ bᵢ
//	s2 += n·s1 + Σ (n − i)·bᵢ
//
// and the sums are kept in 64 bits between reductions modulo 65521.
type adler struct {
	s1, s2 uint64
}

const (
	adlerMod = 65521
	// adlerRun is the most bytes adlerBlocks takes at a call: its
	// weighted sum, at most 8,160 a byte (255 · 32), stays below 2³¹ in
	// every 32-bit lane and in their total.
	adlerRun = 1 << 18
)

func newAdler() adler { return adler{s1: 1} }

// write adds p to the checksum.
func (a *adler) write(p []byte) {
	s1, s2 := a.s1, a.s2
	if haveAdlerVec {
		for len(p) >= 32 {
			n := min(len(p)&^31, adlerRun)
			sum, weighted, before := adlerBlocks(p[:n])
			// Byte i of block k has weight n − 32k − j = 32·(K−1−k) +
			// (32 − j): before is Σₖ (K−1−k)·Sₖ, weighted the rest.
			s2 = (s2 + uint64(n)*s1 + 32*before + weighted) % adlerMod
			s1 = (s1 + sum) % adlerMod
			p = p[n:]
		}
	}
	for len(p) > 0 {
		q := p[:min(len(p), 4096)]
		p = p[len(q):]
		for _, b := range q {
			s1 += uint64(b)
			s2 += s1
		}
		s1, s2 = s1%adlerMod, s2%adlerMod
	}
	a.s1, a.s2 = s1, s2
}

// sum is the checksum of what was written.
func (a *adler) sum() uint32 { return uint32(a.s2)<<16 | uint32(a.s1) }
