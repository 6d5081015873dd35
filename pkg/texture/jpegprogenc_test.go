package texture

import (
	"bytes"
	"math/bits"
	"slices"
)

// A test-only progressive JPEG encoder (image/jpeg cannot write one). It
// codes the same quantised coefficients as testJPEG.encode, so a complete
// script must decode (by image/jpeg) to exactly the pixels of the
// baseline stream: that holds the encoder to T.81 G.1.2 before its
// streams are used to test the fast decoder.

// progScanSpec is one scan of a progressive script.
type progScanSpec struct {
	comps          []int // frame component indices, in scan order
	ss, se         int   // spectral selection (zig-zag)
	ah, al         int   // successive approximation
	dcSlot, acSlot int   // Huffman table slots
	// inflateRST and inflateEnd lengthen the end-of-band runs a restart
	// marker or the end of the scan cuts short by that many blocks: a
	// decoder resets the run at a restart, but one left at the end of a
	// scan carries over into the next AC scan (and makes it skip
	// blocks), so the first changes nothing and the second the pixels.
	inflateRST, inflateEnd int
	// skip leaves out the first blocks of a first AC scan, for a scan
	// after one whose last run was inflated by as many.
	skip int
}

// progOptions are what encodeProgressive can write beyond testJPEG's
// fields.
type progOptions struct {
	script []progScanSpec
	// sampling is the one component's sampling factors byte (nil: 0x11).
	sampling byte
	// dqtAfter, when set, is a quantisation table (natural order)
	// written as table 0 after scan dqtAt, replacing the one the
	// coefficients were quantised with: image/jpeg dequantises with the
	// tables as they stand at the end.
	dqtAfter *[64]int
	dqtAt    int
	// coef, when set, are the quantised coefficients to code (per
	// component and block, natural order) instead of the picture's.
	coef [][][64]int
}

// libjpegScript is the script libjpeg writes for progressive colour
// images (and the corpus's files use): DC with its last bit held back,
// two AC bands with two bits held back, then the refinements.
func libjpegScript(comps int) []progScanSpec {
	all := make([]int, comps)
	for c := range all {
		all[c] = c
	}
	s := []progScanSpec{{comps: all, ss: 0, se: 0, ah: 0, al: 1}}
	for c := range comps {
		s = append(s, progScanSpec{comps: []int{c}, ss: 1, se: 5, al: 2, acSlot: c % 4})
	}
	for c := range comps {
		s = append(s, progScanSpec{comps: []int{c}, ss: 6, se: 63, al: 2, acSlot: (c + 1) % 4})
	}
	for c := range comps {
		s = append(s, progScanSpec{comps: []int{c}, ss: 1, se: 63, ah: 2, al: 1, acSlot: 1})
	}
	s = append(s, progScanSpec{comps: all, ss: 0, se: 0, ah: 1, al: 0})
	for c := range comps {
		s = append(s, progScanSpec{comps: []int{c}, ss: 1, se: 63, ah: 1, al: 0, acSlot: 2})
	}
	return s
}

// progEvent is one item of a scan's entropy-coded data.
type progEvent struct {
	kind  uint8 // evDC, evAC: a Huffman symbol and its extra bits; evBits; evRST
	sym   uint8
	extra uint32
	size  int
}

const (
	evDC = iota
	evAC
	evBits
	evRST
)

