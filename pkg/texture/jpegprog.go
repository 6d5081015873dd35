package texture

import (
	"image"
	"math/bits"
)

// Progressive streams (SOF2) in the fast BLP JPEG decoder. A progressive
// stream sends each block's coefficients over several scans: the DC terms
// first (often only their high bits), then bands of AC terms, then the
// lower bits of both (successive approximation). Like image/jpeg, the
// decoder keeps every block's coefficients, quantised and in natural
// order, until the end of the stream, and only then dequantises them with
// the quantisation tables defined at that point and runs the inverse DCT.
//
// The coefficient arithmetic is image/jpeg's (Go 1.26), step for step and
// in int32, including what it does with streams T.81 does not allow but
// it accepts: scans in any order, a refinement before the scan it
// refines, an end-of-band run that outlasts its scan (it carries over
// into the next AC scan; only a restart marker clears it), shifts that
// overflow. Only what the pixels depend on is modelled; streams that make
// image/jpeg fail, and a few it accepts that do not occur in practice
// (restart markers it has to search for, fill bytes), are left to it.
//
// Blocks are walked the same way in every scan: the frame's components
// are unsubsampled, so an MCU of an interleaved scan is one block of
// each, and a one-component scan covers ceil(width/8)×ceil(height/8)
// blocks (T.81 A.2.2: the component's own size rounded up to blocks),
// which is the frame's block grid too.

// progState is what a progressive decode keeps between scans.
type progState struct {
	// coef holds each component's blocks, 64 quantised coefficients in
	// natural order each, component after component; the DC terms are
	// kept apart, in dc, so that DC scans touch 4 bytes per block rather
	// than a cache line (coef[64*i] stays zero).
	coef []int32
	dc   []int32
	// nz has, per block (in the order of coef), bit k set when the k-th
	// AC coefficient in zig-zag order is non-zero: refinement scans
	// visit only those. An AC coefficient is only ever set to non-zero
	// values, and adding or taking away a refinement bit cannot make it
	// zero (not even wrapping round), so the bits are only ever set.
	nz []uint64
	// coded: the component has been in a scan (image/jpeg leaves the
	// plane of one that never was at zero).
	coded [4]bool
	// eobRun is the number of blocks still to skip (first AC scans) or
	// only to refine (AC refinement scans) of the current end-of-band
	// run.
	eobRun int32
}

