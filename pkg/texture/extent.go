package texture

import (
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

// extentOf is Extent's answer for a decoded level.
func extentOf(img *image.NRGBA, c Coverage, least int) image.Rectangle {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x0, y0, x1, y1 := w, h, -1, -1
	for y := range h {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		for x := 0; len(row) >= 4; x, row = x+1, row[4:] {
			if c.weight(int(row[0]), int(row[1]), int(row[2]), int(row[3])) >= least {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		return image.Rectangle{}
	}
	return image.Rect(x0, y0, x1+1, y1+1)
}
