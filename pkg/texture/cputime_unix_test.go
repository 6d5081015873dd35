//go:build unix

package texture

import (
	"syscall"
	"testing"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used.
// On a shared machine it measures a benchmark better than the wall clock.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports CPU time per pixel since start, for a benchmark of
// pixels pixels per op.
func reportCPU(b *testing.B, start time.Duration, pixels int) {
	if start == 0 {
		return
	}
	b.ReportMetric(float64((processCPU()-start).Nanoseconds())/float64(b.N)/float64(pixels), "cpu-ns/pixel")
}
