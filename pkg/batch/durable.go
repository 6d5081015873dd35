package batch

import (
	"context"
	"fmt"
	"time"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// Flushing a batch's outputs to disk one file at a time (an fsync each)
// cost about a tenth of a thumbnail batch's time. The outputs are still
// written whole (a temporary file renamed over the target), but flushed
// together: a model's journal line, which says its outputs are complete,
// is written only after a flush of the file system has made those
// outputs durable. A crash can then lose only lines (the models are
// rendered again on the next run), never leave a line that vouches for
// an output the crash truncated.
const (
	// flushRecords and flushInterval bound how much a crash can make a
	// resumed run redo: the lines of at most that many models, or of
	// that many seconds of work, wait for a flush.
	flushRecords  = 64
	flushInterval = 2 * time.Second
)

// durable writes a run's outputs and defers their journal lines to the
// next flush. write is safe for concurrent use by the run's workers;
// finished, flush and close are called by the one goroutine that
// gathers the results.
type durable struct {
	dir   *atomicfile.Dir
	files *atomicfile.Group // outputs not yet flushed
	j     *journal
	// placed is told where the line of the model numbered i went.
	placed func(i int, off int64)

	pending []pendingLine // finished models waiting for their outputs' flush
	last    time.Time
	err     error // the first failure to flush or to write a line
}

type pendingLine struct {
	i    int
	line []byte
}

func newDurable(dir *atomicfile.Dir) *durable {
	return &durable{dir: dir, files: dir.Group(), last: time.Now()}
}

// write writes one output whole, creating its folder, without waiting
// for the disk; name is a slash path below the output folder.
func (d *durable) write(ctx context.Context, name string, data []byte) error {
	return d.files.WriteFile(ctx, name, data)
}

// finished queues the journal line of model i, whose outputs are all
// written, and flushes when enough lines or time have gathered.
func (d *durable) finished(i int, line []byte) {
	d.pending = append(d.pending, pendingLine{i, line})
	if len(d.pending) >= flushRecords || time.Since(d.last) >= flushInterval {
		d.flush()
	}
}

// flush makes every output written so far durable, then appends the
// lines waiting for them to the journal, and flushes it. Lines are
// written even once the run is interrupted: their models finished.
func (d *durable) flush() {
	recs := d.pending
	d.pending = nil
	d.last = time.Now()
	if len(recs) == 0 {
		return
	}
	if err := d.files.Sync(); err != nil {
		d.fail(fmt.Errorf("flushing outputs to disk: %w", err))
		return // without the lines: their outputs may not be on disk
	}
	lines := make([][]byte, len(recs))
	for k, r := range recs {
		lines[k] = r.line
	}
	offs, err := d.j.append(lines)
	if err != nil {
		d.fail(err)
		return
	}
	for k, r := range recs {
		d.placed(r.i, offs[k])
	}
}

func (d *durable) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// close flushes the outputs and lines still waiting and returns the
// first failure of the run's flushes.
func (d *durable) close() error {
	d.flush()
	if err := d.files.Sync(); err != nil {
		d.fail(fmt.Errorf("flushing outputs to disk: %w", err))
	}
	return d.err
}