// progScan decodes one scan of a progressive frame whose header is seg
// and whose entropy-coded data starts at pos into the coefficients, and
// returns where the marker after the data starts.
func (d *fastJPEG) progScan(seg []byte, pos int, dst *image.NRGBA) (int, error) {
	if len(seg) < 1 {
		return 0, jpegFallback("short SOS")
	}
	ns := int(seg[0])
	if ns < 1 || ns > d.ncomp || len(seg) != 4+2*ns {
		return 0, jpegFallback("bad SOS length")
	}
	ss, se := int(seg[1+2*ns]), int(seg[2+2*ns])
	ah, al := seg[3+2*ns]>>4, seg[3+2*ns]&15
	if ss == 0 && se != 0 || ss > se || se > 63 {
		return 0, jpegFallback("bad spectral selection")
	}
	if ss != 0 && ns != 1 {
		return 0, jpegFallback("interleaved AC scan")
	}
	if ah != 0 && ah != al+1 {
		return 0, jpegFallback("bad successive approximation")
	}
	var order [4]int
	var dcT, acT [4]*huffTable
	for i := range ns {
		t := seg[2+2*i]
		k, err := d.scanComponent(seg[1+2*i], &order, i)
		if err != nil {
			return 0, err
		}
		td, ta := t>>4, t&15
		if td > 3 || ta > 3 {
			return 0, jpegFallback("bad Huffman table selector")
		}
		// Only the tables the scan decodes with must be there: DC
		// refinement uses none, AC scans no DC table.
		if ss == 0 && ah == 0 && d.dcT[td] == nil || ss != 0 && d.acT[ta] == nil {
			return 0, jpegFallback("missing Huffman table")
		}
		order[i], dcT[i], acT[i] = k, d.dcT[td], d.acT[ta]
	}
	bw, bh := (d.width+7)/8, (d.height+7)/8
	nb := bw * bh
	p := &d.prog
	if p.coef == nil {
		// The coefficients are the one allocation that follows the
		// frame rather than the level: bound them by the level.
		if d.width > dst.Rect.Dx() || d.height > dst.Rect.Dy() {
			return 0, jpegFallback("progressive frame larger than its level")
		}
		p.coef = make([]int32, d.ncomp*nb*64)
		p.dc = make([]int32, d.ncomp*nb)
		p.nz = make([]uint64, d.ncomp*nb)
	}
	for i := range ns {
		p.coded[order[i]] = true
	}
	var pred [4]int32
	br := &d.br
	br.reset(d.data, pos)
	mcu, rst := 0, 0
	for b := range nb {
		for i := range ns {
			k := order[i]
			o := k*nb + b
			var ok bool
			switch {
			case ah != 0 && ss == 0:
				ok = d.refineDC(&p.dc[o], al)
			case ah != 0:
				ok = d.refineAC((*[64]int32)(p.coef[64*o:64*o+64]), &p.nz[o], acT[i], ss, se, al)
			case ss == 0:
				ok = d.firstDC(&p.dc[o], dcT[i], &pred[k], al)
			default:
				ok = d.firstAC((*[64]int32)(p.coef[64*o:64*o+64]), &p.nz[o], acT[i], ss, se, al)
			}
			if !ok || br.overrun() {
				return 0, jpegFallback("bad entropy-coded data")
			}
		}
		mcu++
		if d.ri > 0 && mcu%d.ri == 0 && mcu < nb {
			next, ok := d.restart(rst)
			if !ok {
				return 0, jpegFallback("bad restart marker")
			}
			rst = (rst + 1) & 7
			pred = [4]int32{}
			p.eobRun = 0
			br.reset(d.data, next)
		}
	}
	end := d.dataEnd()
	if end+1 >= len(d.data) || d.data[end+1] >= jpegRST0 && d.data[end+1] <= jpegRST0+7 || d.data[end+1] == 0xff {
		return 0, jpegFallback("no marker after the scan")
	}
	return end, nil
}

// need tops the bit reader up to at least 57 bits when it holds fewer
// than 32: enough for any one code and its extra bits.
func (br *bitReader) need() {
	if br.n < 32 {
		br.acc, br.n = br.fill(br.acc, br.n)
	}
}

// symbol decodes one Huffman code, or returns -1 for a bit pattern that
// is no code.
func (br *bitReader) symbol(t *huffTable) int32 {
	br.need()
	if e := t.look[br.acc>>(64-huffLookBits)]; e != 0 {
		l := (e >> 4) & 15 // the code alone, not an AC entry's value bits
		br.acc <<= uint(l)
		br.n -= int(l)
		return (e >> 8) & 0xff
	}
	var s int32
	s, br.acc, br.n = t.decodeSlow(br.acc, br.n)
	return s
}

// bits reads s (0-16) bits as an unsigned number.
func (br *bitReader) bits(s int32) int32 {
	br.need()
	v := int32(br.acc >> (64 - s)) // a shift by 64 gives 0
	br.acc <<= uint(s)
	br.n -= int(s)
	return v
}

// bit reads one bit.
func (br *bitReader) bit() bool {
	br.need()
	v := br.acc >> 63
	br.acc <<= 1
	br.n--
	return v != 0
}

// firstDC decodes a block's DC term in a first DC scan: the difference
// from the component's last one, shifted up by al.
func (d *fastJPEG) firstDC(dc *int32, t *huffTable, pred *int32, al uint8) bool {
	s := d.br.symbol(t)
	if s < 0 || s > 16 {
		return false
	}
	if s > 0 {
		*pred += extend(d.br.bits(s), s)
	}
	*dc = *pred << al
	return true
}

