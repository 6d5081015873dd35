package mdx

import (
	"bytes"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// The tests decode and encode within the default limits and in memory;
// these wrap the package's one way of doing each.

func decodeBytes(b []byte) (*Model, error) { return Decode(b, budget.Limits{}) }

func decodeMDL(b []byte) (*Model, error) { return DecodeMDL(b, budget.Limits{}) }

// decodeAny decodes either format, told apart by Detect, as a loader does.
func decodeAny(b []byte, lim budget.Limits) (*Model, error) {
	switch Detect(b) {
	case FormatMDX:
		return Decode(b, lim)
	case FormatMDL:
		return DecodeMDL(b, lim)
	}
	return nil, ErrUnknownFormat
}

func encodeBytesT(m *Model) ([]byte, error) {
	var b bytes.Buffer
	err := Encode(&b, m)
	return b.Bytes(), err
}

func encodeMDLT(m *Model) ([]byte, error) {
	var b bytes.Buffer
	err := EncodeMDL(&b, m)
	return b.Bytes(), err
}
