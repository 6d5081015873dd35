package mpq

import "errors"

// Storm's adaptive Huffman coding (method byte 0x01), used in Warcraft III
// only in front of ADPCM for sound. The first byte of a stream selects a
// table of initial byte weights; every decoded byte then gains weight and
// the tree is rebalanced, so the decoder has to repeat the encoder's tree
// operations step for step. Symbol 0x100 ends the stream; 0x101 is followed
// by a byte not yet in the tree, which is added to it.
//
// The tree nodes sit in one list ordered by weight, heaviest first; a
// node's two children are adjacent in it, the lighter one (childLo) second.

// huffWeights holds the initial weights of the tables this package knows,
// as (first index, weights...) runs; all other weights are zero. Table 0
// is the one Storm uses for data, 6-8 the ones its ADPCM sound encoder
// selects. Tables 1-5 are not used by Warcraft III.
var huffWeights = map[byte][][]byte{
	0: {{0x00, 0x0A}, {0xFF, 0x02}},
	6: {
		{0x00, 0xC3, 0xCB, 0xF5, 0x41, 0xFF, 0x7B, 0xF7, 0x21},
		{0x40, 0xBF, 0xCC, 0xF2, 0x40, 0xFD, 0x7C, 0xF7, 0x22},
		{0x80, 0x7A, 0x46},
	},
	7: {
		{0x00, 0xC3, 0xD9, 0xEF, 0x3D, 0xF9, 0x7C, 0xE9, 0x1E, 0xFD, 0xAB, 0xF1, 0x2C, 0xFC, 0x5B, 0xFE, 0x17},
		{0x40, 0xBD, 0xD9, 0xEC, 0x3D, 0xF5, 0x7D, 0xE8, 0x1D, 0xFB, 0xAE, 0xF0, 0x2C, 0xFB, 0x5C, 0xFF, 0x18},
		{0x80, 0x70, 0x6C},
	},
	8: {
		{0x00, 0xBA, 0xC5, 0xDA, 0x33, 0xE3, 0x6D, 0xD8, 0x18, 0xE5, 0x94, 0xDA, 0x23, 0xDF, 0x4A, 0xD1, 0x10,
			0xEE, 0xAF, 0xE4, 0x2C, 0xEA, 0x5A, 0xDE, 0x15, 0xF4, 0x87, 0xE9, 0x21, 0xF6, 0x43, 0xFC, 0x12},
		{0x40, 0xB0, 0xC7, 0xD8, 0x33, 0xE3, 0x6B, 0xD6, 0x18, 0xE7, 0x95, 0xD8, 0x23, 0xDB, 0x49, 0xD0, 0x11,
			0xE9, 0xB2, 0xE2, 0x2B, 0xE8, 0x5C, 0xDD, 0x15, 0xF1, 0x87, 0xE7, 0x20, 0xF7, 0x44, 0xFF, 0x13},
		{0x80, 0x5F, 0x9E},
	},
}

const (
	huffEnd    = 0x100 // end of stream
	huffNewSym = 0x101 // a literal byte follows and joins the tree
	// huffMaxNodes bounds the tree: 258 leaves and 257 inner nodes. A
	// hostile stream that keeps adding bytes already present is refused
	// when it would grow past that.
	huffMaxNodes = 0x203
)

var errHuffUnsupported = errors.New("huffman weight table not implemented")

type huffNode struct {
	prev, next      int32 // list neighbours; 0 is the list head, -1 = not linked
	parent, childLo int32 // -1 = none
	value           uint32
	weight          uint32
}

type huffTree struct {
	n      []huffNode // n[0] is the list head
	byByte [0x102]int32
}

func (t *huffTree) first() int32 { return t.n[0].next }
func (t *huffTree) last() int32  { return t.n[0].prev }

