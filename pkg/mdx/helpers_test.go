package mdx

import "github.com/mdxrender/mdxrender/internal/bitdiff"

// modelDiff lists up to max differences between two values of the same type,
// comparing floats by their bits (so NaN equals the same NaN, which
// reflect.DeepEqual does not allow) and skipping unexported fields (file
// layout details). Shared with the MDL tests.
func modelDiff(a, b any, max int) []string { return bitdiff.Diff(a, b, max, false) }