// refineDC reads the next bit of a block's DC term.
func (d *fastJPEG) refineDC(dc *int32, al uint8) bool {
	if d.br.bit() {
		*dc |= 1 << al
	}
	return true
}

// firstAC decodes the band ss-se of a block in a first AC scan: it
// either belongs to an end-of-band run (and stays as it is) or holds
// run/size codes, each setting one coefficient to its value shifted up
// by al, until the band ends or an end-of-band run starts. The bit
// reader's state lives in locals, as in block.
func (d *fastJPEG) firstAC(blk *[64]int32, nz *uint64, t *huffTable, ss, se int, al uint8) bool {
	p := &d.prog
	if p.eobRun > 0 {
		p.eobRun--
		return true
	}
	br := &d.br
	acc, n := br.acc, br.n
	mask := *nz
	look := &t.look
	for k := ss; k <= se; k++ {
		if n < 32 {
			acc, n = br.fill(acc, n)
		}
		e := look[acc>>(64-huffLookBits)]
		if e&huffWhole != 0 {
			// The code and the value's bits in one entry.
			k += int(e>>12) & 15
			if k > se {
				// A run past the band ends it; the value's bits are
				// not read.
				l := (e >> 4) & 15
				acc <<= uint(l)
				n -= int(l)
				break
			}
			l := e & 15
			acc <<= uint(l)
			n -= int(l)
			blk[zigzag[k&63]] = (e >> huffValShift) << al
			mask |= 1 << k
			continue
		}
		var sym int32
		if e != 0 {
			l := e & 15
			acc <<= uint(l)
			n -= int(l)
			sym = (e >> 8) & 0xff
		} else {
			sym, acc, n = t.decodeSlow(acc, n)
			if sym < 0 {
				return false
			}
		}
		run, size := int(sym>>4), sym&15
		if size != 0 {
			k += run
			if k > se {
				break
			}
			v := int32(acc >> (64 - size))
			acc <<= uint(size)
			n -= int(size)
			blk[zigzag[k&63]] = extend(v, size) << al
			mask |= 1 << k
			continue
		}
		if run == 15 {
			k += 15 // sixteen zeros
			continue
		}
		eob := int32(1) << run
		if run != 0 {
			eob |= int32(acc >> (64 - run))
			acc <<= uint(run)
			n -= run
		}
		p.eobRun = eob - 1 // this block is the run's first
		break
	}
	br.acc, br.n = acc, n
	*nz = mask
	return true
}

// refineAC reads the next bit of the band ss-se of a block in an AC
// refinement scan: coefficients already non-zero get one correction bit
// each, in zig-zag order, and run/1 codes place new coefficients of
// ±2^al after that many zero ones; blocks of an end-of-band run only get
// their correction bits. image/jpeg reads the correction bits one by one
// as it walks the band; here the block's non-zero mask says how many
// there are before the next new coefficient, and they are read together.
func (d *fastJPEG) refineAC(blk *[64]int32, nz *uint64, t *huffTable, ss, se int, al uint8) bool {
	p := &d.prog
	br := &d.br
	acc, n := br.acc, br.n
	delta := int32(1) << al
	mask := *nz
	look := &t.look
	top := ^uint64(0) >> (63 - se) // bits 0-se
	k := ss
	if p.eobRun == 0 {
		for k <= se {
			if n < 32 {
				acc, n = br.fill(acc, n)
			}
			var sym int32
			if e := look[acc>>(64-huffLookBits)]; e != 0 {
				l := (e >> 4) & 15 // the code alone
				acc <<= uint(l)
				n -= int(l)
				sym = (e >> 8) & 0xff
			} else {
				sym, acc, n = t.decodeSlow(acc, n)
				if sym < 0 {
					return false
				}
			}
			run, size := int(sym>>4), sym&15
			z := int32(0)
			switch size {
			case 0:
				if run != 15 {
					eob := int32(1) << run
					if run != 0 {
						eob |= int32(acc >> (64 - run))
						acc <<= uint(run)
						n -= run
					}
					p.eobRun = eob
				}
			case 1:
				z = delta
				if acc>>63 == 0 {
					z = -z
				}
				acc <<= 1
				n--
			default:
				return false
			}
			if p.eobRun != 0 {
				break
			}
			// The new coefficient (or, for ZRL, the end of the sixteen
			// zeros) is the zero coefficient after run zero ones.
			band := ^uint64(0) << k & top
			zeros := ^mask & band
			for range run {
				zeros &= zeros - 1
			}
			if zeros == 0 {
				return false // image/jpeg: too many coefficients
			}
			at := bits.TrailingZeros64(zeros)
			acc, n = refineBits(br, blk, mask&band&(1<<at-1), delta, acc, n)
			if z != 0 {
				blk[zigzag[at&63]] = z
				mask |= 1 << at
			}
			k = at + 1
		}
	}
	if p.eobRun > 0 {
		p.eobRun--
		acc, n = refineBits(br, blk, mask&(^uint64(0)<<k)&top, delta, acc, n)
	}
	br.acc, br.n = acc, n
	*nz = mask
	return true
}