func (t *huffTree) unlink(i int32) {
	if t.n[i].next < 0 {
		return
	}
	p, nx := t.n[i].prev, t.n[i].next
	t.n[p].next = nx
	t.n[nx].prev = p
	t.n[i].next, t.n[i].prev = -1, -1
}

// linkAfter puts b right after a.
func (t *huffTree) linkAfter(a, b int32) {
	nx := t.n[a].next
	t.n[b].next = nx
	t.n[b].prev = a
	t.n[nx].prev = b
	t.n[a].next = b
}

// linkBefore puts b right before a.
func (t *huffTree) linkBefore(a, b int32) {
	p := t.n[a].prev
	t.n[b].next = a
	t.n[b].prev = p
	t.n[p].next = b
	t.n[a].prev = b
}

// higherOrEqual walks back from i to the nearest node at least as heavy as
// w, or the head.
func (t *huffTree) higherOrEqual(i int32, w uint32) int32 {
	for i > 0 {
		if t.n[i].weight >= w {
			return i
		}
		i = t.n[i].prev
	}
	return 0
}

// add creates a node at the front (atFront) or back of the list.
func (t *huffTree) add(value, weight uint32, atFront bool) (int32, error) {
	if len(t.n) > huffMaxNodes {
		return 0, errors.New("huffman tree overflow")
	}
	i := int32(len(t.n))
	t.n = append(t.n, huffNode{prev: -1, next: -1, parent: -1, childLo: -1, value: value, weight: weight})
	if atFront {
		t.linkAfter(0, i)
	} else {
		t.linkBefore(0, i)
	}
	return i, nil
}

// place moves a new node behind the last node at least as heavy, unless it
// is the heaviest so far; it returns the new maximum weight.
func (t *huffTree) place(i int32, maxW uint32) uint32 {
	if t.n[i].weight < maxW {
		h := t.higherOrEqual(t.last(), t.n[i].weight)
		t.unlink(i)
		t.linkAfter(h, i)
		return maxW
	}
	return t.n[i].weight
}

func newHuffTree(kind byte) (*huffTree, error) {
	runs, ok := huffWeights[kind&0x0F]
	if !ok || kind&0x0F > 8 {
		return nil, errHuffUnsupported
	}
	var weights [256]byte
	for _, r := range runs {
		copy(weights[r[0]:], r[1:])
	}
	t := &huffTree{n: make([]huffNode, 1, huffMaxNodes+1)}
	t.n[0] = huffNode{parent: -1, childLo: -1}
	maxW := uint32(0)
	for i := range t.byByte {
		t.byByte[i] = -1
	}
	for b, w := range weights {
		if w == 0 {
			continue
		}
		i, _ := t.add(uint32(b), uint32(w), true)
		t.byByte[b] = i
		maxW = t.place(i, maxW)
	}
	t.byByte[huffEnd], _ = t.add(huffEnd, 1, false)
	t.byByte[huffNewSym], _ = t.add(huffNewSym, 1, false)
	// Pair nodes from the light end of the list upwards.
	lo := t.last()
	for lo > 0 {
		hi := t.n[lo].prev
		if hi <= 0 {
			break
		}
		p, err := t.add(0, t.n[hi].weight+t.n[lo].weight, true)
		if err != nil {
			return nil, err
		}
		t.n[lo].parent, t.n[hi].parent = p, p
		t.n[p].childLo = lo
		maxW = t.place(p, maxW)
		lo = t.n[hi].prev
	}
	return t, nil
}

// bump adds one to the weight of i and of every node above it, swapping a
// node that has become heavier than its predecessors in the list with the
// first of them, children included.
func (t *huffTree) bump(i int32) error {
	for ; i >= 0; i = t.n[i].parent {
		t.n[i].weight++
		h := t.higherOrEqual(t.n[i].prev, t.n[i].weight)
		hi := t.n[h].next
		if hi == i {
			continue
		}
		t.unlink(hi)
		t.linkAfter(i, hi)
		t.unlink(i)
		t.linkAfter(h, i)
		ip, hp := t.n[i].parent, t.n[hi].parent
		if ip < 0 || hp < 0 {
			return errors.New("huffman tree corrupt")
		}
		hiWasLo := t.n[hp].childLo == hi
		if t.n[ip].childLo == i {
			t.n[ip].childLo = hi
		}
		if hiWasLo {
			t.n[hp].childLo = i
		}
		t.n[i].parent, t.n[hi].parent = hp, ip
	}
	return nil
}

