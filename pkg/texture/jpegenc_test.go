package texture

import (
	"bytes"
	"math"
	"slices"
	"sort"
)

// testJPEG describes a baseline JPEG for testJPEG.encode: a small,
// deliberately plain encoder (float DCT, optimised Huffman tables) that
// can write what image/jpeg's encoder cannot: 3 and 4 unsubsampled
// components, restart intervals, 16-bit quantisation tables, scans in a
// different component order, JFIF and Adobe markers.
type testJPEG struct {
	w, h, comps int
	quality     int    // 1-100, scales the quantisation table
	ri          int    // restart interval in MCUs, 0 for none
	q16         bool   // 16-bit quantisation tables
	order       []int  // scan order of the components (nil: frame order)
	ids         []byte // component ids (nil: 1, 2, ...)
	jfif        bool   // write a JFIF APP0
	transform   int    // write an Adobe APP14 with this transform; -1 none
	extended    bool   // SOF1 instead of SOF0
	seed        uint32
}

// pixels returns the planes: smooth gradients, waves, hard edges and
// patches at 0 and 255 (so that the IDCT overshoots and clamps), plus
// noise.
func (e *testJPEG) pixels() [][]uint8 {
	planes := make([][]uint8, e.comps)
	x := e.seed*2654435761 + 1
	for c := range planes {
		p := make([]uint8, e.w*e.h)
		for py := range e.h {
			for px := range e.w {
				x = x*1664525 + 1013904223
				v := 128 + 70*math.Sin(float64(px)*0.21+float64(c))*math.Cos(float64(py)*0.13-float64(c))
				v += float64(int(x>>24)%41 - 20)
				if (px/11+py/7+c)%5 == 0 {
					v = 255
				}
				if (px/13+py/9+c)%7 == 0 {
					v = 0
				}
				p[py*e.w+px] = uint8(max(0, min(255, v)))
			}
		}
		planes[c] = p
	}
	return planes
}

// baseQuant is a luminance-like table (in natural order) that quality
// scales.
func (e *testJPEG) quant() [64]int {
	var q [64]int
	s := 5000 / max(e.quality, 1)
	if e.quality >= 50 {
		s = 200 - 2*e.quality
	}
	for i := range q {
		u, v := i%8, i/8
		base := 10 + 6*(u+v) + 2*u*v
		q[i] = max(1, min(255, (base*s+50)/100))
	}
	if e.q16 {
		q[0] = 300 // needs the 16-bit form
	}
	return q
}

type jpegSym struct {
	sym   uint8
	extra uint32 // the extra bits
	size  int
}

