package batch

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path"
	"slices"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// A run keeps the inputs it renders on disk, not in memory: a hundred
// thousand inputs take some 20 MB as Go values, a third of what a batch
// needs to render, and a run reads them once, in order. The plan file
// is CacheDir/plan (plan-I-of-N for a shard), written after planning (the
// inputs of the run's shard that no override skips, in order) and
// removed when the run ends.

// planFile is a run's plan on disk.
type planFile struct {
	dir  *atomicfile.Dir
	name string
	f    *os.File
	set  *inputSet // decodes the records (the file systems they name)
	n    int       // inputs
}

func planName(sh Shard) string {
	m := &Manifest{}
	if sh.Count > 1 {
		m.Shards = []string{sh.String()}
	}
	return path.Join(CacheDir, ReportName("plan", m))
}

// writePlan writes the inputs of set that keep accepts to the run's plan
// file, in order.
func writePlan(out *atomicfile.Dir, sh Shard, set *inputSet, keep func(in Input) bool) (*planFile, error) {
	p := &planFile{dir: out, name: planName(sh), set: set}
	if err := out.MkdirAll(CacheDir); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	f, err := out.OpenFile(p.name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	p.f = f
	bw := bufio.NewWriterSize(f, 1<<16)
	var buf []byte
	var werr error
	err = set.each(func(i int, in Input) bool {
		if !keep(in) {
			return true
		}
		// The record as the set holds it, with the relative path it
		// reads back with.
		r := set.refs[i]
		buf = slices.Grow(buf[:0], int(r.n))[:r.n]
		if _, werr = set.f.ReadAt(buf, r.off); werr != nil {
			return false
		}
		if r.prefix {
			if buf, werr = setRel(buf, in.Rel); werr != nil {
				return false
			}
		}
		if _, werr = bw.Write(buf); werr != nil {
			return false
		}
		p.n++
		return true
	})
	if err == nil {
		err = werr
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		p.close()
		return nil, fmt.Errorf("plan: %w", err)
	}
	return p, nil
}

// each calls fn with every input, in order.
func (p *planFile) each(fn func(i int, in Input) bool) error {
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	br := bufio.NewReaderSize(p.f, 1<<16)
	for i := 0; i < p.n; i++ {
		line, err := readLine(br)
		if err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		in, err := p.set.decode(line)
		if err != nil {
			return err
		}
		if !fn(i, in) {
			return nil
		}
	}
	return nil
}

func (p *planFile) close() {
	if p.f != nil {
		p.f.Close()
		p.f = nil
		p.dir.Remove(p.name)
	}
}
