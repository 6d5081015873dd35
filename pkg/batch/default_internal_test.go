package batch

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/mdxrender/mdxrender/pkg/model"
)

// TestDecodeContext: the batch stops waiting for a decode when its
// context ends, and gets the decode's own result otherwise. The decode
// here never ends by itself: only a decodeContext that stops waiting
// returns the context's error.
func TestDecodeContext(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	defer once.Do(func() { close(release) })
	// Hang guard: a decodeContext that kept waiting would return "late"
	// (and fail below) once this releases the decode; one that stops
	// waiting never meets it.
	guard := time.AfterFunc(5*time.Minute, func() { once.Do(func() { close(release) }) })
	defer guard.Stop()
	slow := func() (*model.File, error) { close(started); <-release; return nil, errors.New("late") }
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		<-started
		cancel()
	}()
	if _, err := decodeContext(ctx, slow); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	want := &model.File{Size: 7}
	if f, err := decodeContext(t.Context(), func() (*model.File, error) { return want, nil }); f != want || err != nil {
		t.Errorf("got %v %v", f, err)
	}
}
