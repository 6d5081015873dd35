// Package allocs measures what a piece of code allocates, for the tests
// that bound the memory an input may cost (docs/hostile-input.md).
package allocs

import "runtime"

// Bytes returns the bytes of heap memory fn allocates, as the runtime
// counts them (TotalAlloc). Allocations by other goroutines at the same
// time count too: tests that use it do not run in parallel.
func Bytes(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
