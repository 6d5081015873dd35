// Package raster is mdxrender's small deterministic CPU rasteriser: a float
// premultiplied colour buffer, a depth buffer and the Warcraft III blend modes.
package raster
