package mpq

import (
	"bytes"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// Test archives are built in memory with internal/hostile's MPQ builder,
// for inputs smpq will not write: lying sizes, broken sector tables,
// unknown compression bytes.

func openBytes(t testing.TB, b []byte) (*Archive, error) {
	t.Helper()
	return NewReader(bytes.NewReader(b), int64(len(b)), "test.mpq", budget.Limits{})
}
