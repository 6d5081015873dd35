package cputime

import "testing"

// Bench measures op as benchmark b: it runs op once outside the timer, so
// that the timed runs find caches and pools as they leave them, then b.N
// times, reporting allocations and the process's CPU time per run as
// "cpu-ns/op" beside the wall time.
func Bench(b *testing.B, op func()) {
	b.Helper()
	op()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := Process()
	for i := 0; i < b.N; i++ {
		op()
	}
	b.ReportMetric(float64(Process()-cpu)/float64(b.N), "cpu-ns/op")
}