// refineBits reads one correction bit for each coefficient m marks (by
// zig-zag position), in zig-zag order, and moves the coefficients whose
// bit is set away from zero by delta. acc and n are the bit reader's
// state, which it returns.
func refineBits(br *bitReader, blk *[64]int32, m uint64, delta int32, acc uint64, n int) (uint64, int) {
	for m != 0 {
		if n < 32 {
			acc, n = br.fill(acc, n)
		}
		c := min(bits.OnesCount64(m), 32)
		v := uint32(acc >> (64 - c))
		acc <<= uint(c)
		n -= c
		for i := c - 1; i >= 0; i-- {
			u := zigzag[bits.TrailingZeros64(m)&63]
			m &= m - 1
			// Without branches (the bits are noise): add delta times
			// the bit, with the coefficient's sign.
			x := blk[u]
			s := x >> 31
			a := delta & -int32(v>>i&1)
			blk[u] = x + (a ^ s) - s
		}
	}
	return acc, n
}

// progStore dequantises the coefficients of every component that was in
// a scan with the quantisation tables as they stand at the end of the
// stream, transforms them and stores the blocks inside the part of dst
// the frame covers.
func (d *fastJPEG) progStore(dst *image.NRGBA) error {
	p := &d.prog
	bw, bh := (d.width+7)/8, (d.height+7)/8
	nb := bw * bh
	cw, ch := min(dst.Rect.Dx(), d.width), min(dst.Rect.Dy(), d.height)
	for k := range d.ncomp {
		c := &d.comp[k]
		if !p.coded[k] || c.ch < 0 {
			continue
		}
		if !d.qdef[c.tq] {
			return jpegFallback("missing quantisation table")
		}
		q := &d.quant[c.tq]
		for by := 0; by < bh && 8*by < ch; by++ {
			for bx := 0; bx < bw && 8*bx < cw; bx++ {
				o := k*nb + by*bw + bx
				src := (*[64]int32)(p.coef[64*o : 64*o+64])
				// Only the DC and the coefficients nz marks can be
				// non-zero; d.blk is all zeros between blocks.
				var rows uint32
				if v := p.dc[o] * q[0]; v != 0 {
					d.blk[0] = v
					rows = rowBits[0]
				}
				for m := p.nz[o]; m != 0; m &= m - 1 {
					z := bits.TrailingZeros64(m) & 63
					u := zigzag[z] & 63
					if v := src[u] * q[z]; v != 0 {
						d.blk[u] = v
						rows |= rowBits[z]
					}
				}
				d.store(dst, c, rows, bx, by, cw, ch)
				d.clearBlock(rows)
			}
		}
	}
	return nil
}
