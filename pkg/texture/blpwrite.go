package texture

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"io"

	"github.com/mdxrender/mdxrender/internal/mediancut"
)

// DefaultBLPQuality is the JPEG quality EncodeBLP writes with when none
// is given. The game's own icons are stored at about 83 (their
// quantisation table is the standard one scaled by 0.34); 85 keeps a
// 64×64 icon's edges as crisp at the same size on disk.
const DefaultBLPQuality = 85

// MaxEncodeSide is the largest width or height the texture writers take:
// JPEG frames store their size in 16 bits, and no texture the game draws
// comes near it.
const MaxEncodeSide = 65535

// BLPOptions say how EncodeBLP writes a BLP1 texture. The zero value (or
// nil) writes what the game's own command-card icons are: JPEG content at
// DefaultBLPQuality, no alpha, and every mip level down to 1×1.
type BLPOptions struct {
	// Palette writes 256-colour palettised content instead of JPEG. A
	// picture of at most 256 colours keeps them exactly; a richer one is
	// reduced by median cut. Lower mip levels take the nearest colours
	// of the same palette.
	Palette bool
	// Quality is the JPEG quality, 1 to 100; 0 means DefaultBLPQuality.
	Quality int
	// AlphaBits is how much alpha is stored per pixel: 0 (opaque) or 8;
	// palettised content also takes 1 and 4. With 0 every pixel reads
	// back opaque.
	AlphaBits int
	// NoMips writes level 0 only.
	NoMips bool
}

// EncodeError reports a picture or an option a texture writer cannot
// write, naming the format.
type EncodeError struct {
	Format string
	Reason string
}

func (e *EncodeError) Error() string { return e.Format + ": cannot write: " + e.Reason }

// blpHeaderSize is BLP1's header: magic, five u32 fields, the mips flag
// and the 16 offsets and 16 sizes of the mip levels.
const blpHeaderSize = blp1TablesAt + 8*blpMaxMips

// EncodeBLP writes img as a BLP1 texture (docs/formats.md#writing-blp1).
// JPEG content is a four-component baseline stream holding B, G, R and
// A, unsubsampled and untransformed, as the game stores it: the tables
// are written once as the shared JPEG header and each mip level is a
// frame of its own. Mip levels are 2×2 box reductions of the one above,
// weighted by alpha. The bytes depend only on img and o.
func EncodeBLP(w io.Writer, img image.Image, o *BLPOptions) error {
	var opt BLPOptions
	if o != nil {
		opt = *o
	}
	if opt.Quality == 0 {
		opt.Quality = DefaultBLPQuality
	}
	b := img.Bounds()
	switch {
	case b.Dx() < 1 || b.Dy() < 1:
		return &EncodeError{"BLP1", fmt.Sprintf("empty %dx%d picture", b.Dx(), b.Dy())}
	case b.Dx() > MaxEncodeSide || b.Dy() > MaxEncodeSide:
		return &EncodeError{"BLP1", fmt.Sprintf("%dx%d picture is larger than %d a side", b.Dx(), b.Dy(), MaxEncodeSide)}
	case opt.Quality < 1 || opt.Quality > 100:
		return &EncodeError{"BLP1", fmt.Sprintf("JPEG quality %d is not from 1 to 100", opt.Quality)}
	}
	switch {
	case opt.AlphaBits == 0 || opt.AlphaBits == 8:
	case opt.Palette && (opt.AlphaBits == 1 || opt.AlphaBits == 4):
	default:
		return &EncodeError{"BLP1", fmt.Sprintf("%d alpha bits (JPEG content stores 0 or 8, palettised 0, 1, 4 or 8)", opt.AlphaBits)}
	}
	levels := MipChain(img)
	if opt.NoMips {
		levels = levels[:1]
	}

	hdr := make([]byte, blpHeaderSize)
	le := binary.LittleEndian
	copy(hdr, "BLP1")
	content := uint32(blpJPEG)
	if opt.Palette {
		content = blpDirect
	}
	le.PutUint32(hdr[4:], content)
	le.PutUint32(hdr[8:], uint32(opt.AlphaBits))
	le.PutUint32(hdr[12:], uint32(b.Dx()))
	le.PutUint32(hdr[16:], uint32(b.Dy()))
	// The picture type of the game's files: 4 with alpha, 5 without.
	pictureType := uint32(5)
	if opt.AlphaBits > 0 {
		pictureType = 4
	}
	le.PutUint32(hdr[20:], pictureType)
	if len(levels) > 1 {
		le.PutUint32(hdr[24:], 1)
	}

	var shared []byte // the palette, or the JPEG header with its size
	mips := make([][]byte, len(levels))
	if opt.Palette {
		pal := blpPaletteOf(levels[0])
		shared = make([]byte, blpPalette)
		for i, c := range pal {
			n := c.(color.NRGBA)
			copy(shared[4*i:], []byte{n.B, n.G, n.R, 0})
		}
		for i, l := range levels {
			mips[i] = blpPaletteLevel(l, pal, opt.AlphaBits)
		}
	} else {
		q := jpegQuant(opt.Quality)
		header := jpegTables([]byte{0xff, jpegSOI}, &q)
		shared = le.AppendUint32(nil, uint32(len(header)))
		shared = append(shared, header...)
		for i, l := range levels {
			mips[i] = jpegScan(nil, blpPlanes(l, opt.AlphaBits != 0), &q)
		}
	}
	off := blpHeaderSize + len(shared)
	for i, m := range mips {
		le.PutUint32(hdr[blp1TablesAt+4*i:], uint32(off))
		le.PutUint32(hdr[blp1TablesAt+4*blpMaxMips+4*i:], uint32(len(m)))
		off += len(m)
	}
	bw := &errWriter{w: w}
	bw.write(hdr)
	bw.write(shared)
	for _, m := range mips {
		bw.write(m)
	}
	return bw.err
}

