// Package testmodel loads and encodes models in memory for tests, with the
// packages' one way of doing each (pkg/model to load any format, pkg/mdx to
// encode), so that tests of several packages share one set of helpers.
package testmodel

import (
	"bytes"
	"testing"

	"github.com/mdxrender/mdxrender/internal/fsread"
	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
)

// Load loads a model of any format from memory within the default limits.
func Load(b []byte) (*mdx.Model, error) {
	f, err := model.Load(b, "model", budget.Limits{})
	if err != nil {
		return nil, err
	}
	return f.Model, nil
}

// EncodeMDX writes m as binary MDX in memory.
func EncodeMDX(m *mdx.Model) ([]byte, error) {
	var b bytes.Buffer
	err := mdx.Encode(&b, m)
	return b.Bytes(), err
}

// EncodeMDL writes m as MDL text in memory.
func EncodeMDL(m *mdx.Model) ([]byte, error) {
	var b bytes.Buffer
	err := mdx.EncodeMDL(&b, m)
	return b.Bytes(), err
}

// LoadFile reads the model file at path and loads it, as the front door
// does, within the default limits.
func LoadFile(path string) (*model.File, error) {
	b, err := fsread.Path(path, nil, nil)
	if err != nil {
		return nil, err
	}
	return model.Load(b, path, budget.Limits{})
}

// LoadPath is LoadFile's model.
func LoadPath(path string) (*mdx.Model, error) {
	f, err := LoadFile(path)
	if err != nil {
		return nil, err
	}
	return f.Model, nil
}

// CheckFixture compares the fixture model m, written as MDL after header
// (comment lines naming its generator), with the MDL file checked in at
// path, or writes it there with UPDATE_FIXTURES=1 (golden.CheckFile).
func CheckFixture(t testing.TB, path, header string, m *mdx.Model) {
	t.Helper()
	b, err := EncodeMDL(m)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	golden.CheckFile(t, path, append([]byte(header), b...))
}
