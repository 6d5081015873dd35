package texture

import (
	"fmt"
	"image"
	"sync"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// Lazy is a texture file that has been read and checked but whose mip
// levels are decoded only when asked for. BLP and DDS files store each
// level on its own, and a thumbnail samples only the small levels of a
// large texture (a 2048² map seen 200 pixels wide reads level 3 and
// coarser), so most of a render's decoding can be skipped: Texture(k)
// decodes levels k and coarser, once. TGA, PNG and JPEG files have no
// stored levels and are decoded whole when the Lazy is made.
//
// The header, the layout of every level and the pixel budget are checked
// when the Lazy is made (a level that fails the checks cuts the chain
// there, see LevelErr), so a level fails to decode later only when its
// compressed data is bad. Texture(k) then cuts the chain at the first
// level from k on that fails, as Decode does from level 0; a damaged level
// finer than k goes unnoticed. What Texture(k) returns depends only on the
// file and k, never on what was asked for before.
//
// A Lazy is safe for concurrent use. Lazies from a Cache share their
// decoded levels with every user of the same file; the cache counts them
// against its budget and may drop them, to be decoded again when next
// asked for.
type Lazy struct {
	format   Format
	w, h     int
	name     string // the file, for errors
	opts     Options
	mf       *mipFile
	n        int   // levels that passed the checks
	levelErr error // why n is short of the file's own count, if it is

	mu       sync.Mutex
	levels   []*image.NRGBA
	errs     []error // levels that failed to decode
	inflight []chan struct{}
	extents  map[extentKey]image.Rectangle
	// cache and el account for the decoded levels while the Lazy is
	// cached; both nil once it is not.
	cache *Cache
	el    *cacheEntry
}

// LazyOf wraps a decoded texture (a stand-in, say) as a Lazy whose levels
// are all there.
func LazyOf(t *Texture) *Lazy {
	return &Lazy{format: t.Format, w: t.Width(), h: t.Height(), n: len(t.Levels), levelErr: t.LevelErr,
		mf: &mipFile{format: t.Format, w: t.Width(), h: t.Height(), n: len(t.Levels), levelErr: t.LevelErr, tex: t}}
}

// OpenLazy checks data as Decode does and returns it as a Lazy; name
// prefixes its errors. o may be nil. The Lazy decodes its levels from
// data when asked for them, so data must not change after the call.
func OpenLazy(data []byte, name string, o *Options) (*Lazy, error) {
	mf, err := openMips(data, o)
	if err != nil {
		return nil, withFile(err, name)
	}
	return newLazy(mf, name, o), nil
}

func newLazy(mf *mipFile, name string, o *Options) *Lazy {
	l := &Lazy{format: mf.format, w: mf.w, h: mf.h, name: name, mf: mf, n: mf.n, levelErr: withFile(mf.levelErr, name)}
	if o != nil {
		l.opts = *o
	}
	if mf.tex == nil {
		l.levels = make([]*image.NRGBA, mf.n)
		l.errs = make([]error, mf.n)
		l.inflight = make([]chan struct{}, mf.n)
	}
	return l
}

// Format says what the texture is decoded from.
func (l *Lazy) Format() Format { return l.format }

// Width is the width of level 0.
func (l *Lazy) Width() int { return l.w }

// Height is the height of level 0.
func (l *Lazy) Height() int { return l.h }

// Levels is the number of mip levels that passed the checks.
func (l *Lazy) Levels() int { return l.n }

// LevelErr says why the checks cut the chain short of the file's own
// count of levels, if they did. Levels damaged in a way only decoding
// shows are reported by Texture, in Texture.LevelErr.
func (l *Lazy) LevelErr() error { return l.levelErr }

// Decoded returns the texture when it has no stored levels to decode
// later (a TGA, PNG or JPEG file, or a texture made by LazyOf), else nil.
func (l *Lazy) Decoded() *Texture { return l.mf.tex }

// Settled reports whether every level has been decoded (and is kept) or
// has failed to decode, so that Texture decodes nothing, whatever level it
// is asked from: a caller that works out which levels it needs can stop
// doing so.
func (l *Lazy) Settled() bool {
	if l.mf.tex != nil {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, img := range l.levels {
		if img == nil && l.errs[k] == nil {
			return false
		}
	}
	return true
}

// Texture returns the texture with level finest (clamped to the chain)
// and the coarser ones decoded: Levels[finest:] are set and the finer
// ones are nil; Width and Height are level 0's all the same. The levels
// are shared: do not modify them.
//
// A level from finest on that fails to decode cuts the chain there
// (Texture.LevelErr says why); when level finest itself fails, the
// next finer one that decodes is returned as the only level. It fails
// when it comes down to level 0 and that cannot be decoded, for an
// unsupported feature, and, with Options.Strict, for any damaged level.
//
// Each level decoded for a model, or found decoded already, is charged to
// m (its pixels, once per level and Meter) before it is decoded; a level m
// refuses fails Texture with the *budget.Error.
func (l *Lazy) Texture(finest int, m *budget.Meter) (*Texture, error) {
	if t := l.mf.tex; t != nil {
		return t, nil
	}
	lo := min(max(finest, 0), l.n-1)
	for k := lo; k < l.n; k++ {
		if err := l.chargeLevel(m, k); err != nil {
			return nil, err
		}
	}
	t := &Texture{Format: l.format, w: l.w, h: l.h, Levels: make([]*image.NRGBA, l.n), LevelErr: l.levelErr}
	hi := l.n
	for k := lo; k < hi; k++ {
		img, err := l.level(k)
		if err != nil {
			if isUnsupported(err) || k == 0 || l.opts.strict() {
				return nil, err
			}
			hi, t.LevelErr = k, err
			break
		}
		t.Levels[k] = img
	}
	for hi == lo { // level lo itself is damaged: fall back to finer ones
		lo--
		if err := l.chargeLevel(m, lo); err != nil {
			return nil, err
		}
		img, err := l.level(lo)
		if err != nil {
			if isUnsupported(err) || lo == 0 || l.opts.strict() {
				return nil, err
			}
			hi, t.LevelErr = lo, err
			continue
		}
		t.Levels[lo] = img
	}
	t.Levels = t.Levels[:hi:hi]
	l.mu.Lock()
	c, el := l.cache, l.el
	l.mu.Unlock()
	if c != nil {
		c.touch(el)
	}
	return t, nil
}

// level decodes level k once; concurrent callers wait for the first.
func (l *Lazy) level(k int) (*image.NRGBA, error) {
	for {
		l.mu.Lock()
		if img, err := l.levels[k], l.errs[k]; img != nil || err != nil {
			l.mu.Unlock()
			return img, err
		}
		if ch := l.inflight[k]; ch != nil {
			l.mu.Unlock()
			<-ch
			continue
		}
		ch := make(chan struct{})
		l.inflight[k] = ch
		l.mu.Unlock()

		img, err := l.mf.decode(k)
		err = withFile(err, l.name)

		l.mu.Lock()
		l.inflight[k] = nil
		if err != nil {
			l.errs[k] = err
		} else {
			l.levels[k] = img
		}
		c, el := l.cache, l.el
		l.mu.Unlock()
		close(ch)
		if err == nil && c != nil {
			c.grow(el, int64(len(img.Pix)))
		}
		return img, err
	}
}

// chargeLevel charges level k's pixels to m.
func (l *Lazy) chargeLevel(m *budget.Meter, k int) error {
	w, h := mipSize(l.w, l.h, k)
	return m.ChargeOnce(decodeKey{l.name, k}, budget.TexturePixels, int64(w)*int64(h), l.name,
		fmt.Sprintf("%s mip %d, %dx%d", l.format, k, w, h))
}

// chargeOpen charges to m what opening the file cost a model when it
// comes from a cache: its pixels when it was decoded whole (chargeDecode).
func (l *Lazy) chargeOpen(m *budget.Meter) error {
	t := l.mf.tex
	if t == nil || l.name == "" {
		return nil
	}
	return m.ChargeOnce(decodeKey{l.name, -1}, budget.TexturePixels, int64(l.w)*int64(l.h)*4/3, l.name,
		fmt.Sprintf("%s %dx%d decoded", l.format, l.w, l.h))
}

func isUnsupported(err error) bool {
	_, ok := err.(*UnsupportedError)
	return ok
}

// release drops the decoded levels and stops accounting to the cache,
// which has evicted the Lazy; users keep the levels they hold.
func (l *Lazy) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.levels)
	l.cache, l.el = nil, nil
}
