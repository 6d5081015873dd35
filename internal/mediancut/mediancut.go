// Package mediancut reduces pictures to a palette by median cut: the
// animated GIF previews and the palettised BLP textures share it.
package mediancut

import (
	"image"
	"image/color"
	"sort"
)

// colorBox is a median-cut box over a histogram of 5-bit-per-channel colours.
type colorBox struct {
	cols []histColor
	n    uint64
}

type histColor struct {
	c     [3]uint8 // 5-bit channel values
	count uint64
	sum   [3]uint64 // sums of 8-bit values, for the box average
}

// Palette builds a palette of at most maxColors opaque colours from the
// pixels of the frames that are not fully transparent. Ties are broken by
// fixed orders, so the palette is a pure function of the pixels. A
// picture with no such pixel gets opaque black alone.
func Palette(frames []*image.NRGBA, maxColors int) color.Palette {
	hist := map[[3]uint8]*histColor{}
	for _, f := range frames {
		for y := 0; y < f.Rect.Dy(); y++ {
			row := f.Pix[y*f.Stride : y*f.Stride+4*f.Rect.Dx()]
			for x := 0; x+3 < len(row); x += 4 {
				if row[x+3] == 0 {
					continue
				}
				k := [3]uint8{row[x] >> 3, row[x+1] >> 3, row[x+2] >> 3}
				h := hist[k]
				if h == nil {
					h = &histColor{c: k}
					hist[k] = h
				}
				h.count++
				h.sum[0] += uint64(row[x])
				h.sum[1] += uint64(row[x+1])
				h.sum[2] += uint64(row[x+2])
			}
		}
	}
	if len(hist) == 0 {
		return color.Palette{color.NRGBA{0, 0, 0, 255}}
	}
	all := make([]histColor, 0, len(hist))
	for _, h := range hist {
		all = append(all, *h)
	}
	sort.Slice(all, func(i, j int) bool { return less3(all[i].c, all[j].c) })
	boxes := []colorBox{newBox(all)}
	for len(boxes) < maxColors {
		// split the box with the most pixels that can be split
		bi := -1
		for i, b := range boxes {
			if len(b.cols) > 1 && (bi < 0 || b.n > boxes[bi].n) {
				bi = i
			}
		}
		if bi < 0 {
			break
		}
		a, c := boxes[bi].split()
		boxes[bi] = a
		boxes = append(boxes, c)
	}
	pal := make(color.Palette, 0, len(boxes))
	for _, b := range boxes {
		var s [3]uint64
		for _, h := range b.cols {
			for k := 0; k < 3; k++ {
				s[k] += h.sum[k]
			}
		}
		pal = append(pal, color.NRGBA{uint8((s[0] + b.n/2) / b.n), uint8((s[1] + b.n/2) / b.n), uint8((s[2] + b.n/2) / b.n), 255})
	}
	return pal
}

func less3(a, b [3]uint8) bool {
	if a[0] != b[0] {
		return a[0] < b[0]
	}
	if a[1] != b[1] {
		return a[1] < b[1]
	}
	return a[2] < b[2]
}

func newBox(cols []histColor) colorBox {
	b := colorBox{cols: cols}
	for _, h := range cols {
		b.n += h.count
	}
	return b
}

// split cuts the box at the pixel median of its widest channel.
func (b colorBox) split() (colorBox, colorBox) {
	lo, hi := [3]uint8{255, 255, 255}, [3]uint8{}
	for _, h := range b.cols {
		for k := 0; k < 3; k++ {
			lo[k] = min(lo[k], h.c[k])
			hi[k] = max(hi[k], h.c[k])
		}
	}
	ch := 0
	for k := 1; k < 3; k++ {
		if hi[k]-lo[k] > hi[ch]-lo[ch] {
			ch = k
		}
	}
	cols := append([]histColor(nil), b.cols...)
	sort.SliceStable(cols, func(i, j int) bool {
		if cols[i].c[ch] != cols[j].c[ch] {
			return cols[i].c[ch] < cols[j].c[ch]
		}
		return less3(cols[i].c, cols[j].c)
	})
	var acc uint64
	cut := 1
	for i, h := range cols {
		acc += h.count
		if acc*2 >= b.n {
			cut = i + 1
			break
		}
	}
	if cut >= len(cols) {
		cut = len(cols) - 1
	}
	return newBox(cols[:cut]), newBox(cols[cut:])
}