// errWriter keeps the first write error, so a writer can be fed piece by
// piece and asked once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) write(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}

// MipChain returns img as straight-alpha RGBA (level 0, img itself when
// it is already such a picture at the origin) and every level below it
// down to 1×1, each a 2×2 box reduction of the one above (a
// side that is already 1 stays 1), averaged with alpha as weight so that
// transparent pixels lend no colour. The texture writers make their mip
// levels with it.
func MipChain(img image.Image) []*image.NRGBA {
	l0 := toNRGBA(img)
	out := []*image.NRGBA{l0}
	w, h := l0.Rect.Dx(), l0.Rect.Dy()
	for i := 1; i < maxLevels(w, h); i++ {
		out = append(out, halve(out[i-1]))
	}
	return out
}

// halve is the 2×2 box reduction of src; an odd last row or column is
// folded into the one before.
func halve(src *image.NRGBA) *image.NRGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	w, h := max(sw/2, 1), max(sh/2, 1)
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			var s [4]uint32
			n := uint32(0)
			for _, sy := range [2]int{min(2*y, sh-1), min(2*y+1, sh-1)} {
				for _, sx := range [2]int{min(2*x, sw-1), min(2*x+1, sw-1)} {
					p := src.Pix[sy*src.Stride+4*sx:]
					a := uint32(p[3])
					s[0] += uint32(p[0]) * a
					s[1] += uint32(p[1]) * a
					s[2] += uint32(p[2]) * a
					s[3] += a
					n++
				}
			}
			d := dst.Pix[y*dst.Stride+4*x:]
			if s[3] == 0 {
				// Wholly transparent: keep the plain average of the
				// colours, which no one sees but a reader ignoring alpha.
				var c [3]uint32
				for _, sy := range [2]int{min(2*y, sh-1), min(2*y+1, sh-1)} {
					for _, sx := range [2]int{min(2*x, sw-1), min(2*x+1, sw-1)} {
						p := src.Pix[sy*src.Stride+4*sx:]
						c[0] += uint32(p[0])
						c[1] += uint32(p[1])
						c[2] += uint32(p[2])
					}
				}
				d[0], d[1], d[2], d[3] = uint8((c[0]+n/2)/n), uint8((c[1]+n/2)/n), uint8((c[2]+n/2)/n), 0
				continue
			}
			d[0] = uint8((s[0] + s[3]/2) / s[3])
			d[1] = uint8((s[1] + s[3]/2) / s[3])
			d[2] = uint8((s[2] + s[3]/2) / s[3])
			d[3] = uint8((s[3] + n/2) / n)
		}
	}
	return dst
}

