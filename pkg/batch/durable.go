package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// Flushing a batch's outputs to disk one file at a time (an fsync each)
// cost about a tenth of a thumbnail batch's time. The outputs are still
// written whole (a temporary file renamed over the target), but flushed
// together: a model's cache record, whose presence says its outputs are
// complete, is written only after a flush of the file system has made
// those outputs durable. A crash can then lose only records (the models
// are rendered again on the next run), never leave a record that vouches
// for an output the crash truncated.
const (
	// flushRecords and flushInterval bound how much a crash can make a
	// resumed run redo: the records of at most that many models, or of
	// that many seconds of work, wait for a flush.
	flushRecords  = 64
	flushInterval = 2 * time.Second
)

// durable writes a run's outputs and defers their records to the next
// flush. It is safe for concurrent use by the run's workers.
type durable struct {
	dir   *atomicfile.Dir
	files *atomicfile.Group // outputs and records not yet flushed

	mu      sync.Mutex
	pending []record // finished models waiting for their outputs' flush
	last    time.Time
	err     error // the first failure to flush or to write a record

	flushMu sync.Mutex // one flush at a time
}

type record struct {
	name string
	data []byte
}

func newDurable(dir *atomicfile.Dir) *durable {
	return &durable{dir: dir, files: dir.Group(), last: time.Now()}
}

// write writes one output whole, creating its folder, without waiting
// for the disk; name is a slash path below the output folder.
func (d *durable) write(ctx context.Context, name string, data []byte) error {
	return d.files.WriteFile(ctx, name, data)
}

// finished queues the cache record of a model whose outputs are all
// written, as it is now, and flushes when enough records or time have
// gathered.
func (d *durable) finished(r *ModelResult) error {
	b, err := json.Marshal(cacheRecord{Key: r.CacheKey, Result: *r})
	if err != nil {
		return err
	}
	d.mu.Lock()
	d.pending = append(d.pending, record{cacheName(r.Input), b})
	due := len(d.pending) >= flushRecords || time.Since(d.last) >= flushInterval
	d.mu.Unlock()
	if due {
		d.flush()
	}
	return nil
}

// flush makes every output written so far durable, then writes the
// records waiting for them (made durable by the next flush). Records are
// written even once the run is interrupted: their models finished.
func (d *durable) flush() {
	d.flushMu.Lock()
	defer d.flushMu.Unlock()
	d.mu.Lock()
	recs := d.pending
	d.pending = nil
	d.last = time.Now()
	d.mu.Unlock()
	if len(recs) == 0 {
		return
	}
	if err := d.files.Sync(); err != nil {
		d.fail(fmt.Errorf("flushing outputs to disk: %w", err))
		return // without the records: their outputs may not be on disk
	}
	for _, r := range recs {
		if err := d.write(context.Background(), r.name, r.data); err != nil {
			d.fail(fmt.Errorf("cache: %w", err))
		}
	}
}

func (d *durable) fail(err error) {
	d.mu.Lock()
	if d.err == nil {
		d.err = err
	}
	d.mu.Unlock()
}

// close flushes the outputs and records still waiting and returns the
// first failure of the run's flushes.
func (d *durable) close() error {
	d.flush()
	if err := d.files.Sync(); err != nil {
		d.fail(fmt.Errorf("flushing outputs to disk: %w", err))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}
