package batch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// The journal is the batch's record of finished models, kept in the
// output folder with the batch's lock (CacheDir/journal.jsonl;
// journal-I-of-N.jsonl for a shard): one JSON line per model, appended as models finish, after a
// flush has made their outputs durable. It is what the manifest, the
// reports and the next run read, so that
//
//   - after a crash (kill -9, a power cut) the next run knows which models
//     are done, and writes the manifest of the whole batch again;
//   - a run knows which models are done without reading them: each line
//     keeps the hash of the model's options (jobHash) and the size,
//     modification time and inode of every file and folder the result
//     came from (its stamps); a model whose options and stamps are
//     unchanged is cached without being opened or hashed again;
//   - memory stays flat: results are not kept in memory, the manifest and
//     the reports are written by reading the journal through.
//
// Layout: a header line, the base (one line per model, sorted by input
// key, the latest result of each), a marker line, then the lines
// appended since, in the order models finished. A run reads the base
// alongside its inputs, which are in the same order (journalCursor); one
// that finds appended lines (a crash, or an interrupted run) first merges
// them into the base (compact). A run that finishes writes a new journal
// whose base is its own models, in order, and writes the manifest and
// reports from it. The files are replaced whole (atomicfile), so the
// base is never torn; an appended line cut short by a crash is dropped.
const (
	journalHeader = `{"mdxrenderJournal":1}`
	journalMarker = `{"appended":"below"}`
	// journalKeyPrefix starts every model's line: the key comes first, so
	// it is found without decoding the rest.
	journalKeyPrefix = `{"key":`
)

// journalEntry is one model's line.
type journalEntry struct {
	Key string `json:"key"`
	// Job hashes the program version, the job's options and its output
	// names (jobHash); "" for a result that cannot be reused unread.
	Job string `json:"job,omitempty"`
	// Stamps are the size, modification time and inode of the model file
	// and of the files and folders its result came from; empty when one
	// of them is not on disk (stamps).
	Stamps []string        `json:"stamps,omitempty"`
	Result json.RawMessage `json:"result"`
}

// journalName is the journal's name for a run of shard sh.
func journalName(sh Shard) string {
	m := &Manifest{}
	if sh.Count > 1 {
		m.Shards = []string{sh.String()}
	}
	return path.Join(CacheDir, ReportName("journal.jsonl", m))
}

// lineKey returns the input key of a model's line, without decoding the
// rest of it.
func lineKey(line []byte) (string, bool) {
	if !bytes.HasPrefix(line, []byte(journalKeyPrefix)) {
		return "", false
	}
	s := line[len(journalKeyPrefix):]
	if len(s) == 0 || s[0] != '"' {
		return "", false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			var k string
			if json.Unmarshal(s[:i+1], &k) != nil {
				return "", false
			}
			return k, true
		}
	}
	return "", false
}

// journal is a run's open journal.
type journal struct {
	dir  *atomicfile.Dir
	name string
	f    *os.File // the journal, open for reading and appending
	// base is where the base's lines start and end, and how many there
	// are.
	baseStart, baseEnd int64
	baseLines          int
	size               int64 // where the next line goes
}

// openJournal opens the run's journal in out, creating it, and merges
// the lines earlier runs appended into its base (compact), so that the
// run can read the base alongside its inputs. A journal that is not one
// (another program's file, a damaged header) is started anew: the models
// are then read and hashed again, as they were before journals.
func openJournal(ctx context.Context, out *atomicfile.Dir, name string) (*journal, error) {
	j := &journal{dir: out, name: name}
	f, err := out.OpenFile(name, os.O_RDONLY, 0)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return j.start(ctx, nil)
	case err != nil:
		return nil, fmt.Errorf("journal: %w", err)
	}
	base, _, appended, err := scanJournal(f)
	f.Close()
	if err != nil {
		return j.start(ctx, nil) // not a journal of ours: begin again
	}
	if len(appended) > 0 {
		return j.compact(ctx, base, appended)
	}
	return j.reopen()
}

// lineSpan is where one model's line is in a journal file.
type lineSpan struct {
	key      string
	off, end int64 // the line, without its newline
}

