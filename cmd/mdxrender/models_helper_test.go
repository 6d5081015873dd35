package main

import (
	"bytes"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// The tests load models of any format and encode them in memory with the
// packages' one way of doing each.

func encodeMDX(m *mdx.Model) ([]byte, error) {
	var b bytes.Buffer
	err := mdx.Encode(&b, m)
	return b.Bytes(), err
}

func encodeMDL(m *mdx.Model) ([]byte, error) {
	var b bytes.Buffer
	err := mdx.EncodeMDL(&b, m)
	return b.Bytes(), err
}
