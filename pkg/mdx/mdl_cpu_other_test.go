//go:build !unix

package mdx

import "time"

// mdlProcessCPU is unavailable here; the CPU-time metric is then omitted.
func mdlProcessCPU() time.Duration { return 0 }
