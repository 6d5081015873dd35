package particles_test

import (
	"bytes"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// encodeMDL writes m as MDL text in memory.
func encodeMDL(m *mdx.Model) ([]byte, error) {
	var b bytes.Buffer
	err := mdx.EncodeMDL(&b, m)
	return b.Bytes(), err
}
