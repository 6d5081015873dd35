// Package extsort sorts more records than a program wants to hold in
// memory. Records are gathered up to a fixed number of bytes, sorted and
// written as a run to a temporary file; reading them back merges the
// runs. Fewer records than that never touch the disk.
//
// A batch plans its inputs with it, so that planning a million models
// takes the memory of planning a few thousand.
package extsort

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/mdxrender/mdxrender/internal/scratch"
)

// DefaultMemory is the bytes a Sorter holds (its records and their
// places) before it writes a run: enough that a few thousand inputs sort
// in memory, small next to what rendering one model takes.
const DefaultMemory = 512 << 10

// A Sorter orders byte records by a comparison function. Records that
// compare equal come back in the order they were added.
type Sorter struct {
	cmp   func(a, b []byte) int
	mem   int
	arena []byte
	recs  []span // the records held, as spans of arena
	f     *os.File
	bw    *bufio.Writer
	end   int64
	runs  []run
	err   error
}

// span is a record's place in the arena; spanSize is what each costs
// besides its bytes.
type span struct{ start, end int32 }

const spanSize = 8

// run is a sorted run in the temporary file.
type run struct{ off, size int64 }

// New returns a Sorter that holds at most about mem bytes (DefaultMemory
// when mem ≤ 0) before writing a run.
func New(cmp func(a, b []byte) int, mem int) *Sorter {
	if mem <= 0 {
		mem = DefaultMemory
	}
	return &Sorter{cmp: cmp, mem: mem}
}

// Add adds a copy of rec.
func (s *Sorter) Add(rec []byte) error {
	if s.err != nil {
		return s.err
	}
	if len(rec) > math.MaxInt32/2 {
		return fmt.Errorf("sorting: a record of %d bytes", len(rec))
	}
	if len(s.recs) > 0 && len(s.arena)+len(rec)+spanSize*(len(s.recs)+1) > s.mem {
		if err := s.spill(); err != nil {
			return err
		}
	}
	start := len(s.arena)
	s.arena = append(s.arena, rec...)
	s.recs = append(s.recs, span{int32(start), int32(len(s.arena))})
	return nil
}

// sortHeld orders the records held in memory, stably.
func (s *Sorter) sortHeld() {
	slices.SortStableFunc(s.recs, func(a, b span) int {
		return s.cmp(s.arena[a.start:a.end], s.arena[b.start:b.end])
	})
}

// spill writes the records held as a sorted run.
func (s *Sorter) spill() error {
	if s.f == nil {
		f, err := scratch.Create("mdxrender-sort-*")
		if err != nil {
			s.err = fmt.Errorf("sorting: a temporary file: %w", err)
			return s.err
		}
		s.f = f
		s.bw = bufio.NewWriterSize(f, 64<<10)
	}
	s.sortHeld()
	r := run{off: s.end}
	var hdr [binary.MaxVarintLen64]byte
	for _, sp := range s.recs {
		n := binary.PutUvarint(hdr[:], uint64(sp.end-sp.start))
		if _, err := s.bw.Write(hdr[:n]); err != nil {
			s.err = fmt.Errorf("sorting: %w", err)
			return s.err
		}
		if _, err := s.bw.Write(s.arena[sp.start:sp.end]); err != nil {
			s.err = fmt.Errorf("sorting: %w", err)
			return s.err
		}
		s.end += int64(n) + int64(sp.end-sp.start)
	}
	r.size = s.end - r.off
	s.runs = append(s.runs, r)
	s.arena = s.arena[:0]
	s.recs = s.recs[:0]
	return nil
}

// Each calls fn with every record in order; fn must not keep rec, which
// the next call reuses. An error from fn stops Each and is returned. Each
// may be called again; Add may not be called after it.
func (s *Sorter) Each(fn func(rec []byte) error) error {
	if s.err != nil {
		return s.err
	}
	if len(s.runs) == 0 {
		s.sortHeld()
		for _, sp := range s.recs {
			if err := fn(s.arena[sp.start:sp.end]); err != nil {
				return err
			}
		}
		return nil
	}
	if len(s.recs) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
		// The memory held goes: the runs have every record now.
		s.arena, s.recs = nil, nil
	}
	if err := s.bw.Flush(); err != nil {
		s.err = fmt.Errorf("sorting: %w", err)
		return s.err
	}
	m := &merge{cmp: s.cmp}
	for i, r := range s.runs {
		c := &cursor{run: i, r: bufio.NewReaderSize(io.NewSectionReader(s.f, r.off, r.size), 16<<10)}
		ok, err := c.next()
		if err != nil {
			return err
		}
		if ok {
			m.cs = append(m.cs, c)
		}
	}
	heap.Init(m)
	for m.Len() > 0 {
		c := m.cs[0]
		if err := fn(c.rec); err != nil {
			return err
		}
		ok, err := c.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(m, 0)
		} else {
			heap.Pop(m)
		}
	}
	return nil
}

// Close removes the temporary file.
func (s *Sorter) Close() error {
	s.arena, s.recs = nil, nil
	if s.err == nil {
		s.err = errors.New("sorting: closed")
	}
	if s.f == nil {
		return nil
	}
	err := scratch.Close(s.f)
	s.f = nil
	return err
}

// cursor reads one run.
type cursor struct {
	run int
	r   *bufio.Reader
	rec []byte
}

// next reads the run's next record; false at its end.
func (c *cursor) next() (bool, error) {
	n, err := binary.ReadUvarint(c.r)
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("sorting: reading a run: %w", err)
	}
	c.rec = slices.Grow(c.rec[:0], int(n))[:n]
	if _, err := io.ReadFull(c.r, c.rec); err != nil {
		return false, fmt.Errorf("sorting: reading a run: %w", err)
	}
	return true, nil
}

// merge is a heap of the runs' cursors by their current record; of
// equal records the earlier run's comes first, which keeps the sort
// stable.
type merge struct {
	cmp func(a, b []byte) int
	cs  []*cursor
}

func (m *merge) Len() int { return len(m.cs) }
func (m *merge) Less(i, j int) bool {
	if c := m.cmp(m.cs[i].rec, m.cs[j].rec); c != 0 {
		return c < 0
	}
	return m.cs[i].run < m.cs[j].run
}
func (m *merge) Swap(i, j int) { m.cs[i], m.cs[j] = m.cs[j], m.cs[i] }
func (m *merge) Push(x any)    { m.cs = append(m.cs, x.(*cursor)) }
func (m *merge) Pop() any {
	c := m.cs[len(m.cs)-1]
	m.cs = m.cs[:len(m.cs)-1]
	return c
}
