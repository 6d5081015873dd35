package mdx

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzDecodeWoWMDX is FuzzDecodeMDX for the WoW dialect: the seeds are the
// v1300/1400/1500 fixtures (Boar.mdx is too large to mutate usefully; its
// chunks are all in the fixtures). No input may panic; errors are typed;
// whatever decodes re-encodes to the same bytes, and its canonical encoding
// decodes to the same model.
func FuzzDecodeWoWMDX(f *testing.F) {
	for _, v := range []uint32{1300, 1400, 1500} {
		f.Add(wowFixture(v))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := Decoder{Quotas: ReadQuotas{MaxRecords: 1 << 16, MaxKeys: 1 << 16}}
		m, err := d.DecodeBytes(b)
		if err != nil {
			var fe *FormatError
			var qe *QuotaError
			var ue UnsupportedError
			if !errors.As(err, &fe) && !errors.As(err, &qe) && !errors.As(err, &ue) && !errors.Is(err, ErrNotMDX) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			return
		}
		out, err := EncodeBytes(m)
		if err != nil {
			t.Fatalf("encode of a decoded model: %v", err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("re-encoding differs (len %d, want %d)", len(out), len(b))
		}
		m.ClearFileDetails()
		canon, err := EncodeBytes(m)
		if err != nil {
			t.Fatalf("canonical encode: %v", err)
		}
		m2, err := DecodeBytes(canon)
		if err != nil {
			t.Fatalf("canonical encoding does not decode: %v", err)
		}
		m2.ClearFileDetails()
		if diff := modelDiff(m, m2, 5); len(diff) > 0 {
			t.Fatalf("canonical round trip changed the model: %v", diff)
		}
	})
}
