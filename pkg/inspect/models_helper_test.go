package inspect

import (
	"bytes"

	"github.com/mdxrender/mdxrender/internal/fsread"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/model"
)

// The tests load models of any format and encode them in memory with the
// packages' one way of doing each.

func loadModel(b []byte) (*mdx.Model, error) {
	f, err := model.Load(b, "model", budget.Limits{})
	if err != nil {
		return nil, err
	}
	return f.Model, nil
}

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

// loadFile reads the model file at path and loads it, as the front door
// does, within the default limits.
func loadFile(path string) (*model.File, error) {
	b, err := fsread.Path(path, nil, nil)
	if err != nil {
		return nil, err
	}
	return model.Load(b, path, budget.Limits{})
}

// loadPath is loadFile's model.
func loadPath(path string) (*mdx.Model, error) {
	f, err := loadFile(path)
	if err != nil {
		return nil, err
	}
	return f.Model, nil
}