// scanJournal reads a journal's layout: the base's extent and number of
// lines, which must be models' lines in key order, and the lines
// appended after it,
// each with its key. A line cut short by a crash, and
// whatever follows it, is left out; an appended line that is not valid
// JSON ends the appended lines too (the file system may have kept the
// length of a write but not its bytes).
func scanJournal(f *os.File) (base lineSpan, baseLines int, appended []lineSpan, err error) {
	br := bufio.NewReaderSize(f, 1<<16)
	var off int64
	line, err := readLine(br)
	if err != nil || string(line) != journalHeader {
		return base, 0, nil, errors.New("no journal header")
	}
	off += int64(len(line)) + 1
	base.off = off
	last := ""
	for n := 0; ; n++ {
		line, err := readLine(br)
		if err != nil {
			return base, 0, nil, errors.New("no end to the journal's base")
		}
		if string(line) == journalMarker {
			base.end = off
			baseLines = n
			off += int64(len(line)) + 1
			break
		}
		// The base is read alongside the inputs: a base out of order
		// (not written by a batch) is no journal of ours.
		k, ok := lineKey(line)
		if !ok || n > 0 && k <= last {
			return base, 0, nil, errors.New("the journal's base is not in order")
		}
		last = k
		off += int64(len(line)) + 1
	}
	for {
		line, err := readLine(br)
		if err != nil {
			return base, baseLines, appended, nil
		}
		k, ok := lineKey(line)
		if !ok || !json.Valid(line) {
			return base, baseLines, appended, nil
		}
		appended = append(appended, lineSpan{k, off, off + int64(len(line))})
		off += int64(len(line)) + 1
	}
}

// readLine returns the next whole line, without its newline; a last
// line with no newline is an error (it was cut short). The slice is
// valid until the next read.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// A long line: gather it.
		buf := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = br.ReadSlice('\n')
			buf = append(buf, line...)
		}
		line = buf
	}
	if err != nil {
		return nil, err
	}
	return line[:len(line)-1], nil
}

