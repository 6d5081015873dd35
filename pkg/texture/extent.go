package texture

import (
	"encoding/binary"
	"image"
)

// Coverage says how Lazy.Extent weighs a texel.
type Coverage uint8

const (
	// ByAlpha weighs a texel by its alpha, 0-255.
	ByAlpha Coverage = iota
	// ByGlow weighs a texel by its alpha times its brightest colour
	// channel, 0-255²: what it adds to the picture under an additive
	// blend.
	ByGlow
)

// weight is a texel's weight under c from its channels (NRGBA order).
func (c Coverage) weight(r, g, b, a int) int {
	if c == ByGlow {
		return a * max(r, g, b)
	}
	return a
}

// extentKey is what an extent depends on besides the file.
type extentKey struct {
	c     Coverage
	least int
}

// Extent returns the smallest rectangle of level 0 (Width×Height texels)
// holding every texel whose weight under c is least or more; it is empty
// when no texel reaches least. A texture without a level 0 counts whole.
//
// It decodes level 0 alone, not the chain Texture(0) decodes, and
// remembers the answer per c and least, so that every picture of the
// texture (every model that shares it through a Cache) asks once. It
// fails as Texture(0) does when level 0 cannot be decoded.
func (l *Lazy) Extent(c Coverage, least int) (image.Rectangle, error) {
	t := l.mf.tex
	if t == nil && l.n == 0 || t != nil && (len(t.Levels) == 0 || t.Levels[0] == nil) {
		return image.Rect(0, 0, l.w, l.h), nil
	}
	k := extentKey{c, least}
	l.mu.Lock()
	r, ok := l.extents[k]
	l.mu.Unlock()
	if ok {
		return r, nil
	}
	var img *image.NRGBA
	if t != nil {
		img = t.Levels[0]
	} else {
		var err error
		if img, err = l.level(0); err != nil {
			return image.Rectangle{}, err
		}
	}
	r = extentOf(img, c, least)
	l.mu.Lock()
	if l.extents == nil {
		l.extents = map[extentKey]image.Rectangle{}
	}
	l.extents[k] = r
	l.mu.Unlock()
	return r, nil
}

// extentOf is Extent's answer for a decoded level. It looks at no more
// texels than the answer needs: the first and last rows that have a
// texel, scanned from each end to their first one, and between them only
// the texels outside the columns found so far. A texture whose content
// fills it is answered from a few texels a row instead of all of them.
func extentOf(img *image.NRGBA, c Coverage, least int) image.Rectangle {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	row := func(y int) []byte { return img.Pix[y*img.Stride : y*img.Stride+4*w] }
	// The top row with a texel, and its first and last.
	y0, x0, x1 := 0, w, -1
	for ; y0 < h; y0++ {
		if x0 = firstTexel(row(y0), c, least, 0, w, 1); x0 < w {
			x1 = firstTexel(row(y0), c, least, w-1, x0-1, -1)
			break
		}
	}
	if y0 == h {
		return image.Rectangle{}
	}
	// The bottom one, which may be the same row.
	y1 := h - 1
	for ; y1 > y0; y1-- {
		if l := firstTexel(row(y1), c, least, 0, w, 1); l < w {
			x0, x1 = min(x0, l), max(x1, firstTexel(row(y1), c, least, w-1, l-1, -1))
			break
		}
	}
	// The rows between can only widen the columns.
	for y := y0 + 1; y < y1; y++ {
		x0 = firstTexel(row(y), c, least, 0, x0, 1)
		x1 = firstTexel(row(y), c, least, w-1, x1, -1)
	}
	return image.Rect(x0, y0, x1+1, y1+1)
}

// firstTexel returns the first column x of row, from from towards to
// (step 1 or −1, to excluded), whose texel weighs least or more under c,
// or to when none does.
func firstTexel(row []byte, c Coverage, least, from, to, step int) int {
	const alphas = 0xff000000ff000000 // of two texels in a little-endian word
	for x := from; x != to; x += step {
		if least > 0 {
			// Texels without alpha weigh nothing under either coverage:
			// most of a sprite's transparent border is passed two at a time.
			if step > 0 {
				for x+1 < to && binary.LittleEndian.Uint64(row[4*x:])&alphas == 0 {
					x += 2
				}
			} else {
				for x-1 > to && binary.LittleEndian.Uint64(row[4*x-4:])&alphas == 0 {
					x -= 2
				}
			}
			if x == to {
				break
			}
		}
		p := row[4*x : 4*x+4 : 4*x+4]
		if c.weight(int(p[0]), int(p[1]), int(p[2]), int(p[3])) >= least {
			return x
		}
	}
	return to
}
