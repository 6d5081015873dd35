package texture

import (
	"encoding/binary"
	"image"
	"math/bits"
)

// The fast path for BLP JPEG levels. BLP1 textures store their levels as
// baseline JPEG with four unsubsampled components and one interleaved
// scan (a few as progressive JPEG); image/jpeg decodes those into planes,
// interleaves them into an inverted CMYK picture, and decodeBLPJPEG then
// inverts and swizzles that again. This decoder reads the same streams
// straight into the NRGBA level, and is only ever used where it gives
// exactly the pixels of that path: for any stream it is not sure about
// (arithmetic or 12-bit coding, subsampling, several sequential scans, an
// unknown marker, a damaged table or entropy-coded segment, a colour
// transform) it returns a jpegFallback and the caller decodes with
// image/jpeg, which then decides the pixels or the error. Progressive
// streams are decoded in jpegprog.go.
//
// The stream rules that decide the pixels follow image/jpeg's reading of
// the format (ITU T.81): a missing or short entropy-coded segment is an
// error, symbols a baseline scan should not hold are handled as that
// decoder handles them or refused, and the last Adobe APP14 and JFIF APP0
// markers pick the colour model.

// jpegFallback says why the fast decoder left a stream to image/jpeg.
type jpegFallback string

func (e jpegFallback) Error() string { return "fast JPEG path declined: " + string(e) }

// JPEG markers the fast decoder reads (jpegSOI, jpegEOI, jpegSOS are in
// jpeg.go).
const (
	jpegSOF0  = 0xc0
	jpegSOF1  = 0xc1
	jpegSOF2  = 0xc2
	jpegDHT   = 0xc4
	jpegRST0  = 0xd0
	jpegDQT   = 0xdb
	jpegDRI   = 0xdd
	jpegAPP0  = 0xe0
	jpegAPP14 = 0xee
	jpegAPP15 = 0xef
	jpegCOM   = 0xfe
)

// zigzag[k] is the natural (row-major) index of the k-th coefficient in
// zig-zag order. rowBits[k] is the block row mask bit of that coefficient:
// bit 8+r says row r has a non-zero coefficient, bit r that it has one
// past its first column, bit 16+r that it has one in columns 4-7.
var zigzag, rowBits = makeZigzag()

func makeZigzag() (zz [64]uint8, rb [64]uint32) {
	// Walk the anti-diagonals d = x+y, alternating direction: even ones
	// go up and to the right, odd ones down and to the left.
	k := 0
	for d := 0; d < 15; d++ {
		for i := 0; i <= d; i++ {
			y := i
			if d%2 == 0 {
				y = d - i
			}
			x := d - y
			if x < 8 && y < 8 {
				zz[k] = uint8(8*y + x)
				rb[k] = 1 << (8 + y)
				if x != 0 {
					rb[k] |= 1 << y
				}
				if x >= 4 {
					rb[k] |= 1 << (16 + y)
				}
				k++
			}
		}
	}
	return zz, rb
}

// jpegComp is one frame component.
type jpegComp struct {
	id   byte
	tq   uint8
	pred int32 // DC predictor
	// ch is the NRGBA byte this component lands in, or -1 when it is
	// decoded only to stay in step (the alpha plane of a BLP without
	// alpha bits); gray: a one-component frame's sample goes to R, G, B.
	ch   int
	gray bool
}

// fastJPEG holds the state of one decode.
type fastJPEG struct {
	data          []byte
	width, height int
	ncomp         int
	comp          [4]jpegComp
	baseline      bool
	progressive   bool
	quant         [4][64]int32 // zig-zag order, as stored
	qdef          [4]bool
	dcT, acT      [4]*huffTable // nil until defined
	ri            int
	jfif          bool
	adobe         bool
	transform     byte
	scanned       bool
	hasAlpha      bool
	br            bitReader
	blk, tmp      [64]int32
	prog          progState
}

// decodeBLPJPEGFast decodes a BLP JPEG level's stream (as jpegLevel built
// it) into a w×h NRGBA with exactly the pixels decodeBLPJPEGStd gives, or
// returns a jpegFallback.
func decodeBLPJPEGFast(stream []byte, w, h int, hasAlpha bool) (*image.NRGBA, error) {
	d := &fastJPEG{data: stream, hasAlpha: hasAlpha}
	return d.decode(w, h)
}

