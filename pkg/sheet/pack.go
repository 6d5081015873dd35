package sheet

import (
	"fmt"
	"image"
	"image/draw"
)

// DefaultMaxSize is the page size sheets are split at by default: 4096
// pixels a side, the largest texture every engine and GPU of note loads.
const DefaultMaxSize = 4096

// PackOptions say how Pack places the frames on the sheet.
type PackOptions struct {
	// Trim crops every frame to the bounds of its pixels (alpha above 0);
	// Cell.Source keeps where the crop came from. A frame with no pixel
	// keeps one transparent pixel, as engines want a frame of some size.
	Trim bool
	// Padding is the transparent gap in pixels between frames and between
	// rows, so that an engine's filtering does not bleed one trimmed frame
	// into the next.
	Padding int
	// MaxSize bounds each page's width and height; 0 means MaxSide. A
	// sheet that does not fit is split into pages (the TexturePacker
	// "multipack" layout); an animation always stays on one page, and one
	// that cannot fit on a page is an error.
	MaxSize int
}

// Pack places frames (in cell order, each FrameW x FrameH) on pages and
// returns the page images: row by row as NewLayout's grid, each animation
// starting a row and wrapping after Cols frames or at the page's width,
// and a new page when an animation would make a page too tall. Without
// trimming, padding or splitting it is the grid itself. It sets the
// cells' Page, Rect and Source and the Layout's Pages and Trimmed.
func (l *Layout) Pack(frames []*image.NRGBA, o PackOptions) ([]*image.NRGBA, error) {
	if len(frames) != len(l.Cells) {
		return nil, fmt.Errorf("sheet: %d frames for %d cells", len(frames), len(l.Cells))
	}
	maxSize := o.MaxSize
	if maxSize <= 0 || maxSize > MaxSide {
		maxSize = MaxSide
	}
	if o.Padding < 0 || o.Padding > 64 {
		return nil, fmt.Errorf("sheet: padding %d outside 0 to 64", o.Padding)
	}
	src := make([]image.Rectangle, len(frames))
	for i, f := range frames {
		c := &l.Cells[i]
		if f == nil {
			return nil, fmt.Errorf("sheet: frame %s is missing", c.Name)
		}
		if f.Bounds().Dx() != l.FrameW || f.Bounds().Dy() != l.FrameH {
			return nil, fmt.Errorf("sheet: frame %s is %v, want %dx%d", c.Name, f.Bounds().Size(), l.FrameW, l.FrameH)
		}
		src[i] = image.Rect(0, 0, l.FrameW, l.FrameH)
		if o.Trim {
			src[i] = opaqueBounds(f)
		}
	}
	if l.FrameW > maxSize || l.FrameH > maxSize {
		return nil, fmt.Errorf("sheet: frames of %dx%d do not fit a page of at most %d pixels", l.FrameW, l.FrameH, maxSize)
	}

	// Lay every animation out as a block of rows, then stack the blocks
	// on pages.
	type block struct {
		first, n int               // cells
		rects    []image.Rectangle // relative to the block's top left
		w, h     int
	}
	var blocks []block
	pad := o.Padding
	for i := 0; i < len(l.Cells); {
		b := block{first: i}
		x, y, rowH, inRow := 0, 0, 0, 0
		for ; i < len(l.Cells) && l.Cells[i].Animation == l.Cells[b.first].Animation; i++ {
			w, h := src[i].Dx(), src[i].Dy()
			if inRow > 0 && (inRow == l.Cols || x+pad+w > maxSize) {
				x, y, rowH, inRow = 0, y+rowH+pad, 0, 0
			}
			if inRow > 0 {
				x += pad
			}
			b.rects = append(b.rects, image.Rect(x, y, x+w, y+h))
			x += w
			rowH = max(rowH, h)
			inRow++
			b.w, b.h = max(b.w, x), max(b.h, y+rowH)
		}
		b.n = i - b.first
		if b.h > maxSize {
			return nil, fmt.Errorf("sheet: animation %s needs %dx%d pixels, more than a page of at most %d; use fewer frames or yaws, a smaller size, or a larger maximum",
				l.Cells[b.first].Animation, b.w, b.h, maxSize)
		}
		blocks = append(blocks, b)
	}
	pages := []image.Point{{}}
	for _, b := range blocks {
		p := &pages[len(pages)-1]
		top := p.Y
		if top > 0 {
			top += pad
		}
		if top+b.h > maxSize {
			pages = append(pages, image.Point{})
			p, top = &pages[len(pages)-1], 0
		}
		for k, r := range b.rects {
			c := &l.Cells[b.first+k]
			c.Page, c.Rect, c.Source = len(pages)-1, r.Add(image.Pt(0, top)), src[b.first+k]
		}
		p.X, p.Y = max(p.X, b.w), top+b.h
	}
	out := make([]*image.NRGBA, len(pages))
	for i, p := range pages {
		out[i] = image.NewNRGBA(image.Rectangle{Max: p})
	}
	for i, c := range l.Cells {
		draw.Draw(out[c.Page], c.Rect, frames[i], c.Source.Min, draw.Src)
	}
	l.Pages, l.Trimmed = pages, o.Trim
	return out, nil
}

// opaqueBounds is the bounds of the pixels of f with some alpha,
// relative to f's top-left corner; one pixel at the corner when there is
// none.
func opaqueBounds(f *image.NRGBA) image.Rectangle {
	b := f.Bounds()
	x0, y0, x1, y1 := b.Dx(), b.Dy(), -1, -1
	for y := 0; y < b.Dy(); y++ {
		row := f.Pix[y*f.Stride : y*f.Stride+4*b.Dx()]
		for x := 0; x < b.Dx(); x++ {
			if row[4*x+3] != 0 {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		return image.Rect(0, 0, 1, 1)
	}
	return image.Rect(x0, y0, x1+1, y1+1)
}
