//go:build !unix

package raster

import "time"

func processCPU() time.Duration { return 0 }