// grow splits the lightest leaf into itself and a new leaf for value.
func (t *huffTree) grow(value uint32) error {
	last := t.last()
	hi, err := t.add(t.n[last].value, t.n[last].weight, false)
	if err != nil {
		return err
	}
	t.n[hi].parent = last
	t.byByte[t.n[last].value] = hi
	lo, err := t.add(value, 0, false)
	if err != nil {
		return err
	}
	t.n[lo].parent = last
	t.n[last].childLo = lo
	t.byByte[value] = lo
	return t.bump(lo)
}

// huffBits reads the input least significant bit first.
type huffBits struct {
	in   []byte
	pos  int
	buf  uint32
	nbuf uint
}

func (b *huffBits) bit() (uint32, bool) {
	if b.nbuf == 0 {
		if b.pos >= len(b.in) {
			return 0, false
		}
		b.buf, b.nbuf = uint32(b.in[b.pos]), 8
		b.pos++
	}
	v := b.buf & 1
	b.buf >>= 1
	b.nbuf--
	return v, true
}

func (b *huffBits) byte8() (uint32, bool) {
	if b.nbuf < 8 {
		if b.pos >= len(b.in) {
			return 0, false
		}
		b.buf |= uint32(b.in[b.pos]) << b.nbuf
		b.pos++
		b.nbuf += 8
	}
	v := b.buf & 0xFF
	b.buf >>= 8
	b.nbuf -= 8
	return v, true
}

var errHuffShort = errors.New("huffman: input ends inside the stream")

// unHuffman decodes an adaptive Huffman stream into dst, stopping at the
// end symbol or when dst is full.
func unHuffman(dst, src []byte) (int, error) {
	if len(dst) == 0 || len(src) == 0 {
		return 0, errors.New("huffman: empty")
	}
	br := huffBits{in: src}
	kind, _ := br.byte8()
	t, err := newHuffTree(byte(kind))
	if err != nil {
		return 0, err
	}
	everyByte := kind == 0 // table 0 adapts on every byte, the others on new ones only
	n := 0
	for {
		// Storm gives up when fewer than 7 bits remain before a symbol.
		if br.pos >= len(br.in) && br.nbuf < 7 {
			return 0, errHuffShort
		}
		i := t.first()
		if i <= 0 {
			return 0, errors.New("huffman: empty tree")
		}
		for steps := 0; t.n[i].childLo >= 0; steps++ {
			bit, ok := br.bit()
			if !ok {
				return 0, errHuffShort
			}
			if steps > huffMaxNodes {
				return 0, errors.New("huffman tree corrupt")
			}
			lo := t.n[i].childLo
			if bit != 0 {
				i = t.n[lo].prev
			} else {
				i = lo
			}
		}
		v := t.n[i].value
		if v == huffEnd {
			return n, nil
		}
		if v == huffNewSym {
			b, ok := br.byte8()
			if !ok {
				return 0, errHuffShort
			}
			if err := t.grow(b); err != nil {
				return 0, err
			}
			v = b
			if !everyByte {
				if err := t.bump(t.byByte[v]); err != nil {
					return 0, err
				}
			}
		}
		if v > 0xFF {
			return 0, errors.New("huffman: invalid symbol")
		}
		dst[n] = byte(v)
		n++
		if n >= len(dst) {
			return n, nil
		}
		if everyByte {
			if err := t.bump(t.byByte[v]); err != nil {
				return 0, err
			}
		}
	}
}
