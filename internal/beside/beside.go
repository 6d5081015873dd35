// Package beside runs work that does not watch a context (a decoder,
// bounded by budgets but able to take seconds) so that its caller can
// stop waiting when the context ends.
package beside

import "context"

// Run returns f's result, or nil once ctx has ended. With a context that
// can end, f runs in its own goroutine and is left to finish on its own
// when ctx ends first (what it makes then goes unused, or into a cache it
// fills); with one that cannot, f runs in the caller's goroutine.
func Run[T any](ctx context.Context, f func() T) *T {
	if ctx.Err() != nil {
		return nil
	}
	if ctx.Done() == nil {
		v := f()
		return &v
	}
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return &v
	case <-ctx.Done():
		return nil
	}
}
