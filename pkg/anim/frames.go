package anim

import (
	"fmt"
	"image"
)

// checkCounts rejects an animation without frames or with a duration
// missing or left over.
func checkCounts(format string, frames []*image.NRGBA, durations []uint32) error {
	if len(frames) == 0 || len(frames) != len(durations) {
		return fmt.Errorf("%s: %d frames, %d durations", format, len(frames), len(durations))
	}
	return nil
}
