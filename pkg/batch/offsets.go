package batch

import (
	"encoding/binary"
	"fmt"
	"os"
	"slices"

	"github.com/mdxrender/mdxrender/internal/scratch"
)

// offsetTable is where each model's journal line is, by model number. A
// run places its models nearly in order, so the table keeps them in
// pages of offsetPage and writes a page to a temporary file once every
// model of it is placed: a run holds the few pages its workers are in,
// not eight bytes a model.
type offsetTable struct {
	n      int
	pages  map[int]*offsetsPage // the pages not written yet
	f      *os.File             // the pages written, page p at p·offsetPage·8
	onDisk []bool               // by page
	buf    []byte
}

const offsetPage = 4096

type offsetsPage struct {
	offs [offsetPage]int64
	set  int // how many of its models are placed
}

func newOffsetTable(n int) *offsetTable {
	return &offsetTable{n: n, pages: map[int]*offsetsPage{}, onDisk: make([]bool, (n+offsetPage-1)/offsetPage)}
}

// pageLen is the number of models of page p.
func (t *offsetTable) pageLen(p int) int { return min(offsetPage, t.n-p*offsetPage) }

// set places model i's line at off; each model is placed once.
func (t *offsetTable) set(i int, off int64) {
	if i < 0 || i >= t.n {
		return
	}
	p := i / offsetPage
	pg := t.pages[p]
	if pg == nil {
		pg = &offsetsPage{}
		t.pages[p] = pg
	}
	pg.offs[i%offsetPage] = off
	pg.set++
	if pg.set == t.pageLen(p) {
		t.write(p, pg)
	}
}

// write writes page p to the file and lets it go (it stays, to be read
// from memory, if it cannot be written).
func (t *offsetTable) write(p int, pg *offsetsPage) {
	if t.f == nil {
		f, err := scratch.Create("mdxrender-offsets-*")
		if err != nil {
			return
		}
		t.f = f
	}
	b := t.buf[:0]
	for _, o := range pg.offs[:t.pageLen(p)] {
		b = binary.LittleEndian.AppendUint64(b, uint64(o))
	}
	t.buf = b
	if _, err := t.f.WriteAt(b, int64(p)*offsetPage*8); err != nil {
		return
	}
	delete(t.pages, p)
	t.onDisk[p] = true
}

// each calls fn with every model's offset, in order; a model not placed
// has offset 0.
func (t *offsetTable) each(fn func(i int, off int64) error) error {
	read := new(offsetsPage) // a page read back from the file
	none := new(offsetsPage) // a page no model of which was placed
	for p := 0; p*offsetPage < t.n; p++ {
		k := t.pageLen(p)
		pg := t.pages[p]
		switch {
		case pg != nil:
		case t.onDisk[p]:
			t.buf = slices.Grow(t.buf[:0], k*8)[:k*8]
			if _, err := t.f.ReadAt(t.buf, int64(p)*offsetPage*8); err != nil {
				return fmt.Errorf("journal offsets: %w", err)
			}
			for j := range k {
				read.offs[j] = int64(binary.LittleEndian.Uint64(t.buf[j*8:]))
			}
			pg = read
		default:
			pg = none
		}
		for j, off := range pg.offs[:k] {
			if err := fn(p*offsetPage+j, off); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *offsetTable) close() {
	if t.f != nil {
		scratch.Close(t.f)
		t.f = nil
	}
}
