package pngenc

// adler is the zlib stream's Adler-32 checksum, its sums kept in 64 bits
// and reduced modulo 65521 once every 4,096 bytes rather than at every
// byte as hash/adler32 does. (An AVX2 kernel summing 32 bytes at a time
// was tried and removed: it saved about 5 % of a cold thumbnail's CPU
// time, under the 10 % an assembly kernel must pay for itself with.)
type adler struct {
	s1, s2 uint64
}

const adlerMod = 65521

func newAdler() adler { return adler{s1: 1} }

// write adds p to the checksum.
func (a *adler) write(p []byte) {
	s1, s2 := a.s1, a.s2
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
