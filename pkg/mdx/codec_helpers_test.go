package mdx

import (
	"bytes"
	"errors"
	"fmt"

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

// errEncoding marks a round trip that failed in the encoder rather than
// on reading its output back.
var errEncoding = errors.New("encoding")

// viaMDX encodes m as MDX and decodes the bytes again.
func viaMDX(m *Model) ([]byte, *Model, error) {
	return roundTrip(m, encodeBytesT, decodeBytes)
}

// viaMDL writes m as MDL and reads the text again.
func viaMDL(m *Model) ([]byte, *Model, error) {
	return roundTrip(m, encodeMDLT, decodeMDL)
}

func roundTrip(m *Model, enc func(*Model) ([]byte, error), dec func([]byte) (*Model, error)) ([]byte, *Model, error) {
	b, err := enc(m)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errEncoding, err)
	}
	m2, err := dec(b)
	if err != nil {
		return b, nil, fmt.Errorf("reading our own output: %w", err)
	}
	return b, m2, nil
}

// firstDiff is the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