// start writes a journal whose base holds the lines write writes (nil:
// none) and opens it.
func (j *journal) start(ctx context.Context, write func(w io.Writer) error) (*journal, error) {
	err := j.dir.Write(context.WithoutCancel(ctx), j.name, func(w io.Writer) error {
		if _, err := io.WriteString(w, journalHeader+"\n"); err != nil {
			return err
		}
		if write != nil {
			if err := write(w); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, journalMarker+"\n")
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return j.reopen()
}

// reopen opens the journal file for reading and appending and finds its
// base.
func (j *journal) reopen() (*journal, error) {
	if j.f != nil {
		j.f.Close()
	}
	f, err := j.dir.OpenFile(j.name, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	base, baseLines, appended, err := scanJournal(f)
	if err != nil || len(appended) > 0 {
		f.Close()
		return nil, fmt.Errorf("journal: %s changed while the batch held its lock", j.dir.Path(j.name))
	}
	j.f, j.baseStart, j.baseEnd, j.baseLines = f, base.off, base.end, baseLines
	j.size = base.end + int64(len(journalMarker)) + 1
	// Drop whatever a crash left past the last whole line, so that the
	// next line starts on a line of its own.
	if err := f.Truncate(j.size); err != nil {
		f.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	return j, nil
}

// compact writes a new journal whose base is the old base merged with
// the appended lines, the latest line of each model winning, in key
// order.
func (j *journal) compact(ctx context.Context, base lineSpan, appended []lineSpan) (*journal, error) {
	f, err := j.dir.OpenFile(j.name, os.O_RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	latest := map[string]lineSpan{}
	for _, l := range appended {
		latest[l.key] = l
	}
	lines := make([]lineSpan, 0, len(latest))
	for _, l := range latest {
		lines = append(lines, l)
	}
	slices.SortFunc(lines, func(a, b lineSpan) int { return strings.Compare(a.key, b.key) })
	return j.start(ctx, func(w io.Writer) error {
		cur := newJournalCursor(f, base.off, base.end)
		var buf []byte
		for _, l := range lines {
			// The base's lines before l, except l's own model's.
			for {
				k, line, ok := cur.peek()
				if !ok || k > l.key {
					break
				}
				if k < l.key {
					if err := writeLine(w, line); err != nil {
						return err
					}
				}
				cur.next()
			}
			if err := cur.err(); err != nil {
				return err
			}
			buf = slices.Grow(buf[:0], int(l.end-l.off))[:l.end-l.off]
			if _, err := f.ReadAt(buf, l.off); err != nil {
				return err
			}
			if err := writeLine(w, buf); err != nil {
				return err
			}
		}
		for {
			_, line, ok := cur.peek()
			if !ok {
				return cur.err()
			}
			if err := writeLine(w, line); err != nil {
				return err
			}
			cur.next()
		}
	})
}

func writeLine(w io.Writer, line []byte) error {
	if _, err := w.Write(line); err != nil {
		return err
	}
	_, err := w.Write([]byte{'\n'})
	return err
}

// cursor returns a cursor over the journal's base.
func (j *journal) cursor() *journalCursor { return newJournalCursor(j.f, j.baseStart, j.baseEnd) }

// journalCursor reads a journal's base in order, one line at a time: a
// run looks up each input's line as it takes the inputs in the same
// order, with no index in memory.
type journalCursor struct {
	br   *bufio.Reader
	off  int64 // where the current line starts
	line []byte
	key  string
	read bool // line and key hold the current line
	done bool
	e    error // a read error other than the end
}

func newJournalCursor(f io.ReaderAt, start, end int64) *journalCursor {
	return &journalCursor{br: bufio.NewReaderSize(io.NewSectionReader(f, start, end-start), 1<<16), off: start}
}

// peek returns the current line and its key; ok is false at the end.
func (c *journalCursor) peek() (key string, line []byte, ok bool) {
	for !c.read {
		if c.done {
			return "", nil, false
		}
		line, err := readLine(c.br)
		if err != nil {
			if err != io.EOF {
				c.e = err
			}
			c.done = true
			return "", nil, false
		}
		k, ok := lineKey(line)
		if !ok {
			c.off += int64(len(line)) + 1
			continue // not a model's line: skip it
		}
		c.line, c.key, c.read = line, k, true
	}
	return c.key, c.line, true
}

// next moves past the current line.
func (c *journalCursor) next() {
	if c.read {
		c.off += int64(len(c.line)) + 1
		c.read = false
	}
}

// err is the cursor's read error, if it ended on one.
func (c *journalCursor) err() error { return c.e }

// find returns a copy of the line of input key and where it is, moving
// past the lines of keys before it; keys must come in increasing order.
func (c *journalCursor) find(key string) (line []byte, off int64, ok bool) {
	for {
		k, l, ok := c.peek()
		if !ok || k > key {
			return nil, 0, false
		}
		if k == key {
			off := c.off
			line := bytes.Clone(l)
			c.next()
			return line, off, true
		}
		c.next()
	}
}

// append writes lines at the journal's end and flushes them to disk,
// returning where each starts.
func (j *journal) append(lines [][]byte) ([]int64, error) {
	var buf bytes.Buffer
	offs := make([]int64, len(lines))
	for i, l := range lines {
		offs[i] = j.size + int64(buf.Len())
		buf.Write(l)
		buf.WriteByte('\n')
	}
	if _, err := j.f.WriteAt(buf.Bytes(), j.size); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j.size += int64(buf.Len())
	if err := j.f.Sync(); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return offs, nil
}

// line reads the line that starts at off.
func (j *journal) line(off int64) ([]byte, error) {
	br := bufio.NewReaderSize(io.NewSectionReader(j.f, off, j.size-off), 4096)
	l, err := readLine(br)
	if err != nil {
		return nil, fmt.Errorf("journal: line at %d: %w", off, err)
	}
	return bytes.Clone(l), nil
}

func (j *journal) close() error {
	if j == nil || j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}

// journalModels are a run's finished models in its journal: where each
// line is (offsets) and how each model ended in this run (states, which
// are notFinished for a model with no line), in input order.
type journalModels struct {
	j       *journal
	offsets *offsetTable
	states  []modelState
	// compacted is set once the journal's base is the run's models, in
	// order (compact): they are then read through, not line by line.
	compacted bool
}

func (jm *journalModels) has(i int) bool { return jm.states[i] != notFinished }

// eachLine calls fn with every finished model's line.
func (jm *journalModels) eachLine(fn func(i int, line []byte) error) error {
	if jm.compacted {
		cur := jm.j.cursor()
		for i := range jm.states {
			if !jm.has(i) {
				continue
			}
			_, line, ok := cur.peek()
			if !ok {
				if err := cur.err(); err != nil {
					return fmt.Errorf("journal: %w", err)
				}
				return errors.New("journal: fewer models than the run finished")
			}
			if err := fn(i, line); err != nil {
				return err
			}
			cur.next()
		}
		return nil
	}
	return jm.eachLineAt(fn)
}

// eachLineAt is eachLine reading each line at its offset.
func (jm *journalModels) eachLineAt(fn func(i int, line []byte) error) error {
	return jm.offsets.each(func(i int, off int64) error {
		if !jm.has(i) {
			return nil
		}
		line, err := jm.j.line(off)
		if err != nil {
			return err
		}
		return fn(i, line)
	})
}

// result decodes model i's result from its line, as this run ended it.
func (jm *journalModels) result(i int, line []byte) (*ModelResult, error) {
	var e decodedEntry
	if err := json.Unmarshal(line, &e); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	r := &e.Result
	if jm.states[i] == finishedCached && r.Status != StatusCached {
		// An earlier run's line, which stands for this run's result.
		r.Status, r.Checks = StatusCached, nil
	}
	return r, nil
}

// decodedEntry is a journal line decoded in one pass, its result too.
type decodedEntry struct {
	Key    string      `json:"key"`
	Job    string      `json:"job"`
	Stamps []string    `json:"stamps"`
	Result ModelResult `json:"result"`
}

// rawResult returns the result of a journal line as it is, without
// decoding the line: it is the line's last field, and the first
// `,"result":` in the line is its name (the fields before it are
// strings, in which a quote is always escaped).
func rawResult(line []byte) ([]byte, bool) {
	const field = `,"result":`
	i := bytes.Index(line, []byte(field))
	if i < 0 || len(line) < i+len(field)+2 || line[len(line)-1] != '}' {
		return nil, false
	}
	return line[i+len(field) : len(line)-1], true
}

// statusOK is how a result that was rendered says so, and where; a
// result read again as cached says that instead.
var (
	statusOK     = []byte(`"status":"ok"`)
	statusCached = []byte(`"status":"cached"`)
)

func (jm *journalModels) each(fn func(r *ModelResult) error) error {
	return jm.eachLine(func(i int, line []byte) error {
		r, err := jm.result(i, line)
		if err != nil {
			return err
		}
		return fn(r)
	})
}

func (jm *journalModels) eachJSON(fn func(b []byte) error) error {
	var buf []byte
	return jm.eachLine(func(i int, line []byte) error {
		raw, ok := rawResult(line)
		if ok && jm.states[i] == finishedCached {
			// A rendered result read as cached: its status, the third
			// field (the input and relative path before it are strings,
			// in which a quote is escaped), says so; it has no checks to
			// drop.
			ok = false
			if j := bytes.Index(raw, []byte(`"status":`)); j >= 0 && !bytes.Contains(raw, []byte(`"checks":`)) {
				switch {
				case bytes.HasPrefix(raw[j:], statusCached):
					ok = true
				case bytes.HasPrefix(raw[j:], statusOK):
					buf = append(append(append(buf[:0], raw[:j]...), statusCached...), raw[j+len(statusOK):]...)
					raw, ok = buf, true
				}
			}
		}
		// A name that was not UTF-8 was written with \ufffd in its
		// place, which decoding and encoding again writes as the
		// character itself: such a line is decoded, so that every run
		// writes it alike.
		if ok && !bytes.Contains(raw, []byte(`\ufffd`)) && json.Valid(raw) {
			return fn(raw)
		}
		r, err := jm.result(i, line)
		if err != nil {
			return err
		}
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		return fn(b)
	})
}

// compact writes the journal anew with the run's finished models as its
// base, in input order, and reads them from there from then on. A run
// that appended no line and whose models are the base's, one for one
// (a fully cached resume), has that journal already: it is kept, not
// written again (130 MB for 100,000 models).
func (jm *journalModels) compact(ctx context.Context) error {
	if jm.j.size == jm.j.baseEnd+int64(len(journalMarker))+1 {
		n := 0
		for i := range jm.states {
			if jm.has(i) {
				n++
			}
		}
		if n == jm.j.baseLines {
			jm.compacted = true
			return nil
		}
	}
	_, err := jm.j.start(ctx, func(w io.Writer) error {
		return jm.eachLineAt(func(_ int, line []byte) error { return writeLine(w, line) })
	})
	if err != nil {
		return err
	}
	jm.compacted = true
	return nil
}