// blpPlanes splits a level into the B, G, R and A planes BLP1's JPEG
// content stores; without alpha the fourth plane is opaque, which is
// what a reader that takes the fourth component as alpha whatever the
// header says (the reference viewer does) must see.
func blpPlanes(img *image.NRGBA, alpha bool) *jpegPlanes {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	p := &jpegPlanes{w: w, h: h}
	for c := range p.c {
		p.c[c] = make([]uint8, w*h)
	}
	for i := range w * h {
		s := img.Pix[4*i:]
		p.c[0][i], p.c[1][i], p.c[2][i] = s[2], s[1], s[0]
		p.c[3][i] = 255
		if alpha {
			p.c[3][i] = s[3]
		}
	}
	return p
}

// blpPaletteOf returns the palette of a palettised BLP1: the picture's
// own colours, in a fixed order, when it has at most 256; otherwise a
// median cut.
func blpPaletteOf(img *image.NRGBA) color.Palette {
	seen := map[[3]uint8]bool{}
	var cols [][3]uint8
	for i := 0; i+3 < len(img.Pix); i += 4 {
		k := [3]uint8{img.Pix[i], img.Pix[i+1], img.Pix[i+2]}
		if !seen[k] {
			seen[k] = true
			cols = append(cols, k)
			if len(cols) > 256 {
				break
			}
		}
	}
	if len(cols) <= 256 {
		pal := make(color.Palette, len(cols))
		for i, c := range cols {
			pal[i] = color.NRGBA{c[0], c[1], c[2], 255}
		}
		return pal
	}
	// Median cut leaves out transparent pixels; their colour counts
	// here, as BLP keeps colour and alpha apart.
	opaque := image.NewNRGBA(img.Rect)
	copy(opaque.Pix, img.Pix)
	for i := 3; i < len(opaque.Pix); i += 4 {
		opaque.Pix[i] = 255
	}
	return mediancut.Palette([]*image.NRGBA{opaque}, 256)
}

// blpPaletteLevel writes one palettised level: an index per pixel (the
// nearest palette colour), then the alpha plane of alphaBits per pixel,
// packed least significant bit first.
func blpPaletteLevel(img *image.NRGBA, pal color.Palette, alphaBits int) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	n := w * h
	out := make([]byte, n+(n*alphaBits+7)/8)
	near := map[[3]uint8]uint8{}
	for i := range n {
		p := img.Pix[4*i:]
		k := [3]uint8{p[0], p[1], p[2]}
		idx, ok := near[k]
		if !ok {
			idx = uint8(nearestColor(pal, k))
			near[k] = idx
		}
		out[i] = idx
	}
	alpha := out[n:]
	maxv := uint32(1)<<alphaBits - 1
	for i := range n {
		if alphaBits == 0 {
			break
		}
		a := uint32(img.Pix[4*i+3])
		v := (a*maxv + 127) / 255
		bit := i * alphaBits
		alpha[bit>>3] |= byte(v << (bit & 7))
	}
	return out
}

// nearestColor is the index of the palette colour nearest to c in
// squared RGB distance; the first one wins a tie.
func nearestColor(pal color.Palette, c [3]uint8) int {
	best, bestD := 0, -1
	for i, pc := range pal {
		n := pc.(color.NRGBA)
		dr, dg, db := int(n.R)-int(c[0]), int(n.G)-int(c[1]), int(n.B)-int(c[2])
		d := dr*dr + dg*dg + db*db
		if bestD < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	return best
}
