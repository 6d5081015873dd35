package mdx

import "testing"

// FuzzDecodeWoWMDX is FuzzDecodeMDX for the WoW dialect: the seeds are the
// v1300/1400/1500 fixtures (Boar.mdx is too large to mutate usefully; its
// chunks are all in the fixtures). It checks the same (see checkRoundTrip).
func FuzzDecodeWoWMDX(f *testing.F) {
	for _, v := range []uint32{1300, 1400, 1500} {
		f.Add(wowFixture(v))
	}
	f.Fuzz(checkRoundTrip)
}
