package batch

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/pkg/model"
)

// TestDecodeContext: the batch stops waiting for a decode when its
// context ends, and gets the decode's own result otherwise.
func TestDecodeContext(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := func() (*model.File, error) { <-release; return nil, errors.New("late") }
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := decodeContext(ctx, slow); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Errorf("got %v after %v", err, time.Since(start))
	}
	want := &model.File{Size: 7}
	if f, err := decodeContext(t.Context(), func() (*model.File, error) { return want, nil }); f != want || err != nil {
		t.Errorf("got %v %v", f, err)
	}
}
