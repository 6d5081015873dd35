package raster

import "fmt"

// Texture is a mip-mapped texture of straight (not premultiplied) 8-bit
// RGBA texels, sampled as GL samples one with LINEAR_MIPMAP_LINEAR
// filtering: bilinear within a level on the straight texels, linear
// between the two levels around λ (level 0 for λ ≤ 0, the last level past
// it). It is a Sampler, and the one Draw reads directly, without a call
// through the interface per fragment.
type Texture struct {
	// W and H are the size of level 0 in texels (Sampler's Width and
	// Height), whether or not level 0 is held.
	W, H int
	// Levels are the mip levels, level 0 first, each half the size of
	// the one before (never below 1). A level may be left empty (nil Pix)
	// where nothing samples it: the levels finer than a batch's LODBound.
	Levels []Level
	// RepeatU and RepeatV repeat the texture along u and v; it clamps to
	// the edge texels otherwise.
	RepeatU, RepeatV bool
}

// Level is one mip level: Width×Height texels of 4 bytes, R, G, B, A,
// rows Stride bytes apart (an image.NRGBA's Pix and Stride).
type Level struct {
	Width, Height, Stride int
	Pix                   []uint8
}

// held reports whether the level has texels to sample, and enough of them
// for its size.
func (l *Level) held() bool {
	return len(l.Pix) > 0 && l.fits()
}

// fits reports whether Pix holds Width×Height texels at Stride.
func (l *Level) fits() bool {
	return l.Width > 0 && l.Height > 0 && l.Width <= MaxTextureSide && l.Height <= MaxTextureSide &&
		l.Stride >= 4*l.Width && l.Stride <= 4*MaxTextureSide && len(l.Pix) >= (l.Height-1)*l.Stride+4*l.Width
}

// MaxTextureSide bounds a Texture level's width and height, so that texel
// offsets cannot overflow.
const MaxTextureSide = 1 << 16

// Check reports the first level of t whose Pix cannot hold its
// Width×Height texels at its Stride. An empty level (nil Pix) is valid:
// nothing samples it.
func (t *Texture) Check() error {
	if err := t.check(); err != nil {
		return fmt.Errorf("raster: %w", err)
	}
	return nil
}

func (t *Texture) check() error {
	for i := range t.Levels {
		l := &t.Levels[i]
		if len(l.Pix) > 0 && !l.fits() {
			return fmt.Errorf("texture level %d of %d×%d texels, stride %d, has %d bytes", i, l.Width, l.Height, l.Stride, len(l.Pix))
		}
	}
	return nil
}

// Width implements Sampler.
func (t *Texture) Width() int { return t.W }

// Height implements Sampler.
func (t *Texture) Height() int { return t.H }

// Sample implements Sampler. A level without texels, and a NaN
// coordinate, sample as opaque white; a NaN lod samples level 0.
//
// Draw refuses a Texture with a level whose Pix is too short for its
// size (see Check); Sample called directly on one samples that level as
// opaque white rather than reading past Pix.
func (t *Texture) Sample(u, v, lod float32) [4]float32 {
	n := len(t.Levels)
	if n == 0 {
		return [4]float32{1, 1, 1, 1}
	}
	l0, l1, f := mipPick(n, lod)
	a := t.level(l0, u, v)
	if l1 < 0 {
		return a
	}
	b := t.level(l1, u, v)
	a[0] += float32((b[0] - a[0]) * f)
	a[1] += float32((b[1] - a[1]) * f)
	a[2] += float32((b[2] - a[2]) * f)
	a[3] += float32((b[3] - a[3]) * f)
	return a
}

// level filters level l bilinearly, as the fragment loop does.
func (t *Texture) level(l int, u, v float32) [4]float32 {
	lv := t.mipLevel(l)
	r, g, b, a := lv.bilinear(u, v)
	return [4]float32{r, g, b, a}
}

// texelPos places texture coordinate u (not NaN) on an axis of size
// texels for bilinear filtering: the texel left of the sample point and
// the weight of the one after it. Huge coordinates are held in int range;
// repeat is periodic anyway.
func texelPos(u, size float32) (int, float32) {
	// Comparisons rather than the built-in min and max, as in level: the
	// same value for every u that is not NaN, in fewer instructions.
	x := float32(u*size) - 0.5
	if x < -1e8 {
		x = -1e8
	} else if x > 1e8 {
		x = 1e8
	}
	i := int(x)
	if float32(i) > x {
		i--
	}
	return i, x - float32(i)
}

// repeatPair returns the texel indices i and i+1 on a repeating axis of
// n texels (a power of two is masked by the caller, without a division).
func repeatPair(i, n int) (int, int) {
	a := i % n
	if a < 0 {
		a += n
	}
	b := a + 1
	if b == n {
		b = 0
	}
	return a, b
}