// encode returns the whole stream, SOI to EOI.
func (e *testJPEG) encode() []byte {
	planes := e.pixels()
	q := e.quant()
	bw, bh := (e.w+7)/8, (e.h+7)/8
	order := e.order
	if order == nil {
		for c := range e.comps {
			order = append(order, c)
		}
	}
	table := func(c int) int { return min(c, 1) } // luma-like, chroma-like
	// Symbols per MCU (and per restart interval), then tables, then bits.
	type blockSyms struct {
		dc jpegSym
		ac []jpegSym
	}
	var mcus [][]blockSyms
	var dcFreq, acFreq [2][257]int
	var pred [4]int
	for by := range bh {
		for bx := range bw {
			if e.ri > 0 && len(mcus)%e.ri == 0 {
				pred = [4]int{}
			}
			var mcu []blockSyms
			for _, c := range order {
				coef := fdctBlock(planes[c], e.w, e.h, bx, by, &q)
				var bs blockSyms
				diff := coef[0] - pred[c]
				pred[c] = coef[0]
				bs.dc = magnitude(0, diff)
				dcFreq[table(c)][bs.dc.sym]++
				run := 0
				for k := 1; k < 64; k++ {
					v := coef[zigzag[k]]
					if v == 0 {
						run++
						continue
					}
					for run > 15 {
						bs.ac = append(bs.ac, jpegSym{sym: 0xf0})
						run -= 16
					}
					bs.ac = append(bs.ac, magnitude(run, v))
					run = 0
				}
				if run > 0 {
					bs.ac = append(bs.ac, jpegSym{sym: 0x00})
				}
				for _, s := range bs.ac {
					acFreq[table(c)][s.sym]++
				}
				mcu = append(mcu, bs)
			}
			mcus = append(mcus, mcu)
		}
	}
	var dcCode, acCode [2]huffCode
	var out bytes.Buffer
	seg := func(m byte, body []byte) {
		out.Write([]byte{0xff, m, byte((len(body) + 2) >> 8), byte(len(body) + 2)})
		out.Write(body)
	}
	out.Write([]byte{0xff, 0xd8})
	if e.jfif {
		seg(0xe0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"))
	}
	if e.transform >= 0 {
		seg(0xee, []byte{'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, byte(e.transform)})
	}
	dqt := []byte{0}
	if e.q16 {
		dqt[0] = 0x10
	}
	for k := range 64 {
		v := q[zigzag[k]]
		if e.q16 {
			dqt = append(dqt, byte(v>>8))
		}
		dqt = append(dqt, byte(v))
	}
	seg(0xdb, dqt)
	sof := []byte{8, byte(e.h >> 8), byte(e.h), byte(e.w >> 8), byte(e.w), byte(e.comps)}
	for c := range e.comps {
		id := byte(c + 1)
		if e.ids != nil {
			id = e.ids[c]
		}
		sof = append(sof, id, 0x11, 0)
	}
	sofM := byte(0xc0)
	if e.extended {
		sofM = 0xc1
	}
	seg(sofM, sof)
	var dht []byte
	for t := range 2 {
		if slices.Max(dcFreq[t][:]) == 0 {
			continue
		}
		dcCode[t] = buildHuffCode(dcFreq[t][:256])
		acCode[t] = buildHuffCode(acFreq[t][:256])
		dht = append(dht, byte(t))
		dht = append(dht, dcCode[t].spec()...)
		dht = append(dht, 0x10|byte(t))
		dht = append(dht, acCode[t].spec()...)
	}
	seg(0xc4, dht)
	if e.ri > 0 {
		seg(0xdd, []byte{byte(e.ri >> 8), byte(e.ri)})
	}
	sos := []byte{byte(e.comps)}
	for _, c := range order {
		id := byte(c + 1)
		if e.ids != nil {
			id = e.ids[c]
		}
		sos = append(sos, id, byte(table(c)*0x11))
	}
	sos = append(sos, 0, 63, 0)
	seg(0xda, sos)
	var bits bitWriter
	for m, mcu := range mcus {
		if e.ri > 0 && m > 0 && m%e.ri == 0 {
			bits.pad()
			bits.buf = append(bits.buf, 0xff, byte(0xd0+(m/e.ri-1)%8))
		}
		for i, bs := range mcu {
			t := table(order[i])
			dcCode[t].put(&bits, bs.dc)
			for _, s := range bs.ac {
				acCode[t].put(&bits, s)
			}
		}
	}
	bits.pad()
	out.Write(bits.buf)
	out.Write([]byte{0xff, 0xd9})
	return out.Bytes()
}

// pad fills the last byte with one bits, as T.81 F.1.2.3 asks.
func (b *bitWriter) pad() {
	for b.nacc != 0 {
		b.put(1, 1)
	}
}

// fdctBlock returns the quantised coefficients (natural order) of block
// (bx, by) of a w×h plane, repeating the edge samples past its end.
func fdctBlock(p []uint8, w, h, bx, by int, q *[64]int) [64]int {
	var s [8][8]float64
	for y := range 8 {
		for x := range 8 {
			px, py := min(8*bx+x, w-1), min(8*by+y, h-1)
			s[y][x] = float64(p[py*w+px]) - 128
		}
	}
	var out [64]int
	for v := range 8 {
		for u := range 8 {
			sum := 0.0
			for y := range 8 {
				for x := range 8 {
					sum += s[y][x] * math.Cos(float64(2*x+1)*float64(u)*math.Pi/16) * math.Cos(float64(2*y+1)*float64(v)*math.Pi/16)
				}
			}
			cu, cv := 1.0, 1.0
			if u == 0 {
				cu = 1 / math.Sqrt2
			}
			if v == 0 {
				cv = 1 / math.Sqrt2
			}
			f := sum * cu * cv / 4
			out[8*v+u] = int(math.Round(f / float64(q[8*v+u])))
		}
	}
	return out
}

// magnitude codes value v after run zeros: the symbol (run, size) and the
// size extra bits (T.81 F.1.2.1).
func magnitude(run, v int) jpegSym {
	size, a := 0, max(v, -v)
	for ; a > 0; a >>= 1 {
		size++
	}
	extra := v
	if v < 0 {
		extra = v + (1 << size) - 1
	}
	return jpegSym{sym: uint8(run<<4 | size), extra: uint32(extra), size: size}
}

// huffCode is a canonical Huffman code: lengths per symbol, and the DHT
// form (counts per length, symbols by length).
type huffCode struct {
	counts [16]byte
	syms   []byte
	code   [256]uint32
	length [256]int
}

func (h *huffCode) spec() []byte { return append(h.counts[:], h.syms...) }

func (h *huffCode) put(b *bitWriter, s jpegSym) {
	b.put(h.code[s.sym], h.length[s.sym])
	b.put(s.extra, s.size)
}

// buildHuffCode makes a length-limited (16 bits) Huffman code for the
// symbols with non-zero frequency, one code point kept back so that no
// code is all ones (T.81 K.2).
func buildHuffCode(freq []int) huffCode {
	type node struct {
		f    int
		syms []int
	}
	var nodes []node
	for s, f := range freq {
		if f > 0 {
			nodes = append(nodes, node{f, []int{s}})
		}
	}
	nodes = append(nodes, node{1, []int{256}}) // the reserved code point
	depth := make([]int, 257)
	for len(nodes) > 1 {
		sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].f < nodes[j].f })
		a, b := nodes[0], nodes[1]
		for _, s := range a.syms {
			depth[s]++
		}
		for _, s := range b.syms {
			depth[s]++
		}
		nodes = append([]node{{a.f + b.f, append(append([]int(nil), a.syms...), b.syms...)}}, nodes[2:]...)
	}
	var bits [300]int
	for s, d := range depth {
		if d > 0 || (s < 256 && freq[s] > 0) {
			bits[max(d, 1)]++
		}
	}
	// Limit lengths to 16 (T.81 figure K.3).
	for i := len(bits) - 1; i > 16; i-- {
		for bits[i] > 0 {
			j := i - 2
			for bits[j] == 0 {
				j--
			}
			bits[i] -= 2
			bits[i-1]++
			bits[j+1] += 2
			bits[j]--
		}
	}
	i := 16
	for bits[i] == 0 {
		i--
	}
	bits[i]-- // drop the reserved code point
	// Assign lengths to symbols by frequency, most frequent shortest.
	var syms []int
	for s, f := range freq {
		if f > 0 {
			syms = append(syms, s)
		}
	}
	sort.SliceStable(syms, func(a, b int) bool { return freq[syms[a]] > freq[syms[b]] })
	var h huffCode
	k := 0
	code := uint32(0)
	for l := 1; l <= 16; l++ {
		h.counts[l-1] = byte(bits[l])
		for range bits[l] {
			s := syms[k]
			h.syms = append(h.syms, byte(s))
			h.code[s], h.length[s] = code, l
			code++
			k++
		}
		code <<= 1
	}
	return h
}

// blpStream is a whole JPEG stream as jpegLevel hands it to the decoder:
// the Adobe marker after SOI.
func blpStream(jpg []byte) []byte {
	return slices.Concat(jpg[:2], adobeApp14, jpg[2:])
}