// encodeProgressive returns a whole progressive stream, SOI to EOI.
func (e *testJPEG) encodeProgressive(o progOptions) []byte {
	q := e.quant()
	bw, bh := (e.w+7)/8, (e.h+7)/8
	nb := bw * bh
	coef := o.coef
	if coef == nil {
		planes := e.pixels()
		coef = make([][][64]int, e.comps)
		for c := range coef {
			coef[c] = make([][64]int, nb)
			for b := range nb {
				coef[c][b] = fdctBlock(planes[c], e.w, e.h, b%bw, b/bw, &q)
			}
		}
	}
	var out bytes.Buffer
	seg := func(m byte, body []byte) {
		out.Write([]byte{0xff, m, byte((len(body) + 2) >> 8), byte(len(body) + 2)})
		out.Write(body)
	}
	dqt := func(q *[64]int) []byte {
		b := []byte{0}
		if e.q16 {
			b[0] = 0x10
		}
		for k := range 64 {
			v := q[zigzag[k]]
			if e.q16 {
				b = append(b, byte(v>>8))
			}
			b = append(b, byte(v))
		}
		return b
	}
	id := func(c int) byte {
		if e.ids != nil {
			return e.ids[c]
		}
		return byte(c + 1)
	}
	out.Write([]byte{0xff, 0xd8})
	if e.jfif {
		seg(0xe0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"))
	}
	if e.transform >= 0 {
		seg(0xee, []byte{'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, byte(e.transform)})
	}
	seg(0xdb, dqt(&q))
	sof := []byte{8, byte(e.h >> 8), byte(e.h), byte(e.w >> 8), byte(e.w), byte(e.comps)}
	for c := range e.comps {
		hv := byte(0x11)
		if e.comps == 1 && o.sampling != 0 {
			hv = o.sampling
		}
		sof = append(sof, id(c), hv, 0)
	}
	seg(0xc2, sof)
	if e.ri > 0 {
		seg(0xdd, []byte{byte(e.ri >> 8), byte(e.ri)})
	}
	for si, sc := range o.script {
		ev := progScanEvents(coef, nb, e.ri, sc)
		var dcFreq, acFreq [257]int
		for _, v := range ev {
			switch v.kind {
			case evDC:
				dcFreq[v.sym]++
			case evAC:
				acFreq[v.sym]++
			}
		}
		var dcCode, acCode huffCode
		var dht []byte
		if slices.Max(dcFreq[:]) > 0 {
			dcCode = buildHuffCode(dcFreq[:256])
			dht = append(append(dht, byte(sc.dcSlot)), dcCode.spec()...)
		}
		if slices.Max(acFreq[:]) > 0 {
			acCode = buildHuffCode(acFreq[:256])
			dht = append(append(dht, 0x10|byte(sc.acSlot)), acCode.spec()...)
		}
		if len(dht) > 0 {
			seg(0xc4, dht)
		}
		sos := []byte{byte(len(sc.comps))}
		for _, c := range sc.comps {
			sos = append(sos, id(c), byte(sc.dcSlot<<4|sc.acSlot))
		}
		sos = append(sos, byte(sc.ss), byte(sc.se), byte(sc.ah<<4|sc.al))
		seg(0xda, sos)
		var w bitWriter
		rst := 0
		for _, v := range ev {
			switch v.kind {
			case evDC:
				dcCode.put(&w, jpegSym{sym: v.sym, extra: v.extra, size: v.size})
			case evAC:
				acCode.put(&w, jpegSym{sym: v.sym, extra: v.extra, size: v.size})
			case evBits:
				w.put(v.extra, v.size)
			case evRST:
				w.pad()
				w.buf = append(w.buf, 0xff, byte(0xd0+rst))
				rst = (rst + 1) & 7
			}
		}
		w.pad()
		out.Write(w.buf)
		if o.dqtAfter != nil && si == o.dqtAt {
			seg(0xdb, dqt(o.dqtAfter))
		}
	}
	out.Write([]byte{0xff, 0xd9})
	return out.Bytes()
}

// progScanEvents codes one scan of the coefficients (natural order, per
// component and block) as T.81 G.1.2 has it.
func progScanEvents(coef [][][64]int, nb, ri int, sc progScanSpec) []progEvent {
	var ev []progEvent
	var pred [4]int
	// The end-of-band run and, for refinement scans, the correction bits
	// of its blocks, which follow its code.
	eobRun := 0
	var eobBits []uint8
	inflate := 0
	flushEOB := func() {
		if eobRun > 0 {
			eobRun = min(eobRun+inflate, 0x7fff)
			n := bits.Len(uint(eobRun)) - 1
			ev = append(ev, progEvent{kind: evAC, sym: uint8(n << 4), extra: uint32(eobRun - 1<<n), size: n})
			eobRun = 0
		}
		for _, b := range eobBits {
			ev = append(ev, progEvent{kind: evBits, extra: uint32(b), size: 1})
		}
		eobBits = nil
		inflate = 0
	}
	// pt is the point transform of an AC coefficient: its magnitude's
	// bits al and up, with its sign.
	pt := func(v, al int) int {
		if v < 0 {
			return -(-v >> al)
		}
		return v >> al
	}
	for b := range nb {
		if ri > 0 && b > 0 && b%ri == 0 {
			inflate = sc.inflateRST
			flushEOB()
			ev = append(ev, progEvent{kind: evRST})
			pred = [4]int{}
		}
		for _, c := range sc.comps {
			blk := &coef[c][b]
			switch {
			case sc.ss == 0 && sc.ah == 0:
				v := blk[0] >> sc.al
				m := magnitude(0, v-pred[c])
				pred[c] = v
				ev = append(ev, progEvent{kind: evDC, sym: m.sym, extra: m.extra, size: m.size})
			case sc.ss == 0:
				ev = append(ev, progEvent{kind: evBits, extra: uint32(blk[0]>>sc.al) & 1, size: 1})
			case sc.ah == 0:
				if b < sc.skip {
					continue
				}
				run := 0
				for k := sc.ss; k <= sc.se; k++ {
					v := pt(blk[zigzag[k]], sc.al)
					if v == 0 {
						run++
						continue
					}
					flushEOB()
					for run > 15 {
						ev = append(ev, progEvent{kind: evAC, sym: 0xf0})
						run -= 16
					}
					m := magnitude(run, v)
					ev = append(ev, progEvent{kind: evAC, sym: m.sym, extra: m.extra, size: m.size})
					run = 0
				}
				if run > 0 {
					eobRun++
					if eobRun == 0x7fff {
						flushEOB()
					}
				}
			default:
				// The last coefficient that becomes non-zero in this
				// scan: zero runs past it fold into the end of band.
				last := -1
				for k := sc.ss; k <= sc.se; k++ {
					if a := max(blk[zigzag[k]], -blk[zigzag[k]]) >> sc.al; a == 1 {
						last = k
					}
				}
				run := 0
				var corr []uint8
				for k := sc.ss; k <= sc.se; k++ {
					v := blk[zigzag[k]]
					a := max(v, -v) >> sc.al
					if a == 0 {
						run++
						continue
					}
					for run > 15 && k <= last {
						flushEOB()
						ev = append(ev, progEvent{kind: evAC, sym: 0xf0})
						run -= 16
						for _, b := range corr {
							ev = append(ev, progEvent{kind: evBits, extra: uint32(b), size: 1})
						}
						corr = nil
					}
					if a > 1 {
						corr = append(corr, uint8(a&1))
						continue
					}
					flushEOB()
					sign := uint32(0)
					if v > 0 {
						sign = 1
					}
					ev = append(ev, progEvent{kind: evAC, sym: uint8(run<<4 | 1), extra: sign, size: 1})
					for _, b := range corr {
						ev = append(ev, progEvent{kind: evBits, extra: uint32(b), size: 1})
					}
					corr = nil
					run = 0
				}
				if run > 0 || len(corr) > 0 {
					eobRun++
					eobBits = append(eobBits, corr...)
					if eobRun == 0x7fff {
						flushEOB()
					}
				}
			}
		}
	}
	inflate = sc.inflateEnd
	flushEOB()
	return ev
}