func (d *fastJPEG) decode(w, h int) (*image.NRGBA, error) {
	b := d.data
	if len(b) < 2 || b[0] != 0xff || b[1] != jpegSOI {
		return nil, jpegFallback("no SOI")
	}
	if w <= 0 || h <= 0 {
		return nil, jpegFallback("empty level")
	}
	var dst *image.NRGBA
	pos := 2
	for {
		// Each segment must start right where the last one ended:
		// image/jpeg skips stray bytes, and we leave those streams to it.
		if pos+2 > len(b) || b[pos] != 0xff {
			return nil, jpegFallback("bytes between segments")
		}
		m := b[pos+1]
		if m == jpegEOI {
			break
		}
		if pos+4 > len(b) {
			return nil, jpegFallback("truncated segment")
		}
		n := int(binary.BigEndian.Uint16(b[pos+2:]))
		if n < 2 || pos+2+n > len(b) {
			return nil, jpegFallback("bad segment length")
		}
		seg := b[pos+4 : pos+2+n]
		end := pos + 2 + n
		var err error
		switch {
		case m == jpegSOF0 || m == jpegSOF1 || m == jpegSOF2:
			err = d.parseSOF(m, seg)
		case m == jpegDHT:
			err = d.parseDHT(seg)
		case m == jpegDQT:
			err = d.parseDQT(seg)
		case m == jpegDRI:
			if len(seg) != 2 {
				return nil, jpegFallback("bad DRI")
			}
			d.ri = int(binary.BigEndian.Uint16(seg))
		case m == jpegSOS:
			if d.scanned && !d.progressive || d.ncomp == 0 {
				return nil, jpegFallback("second scan or scan before frame")
			}
			if dst == nil {
				dst = d.newLevel(w, h)
				d.place()
			}
			if d.progressive {
				end, err = d.progScan(seg, end, dst)
			} else {
				end, err = d.scan(seg, end, dst)
			}
			d.scanned = true
		case m == jpegAPP0:
			if len(seg) >= 5 {
				d.jfif = string(seg[:5]) == "JFIF\x00"
			}
		case m == jpegAPP14:
			if len(seg) >= 12 && string(seg[:5]) == "Adobe" {
				d.adobe, d.transform = true, seg[11]
			}
		case m > jpegAPP0 && m <= jpegAPP15 || m == jpegCOM:
		default:
			return nil, jpegFallback("unsupported marker")
		}
		if err != nil {
			return nil, err
		}
		pos = end
	}
	if !d.scanned {
		return nil, jpegFallback("no scan")
	}
	if !d.adobe {
		return nil, jpegFallback("no Adobe marker")
	}
	switch d.ncomp {
	case 3:
		// image/jpeg returns RGB (rather than YCbCr, which the BLP
		// path refuses) only for these.
		rgb := d.transform == 0 || d.comp[0].id == 'R' && d.comp[1].id == 'G' && d.comp[2].id == 'B'
		if d.jfif || !rgb {
			return nil, jpegFallback("YCbCr colour")
		}
	case 4:
		if d.transform != 0 {
			return nil, jpegFallback("YCCK colour")
		}
	}
	if d.progressive {
		if err := d.progStore(dst); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// parseSOF reads a frame header: 8-bit, one, three or four components,
// none subsampled (a single component counts as unsubsampled whatever it
// says, as T.81 A.2 has it).
func (d *fastJPEG) parseSOF(m byte, seg []byte) error {
	if d.ncomp != 0 {
		return jpegFallback("second frame")
	}
	if len(seg) < 6 || seg[0] != 8 {
		return jpegFallback("frame precision")
	}
	n := int(seg[5])
	if (n != 1 && n != 3 && n != 4) || len(seg) != 6+3*n {
		return jpegFallback("frame components")
	}
	d.height = int(binary.BigEndian.Uint16(seg[1:]))
	d.width = int(binary.BigEndian.Uint16(seg[3:]))
	if d.width == 0 || d.height == 0 {
		return jpegFallback("empty frame")
	}
	d.baseline = m == jpegSOF0
	d.progressive = m == jpegSOF2
	for i := range n {
		c := seg[6+3*i:]
		hv, tq := c[1], c[2]
		if tq > 3 {
			return jpegFallback("bad Tq")
		}
		for j := range i {
			if d.comp[j].id == c[0] {
				return jpegFallback("repeated component")
			}
		}
		if n == 1 {
			// Sampling factors are checked but mean nothing alone.
			hh, vv := hv>>4, hv&15
			if hh != 1 && hh != 2 && hh != 4 || vv != 1 && vv != 2 && vv != 4 {
				return jpegFallback("sampling factors")
			}
		} else if hv != 0x11 {
			return jpegFallback("subsampled component")
		}
		d.comp[i] = jpegComp{id: c[0], tq: tq}
	}
	d.ncomp = n
	return nil
}

// parseDHT reads the Huffman tables of one DHT segment.
func (d *fastJPEG) parseDHT(seg []byte) error {
	for len(seg) > 0 {
		if len(seg) < 17 {
			return jpegFallback("short DHT")
		}
		tc, th := seg[0]>>4, seg[0]&15
		if tc > 1 || th > 3 || (d.baseline && th > 1) {
			return jpegFallback("bad DHT class or slot")
		}
		total := 0
		for _, c := range seg[1:17] {
			total += int(c)
		}
		if total == 0 || total > 256 || len(seg) < 17+total {
			return jpegFallback("bad DHT counts")
		}
		t := sharedHuffTable(seg[:17+total])
		if t == nil {
			return jpegFallback("over-subscribed Huffman table")
		}
		if tc == 1 {
			d.acT[th] = t
		} else {
			d.dcT[th] = t
		}
		seg = seg[17+total:]
	}
	return nil
}

// parseDQT reads the quantisation tables of one DQT segment (8- or
// 16-bit entries).
func (d *fastJPEG) parseDQT(seg []byte) error {
	for len(seg) > 0 {
		pq, tq := seg[0]>>4, seg[0]&15
		if tq > 3 || pq > 1 {
			return jpegFallback("bad DQT")
		}
		size := 64 << pq
		if len(seg) < 1+size {
			return jpegFallback("short DQT")
		}
		q := &d.quant[tq]
		for k := range q {
			if pq == 0 {
				q[k] = int32(seg[1+k])
			} else {
				q[k] = int32(binary.BigEndian.Uint16(seg[1+2*k:]))
			}
		}
		d.qdef[tq] = true
		seg = seg[1+size:]
	}
	return nil
}

// newLevel allocates the level with its alpha set where decodeBLPJPEGStd
// would leave it set without a decoded alpha plane: everywhere when the
// BLP has no alpha bits, else over the frame where the frame has no
// alpha component (the rest of the level stays transparent black).
func (d *fastJPEG) newLevel(w, h int) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	cw, ch := min(w, d.width), min(h, d.height)
	switch {
	case !d.hasAlpha:
		for i := 3; i < len(dst.Pix); i += 4 {
			dst.Pix[i] = 255
		}
	case d.ncomp < 4:
		for y := range ch {
			row := dst.Pix[y*dst.Stride : y*dst.Stride+4*cw]
			for i := 3; i < len(row); i += 4 {
				row[i] = 255
			}
		}
	}
	return dst
}

// scanComponent returns the frame component that a scan header's i-th
// entry names by id cs, refusing an id the frame does not have and a
// component the scan's entries before it (order[:i]) already named.
func (d *fastJPEG) scanComponent(cs byte, order *[4]int, i int) (int, error) {
	k := -1
	for j := range d.ncomp {
		if d.comp[j].id == cs {
			k = j
		}
	}
	if k < 0 {
		return 0, jpegFallback("unknown scan component")
	}
	for j := range i {
		if order[j] == k {
			return 0, jpegFallback("repeated scan component")
		}
	}
	return k, nil
}

// place sets where each component's samples go: B, G, R, A from planes
// 0-3.
func (d *fastJPEG) place() {
	for k := range d.ncomp {
		c := &d.comp[k]
		c.ch, c.gray = [4]int{2, 1, 0, 3}[k], d.ncomp == 1
		if k == 3 && !d.hasAlpha {
			c.ch = -1
		}
		if c.gray {
			c.ch = 0
		}
	}
}

// scan decodes the one scan whose header is seg and whose entropy-coded
// data starts at pos, into dst; it returns where the marker after the
// data starts.
func (d *fastJPEG) scan(seg []byte, pos int, dst *image.NRGBA) (int, error) {
	if len(seg) < 1 {
		return 0, jpegFallback("short SOS")
	}
	ns := int(seg[0])
	if ns != d.ncomp || len(seg) != 4+2*ns {
		return 0, jpegFallback("scan does not hold every component")
	}
	// order[i] is the frame component of the scan's i-th.
	var order [4]int
	var dcT, acT [4]*huffTable
	maxT := byte(3)
	if d.baseline {
		maxT = 1
	}
	for i := range ns {
		t := seg[2+2*i]
		k, err := d.scanComponent(seg[1+2*i], &order, i)
		if err != nil {
			return 0, err
		}
		td, ta := t>>4, t&15
		if td > maxT || ta > maxT || d.dcT[td] == nil || d.acT[ta] == nil {
			return 0, jpegFallback("bad or missing Huffman table")
		}
		if !d.qdef[d.comp[k].tq] {
			return 0, jpegFallback("missing quantisation table")
		}
		order[i], dcT[i], acT[i] = k, d.dcT[td], d.acT[ta]
	}
	bw, bh := (d.width+7)/8, (d.height+7)/8
	cw, ch := min(dst.Rect.Dx(), d.width), min(dst.Rect.Dy(), d.height)
	d.br.reset(d.data, pos)
	mcu, rst := 0, 0
	for by := range bh {
		for bx := range bw {
			for i := range ns {
				c := &d.comp[order[i]]
				rows, ok := d.block(dcT[i], acT[i], &d.quant[c.tq], &c.pred)
				if !ok {
					return 0, jpegFallback("bad entropy-coded data")
				}
				if c.ch >= 0 && 8*bx < cw && 8*by < ch {
					d.store(dst, c, rows, bx, by, cw, ch)
				}
				d.clearBlock(rows)
			}
			mcu++
			if d.ri > 0 && mcu%d.ri == 0 && mcu < bw*bh {
				next, ok := d.restart(rst)
				if !ok {
					return 0, jpegFallback("bad restart marker")
				}
				rst = (rst + 1) & 7
				for k := range d.ncomp {
					d.comp[k].pred = 0
				}
				d.br.reset(d.data, next)
			}
		}
	}
	end := d.dataEnd()
	if end+1 >= len(d.data) || d.data[end+1] >= jpegRST0 && d.data[end+1] <= jpegRST0+7 || d.data[end+1] == 0xff {
		return 0, jpegFallback("no marker after the scan")
	}
	return end, nil
}

// dataEnd returns the offset of the marker that ends the current
// entropy-coded segment (or the end of the data).
func (d *fastJPEG) dataEnd() int {
	b := d.data
	i := d.br.pos
	for i < len(b) {
		if b[i] == 0xff {
			if i+1 < len(b) && b[i+1] == 0 {
				i += 2
				continue
			}
			return i
		}
		i++
	}
	return i
}

// restart checks that the interval just decoded is followed by the
// restart marker RSTn, n = rst, and returns where the next interval's
// data starts.
func (d *fastJPEG) restart(rst int) (int, bool) {
	end := d.dataEnd()
	if end+1 >= len(d.data) || d.data[end+1] != byte(jpegRST0+rst) {
		return 0, false
	}
	return end + 2, true
}

// block decodes one block into d.blk, dequantised, in natural order, and
// returns false where image/jpeg would fail (or where it would act on
// symbols a baseline stream cannot hold). rows is the mask idctRows
// wants. The bit reader's state lives in locals here: this loop is most
// of the decode.
func (d *fastJPEG) block(dcT, acT *huffTable, q *[64]int32, pred *int32) (rows uint32, ok bool) {
	br := &d.br
	acc, n := br.acc, br.n
	if n < 32 {
		acc, n = br.fill(acc, n)
	}
	// DC: a category (0-16) and that many bits of difference.
	var s int32
	if e := dcT.look[acc>>(64-huffLookBits)]; e != 0 {
		l := e & 15
		acc <<= uint(l)
		n -= int(l)
		s = (e >> 8) & 0xff
	} else {
		s, acc, n = dcT.decodeSlow(acc, n)
	}
	if s < 0 || s > 16 {
		return 0, false
	}
	if s > 0 {
		v := int32(acc >> (64 - s))
		acc <<= uint(s)
		n -= int(s)
		*pred += extend(v, s)
	}
	blk := &d.blk
	blk[0] = *pred * q[0]
	look := &acT.look
	data := br.data
	for k := 1; k < 64; {
		if n < 32 {
			// fill's common case, written out: the call costs more
			// than the work.
			p := br.pos
			if p+8 <= len(data) && !br.end {
				w := binary.BigEndian.Uint64(data[p:])
				if x := ^w; (x-lowBits)&^x&highBits == 0 {
					m := (64 - n) >> 3
					br.pos = p + m
					acc |= w >> n
					n += m << 3
					acc &^= ^uint64(0) >> n
				} else {
					acc, n = br.fill(acc, n)
				}
			} else {
				acc, n = br.fill(acc, n)
			}
		}
		e := look[acc>>(64-huffLookBits)]
		if e&huffWhole != 0 {
			k += int(e>>12) & 15
			if k > 63 {
				// A run past the block's end ends it; the value's
				// bits are not read.
				l := (e >> 4) & 15
				acc <<= uint(l)
				n -= int(l)
				break
			}
			l := e & 15
			acc <<= uint(l)
			n -= int(l)
			blk[zigzag[k&63]&63] = (e >> huffValShift) * q[k&63]
			rows |= rowBits[k&63]
			k++
			continue
		}
		var sym int32
		if e != 0 {
			l := e & 15
			acc <<= uint(l)
			n -= int(l)
			sym = (e >> 8) & 0xff
		} else {
			sym, acc, n = acT.decodeSlow(acc, n)
			if sym < 0 {
				return 0, false
			}
		}
		run, size := int(sym>>4), sym&15
		if size == 0 {
			if run == 15 {
				k += 16
				continue
			}
			if run == 0 {
				break
			}
			return 0, false // an end-of-band run: progressive only
		}
		k += run
		if k > 63 {
			break
		}
		v := int32(acc >> (64 - size))
		acc <<= uint(size)
		n -= int(size)
		blk[zigzag[k&63]&63] = extend(v, size) * q[k&63]
		rows |= rowBits[k&63]
		k++
	}
	br.acc, br.n = acc, n
	return rows, !br.overrun()
}

// clearBlock zeroes d.blk for the next block: the rows that rows (the
// block's rowBits mask) says hold a coefficient, and the DC.
func (d *fastJPEG) clearBlock(rows uint32) {
	b := &d.blk
	b[0] = 0
	for r := rows >> 8 & 0xff; r != 0; r &= r - 1 {
		i := 8 * (bits.TrailingZeros32(r) & 7)
		clear(b[i : i+8])
	}
}

// store transforms d.blk and writes it at block (bx, by) of component c,
// clipped to the cw×ch corner of dst that the frame covers. rows is the
// block's row mask (rowBits).
func (d *fastJPEG) store(dst *image.NRGBA, c *jpegComp, rows uint32, bx, by, cw, ch int) {
	x0, y0 := 8*bx, 8*by
	nx, ny := min(8, cw-x0), min(8, ch-y0)
	stride := dst.Stride
	o := y0*stride + 4*x0
	if rows&0xfe00 == 0 && rows&1 == 0 && !c.gray {
		// Only the DC term (rows covers the first row's others; the
		// first column below it has no bit of its own yet).
		if d.onlyDC() {
			v := clampSample(flatSample(d.blk[0]))
			o += c.ch
			for y := range ny {
				if nx == 8 {
					r := dst.Pix[o+y*stride : o+y*stride+29 : o+y*stride+29]
					r[0], r[4], r[8], r[12], r[16], r[20], r[24], r[28] = v, v, v, v, v, v, v, v
					continue
				}
				row := dst.Pix[o+y*stride : o+y*stride+4*nx-3]
				for x := 0; x < len(row); x += 4 {
					row[x] = v
				}
			}
			return
		}
	}
	tmp := &d.tmp
	idctRows(&d.blk, tmp, rows)
	switch {
	case rows&0xfe00 == 0:
		idctColsFlat(tmp)
	case rows&0xf000 == 0:
		idctColsTop(tmp)
	default:
		idctCols(tmp)
	}
	switch {
	case c.gray:
		for y := range ny {
			row := dst.Pix[o+y*stride : o+y*stride+4*nx]
			for x := range nx {
				v := clampSample(tmp[8*y+x])
				row[4*x], row[4*x+1], row[4*x+2] = v, v, v
			}
		}
	case nx == 8:
		o += c.ch
		for y := range ny {
			r := dst.Pix[o+y*stride : o+y*stride+29 : o+y*stride+29]
			t := tmp[8*y : 8*y+8 : 8*y+8]
			r[0], r[4], r[8], r[12] = clampSample(t[0]), clampSample(t[1]), clampSample(t[2]), clampSample(t[3])
			r[16], r[20], r[24], r[28] = clampSample(t[4]), clampSample(t[5]), clampSample(t[6]), clampSample(t[7])
		}
	default:
		o += c.ch
		for y := range ny {
			row := dst.Pix[o+y*stride : o+y*stride+4*nx-3]
			for x := range nx {
				row[4*x] = clampSample(tmp[8*y+x])
			}
		}
	}
}

// onlyDC reports whether every coefficient but the first is zero (the row
// mask cannot say so for the first column).
func (d *fastJPEG) onlyDC() bool {
	b := &d.blk
	return b[8]|b[16]|b[24]|b[32]|b[40]|b[48]|b[56] == 0
}
