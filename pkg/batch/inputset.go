package batch

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"reflect"
	"slices"

	"github.com/mdxrender/mdxrender/internal/extsort"
	"github.com/mdxrender/mdxrender/internal/scratch"
	"github.com/mdxrender/mdxrender/pkg/mpq"
)

// An inputSet holds the inputs a batch found while it plans, on disk: each
// input's record in a temporary file as it is found, and its key, where
// the record is and a hash of its relative path in an external sort
// (extsort), so that planning a hundred thousand models takes the memory
// of planning a thousand. sort then writes the index: the records' places
// in key order, without duplicates, each with whether its relative path
// takes its root's name (where two roots hold the same relative path).
type inputSet struct {
	f   *os.File // the records, in the order found
	bw  *bufio.Writer
	end int64 // the file's length, buffered part included
	fss []fs.FS
	ids map[any]int
	// keys sorts the inputs by key (keyRecord) until sort.
	keys *extsort.Sorter
	// index is where the index starts in the records' file, after the
	// records: an indexEntry per input, in key order, written by sort.
	index int64
	n     int // inputs in the index
	// roots counts the roots inputs were found in; with several, inputs
	// of one relative path in two of them get the root's name in front.
	roots map[string]bool
	rec   []byte // scratch for add
	err   error
}

// sortMemory is the bytes of records each of planning's sorts holds in
// memory before it writes them to disk; tests lower it so that every
// sort goes through the disk.
var sortMemory = extsort.DefaultMemory

// indexEntry is an input's place in the index: where its record is, how
// long it is, and whether its relative path takes its root's name.
type indexEntry struct {
	off    int64
	n      int32
	prefix bool
}

// An indexEntry takes indexSize bytes: the offset (8), the length (4)
// and, at indexPrefix, the prefix flag (4), which markShared sets in
// place.
const (
	indexSize   = 16
	indexPrefix = 12
)

func (e indexEntry) append(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(e.off))
	b = binary.LittleEndian.AppendUint32(b, uint32(e.n))
	var p uint32
	if e.prefix {
		p = 1
	}
	return binary.LittleEndian.AppendUint32(b, p)
}

func readIndexEntry(b []byte) indexEntry {
	return indexEntry{
		off:    int64(binary.LittleEndian.Uint64(b)),
		n:      int32(binary.LittleEndian.Uint32(b[8:])),
		prefix: binary.LittleEndian.Uint32(b[indexPrefix:]) != 0,
	}
}

// A keyRecord is the key, then where the input's record is (8 bytes), its
// length (4) and the hash of its relative path (8): the key sorts it, and
// the sort is stable, so of one key met twice the first found comes first.
const keyTail = 20

func keyRecord(b []byte, key string, off int64, n int32, relHash uint64) []byte {
	b = append(b, key...)
	b = binary.LittleEndian.AppendUint64(b, uint64(off))
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	return binary.LittleEndian.AppendUint64(b, relHash)
}

// readKeyRecord splits a keyRecord into its fields.
func readKeyRecord(rec []byte) (key []byte, off int64, n int32, relHash uint64) {
	key, tail := rec[:len(rec)-keyTail], rec[len(rec)-keyTail:]
	return key, int64(binary.LittleEndian.Uint64(tail)), int32(binary.LittleEndian.Uint32(tail[8:])), binary.LittleEndian.Uint64(tail[12:])
}

func compareKeyRecords(a, b []byte) int {
	return bytes.Compare(a[:len(a)-keyTail], b[:len(b)-keyTail])
}

// plannedInput is an Input as a file holds it: its file system by
// number (1 + its index in the set's list; 0 for a file on disk) and its
// archive entry by the archive's name for it.
type plannedInput struct {
	FS        int    `json:"fs,omitempty"`
	EntryName string `json:"entry,omitempty"`
	Name      string `json:"name,omitempty"`
	Path      string `json:"path,omitempty"`
	Key       string `json:"key"`
	Rel       string `json:"rel,omitempty"`
	Root      string `json:"root,omitempty"`
	Top       string `json:"top,omitempty"`
	Inner     string `json:"inner,omitempty"`
}

func newInputSet() (*inputSet, error) {
	f, err := scratch.Create("mdxrender-inputs-*")
	if err != nil {
		return nil, fmt.Errorf("inputs: a temporary file: %w", err)
	}
	return &inputSet{
		f: f, bw: bufio.NewWriterSize(f, 1<<16), ids: map[any]int{}, roots: map[string]bool{},
		keys: extsort.New(compareKeyRecords, sortMemory),
	}, nil
}

func (s *inputSet) close() {
	if s.keys != nil {
		s.keys.Close()
		s.keys = nil
	}
	if s.f != nil {
		scratch.Close(s.f)
		s.f = nil
	}
}

// len is the number of inputs after sort.
func (s *inputSet) len() int { return s.n }

// add records one input.
func (s *inputSet) add(in Input) {
	if s.err != nil {
		return
	}
	pi := plannedInput{Name: in.Name, Path: in.Path, Key: in.Key, Rel: in.Rel, Root: in.Root, Top: in.Top, Inner: in.Inner}
	if in.FS != nil {
		k := fsIdentity(in.FS)
		n, ok := s.ids[k]
		if !ok {
			s.fss = append(s.fss, in.FS)
			n = len(s.fss)
			s.ids[k] = n
		}
		pi.FS = n
	}
	if in.Entry != nil {
		pi.EntryName = in.Entry.Name
	}
	b, err := json.Marshal(pi)
	if err != nil {
		s.err = err
		return
	}
	b = append(b, '\n')
	if _, err := s.bw.Write(b); err != nil {
		s.err = err
		return
	}
	if err := s.keys.Add(keyRecord(s.rec[:0], in.Key, s.end, int32(len(b)), hashString(in.Rel))); err != nil {
		s.err = err
		return
	}
	s.end += int64(len(b))
	s.roots[in.Root] = true
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	io.WriteString(h, s)
	return h.Sum64()
}

// sort orders the inputs by key and drops a key met again (the same
// file named twice: the first naming stands), then marks the inputs
// whose relative path another root holds too. It writes the index after
// the records; no input may be added after it.
func (s *inputSet) sort() error {
	if s.err == nil {
		s.err = s.bw.Flush()
	}
	if s.err != nil {
		return fmt.Errorf("inputs: %w", s.err)
	}
	s.index = s.end
	var rels *extsort.Sorter // hashRecords of the relative paths, when there are several roots
	if len(s.roots) > 1 {
		rels = extsort.New(bytes.Compare, sortMemory)
		defer rels.Close()
	}
	var prev, entry []byte
	var hr [12]byte
	err := s.keys.Each(func(rec []byte) error {
		key, off, n, relHash := readKeyRecord(rec)
		if s.n > 0 && bytes.Equal(key, prev) {
			return nil
		}
		prev = append(prev[:0], key...)
		entry = indexEntry{off: off, n: n}.append(entry[:0])
		if _, err := s.bw.Write(entry); err != nil {
			return err
		}
		if rels != nil {
			if err := rels.Add(hashRecord(&hr, relHash, s.n)); err != nil {
				return err
			}
		}
		s.n++
		return nil
	})
	if err == nil {
		err = s.bw.Flush()
	}
	s.end = s.index + int64(s.n)*indexSize
	s.keys.Close()
	s.keys = nil
	if err == nil && rels != nil {
		err = s.markShared(rels)
	}
	if err != nil {
		s.err = err
		return fmt.Errorf("inputs: %w", err)
	}
	return nil
}

// markShared marks in the index the inputs whose relative path's hash
// another input has too: rels holds hashRecords of every input.
func (s *inputSet) markShared(rels *extsort.Sorter) error {
	var one [4]byte
	binary.LittleEndian.PutUint32(one[:], 1)
	return eachHashGroup(rels, func(_ uint64, group []int) error {
		if len(group) < 2 {
			return nil
		}
		for _, i := range group {
			if _, err := s.f.WriteAt(one[:], s.index+int64(i)*indexSize+indexPrefix); err != nil {
				return err
			}
		}
		return nil
	})
}

// hashRecord is a record of the sorts that group inputs by a hash: the
// hash and the input's number, big-endian, so that the bytes sort as the
// numbers do (by hash, then by input).
func hashRecord(b *[12]byte, hash uint64, i int) []byte {
	binary.BigEndian.PutUint64(b[:], hash)
	binary.BigEndian.PutUint32(b[8:], uint32(i))
	return b[:]
}

// eachHashGroup calls fn with each hash of the sorted hashRecords and
// the inputs that have it, in order; fn must not keep inputs.
func eachHashGroup(sorted *extsort.Sorter, fn func(hash uint64, inputs []int) error) error {
	var group []int
	var hash uint64
	err := sorted.Each(func(r []byte) error {
		h, i := binary.BigEndian.Uint64(r), int(binary.BigEndian.Uint32(r[8:]))
		if len(group) > 0 && h != hash {
			if err := fn(hash, group); err != nil {
				return err
			}
			group = group[:0]
		}
		hash = h
		group = append(group, i)
		return nil
	})
	if err != nil || len(group) == 0 {
		return err
	}
	return fn(hash, group)
}

// each calls fn with every input in order (after sort); fn returning
// false stops it.
func (s *inputSet) each(fn func(i int, in Input) bool) error {
	if s.err != nil {
		return fmt.Errorf("inputs: %w", s.err)
	}
	idx := bufio.NewReaderSize(io.NewSectionReader(s.f, s.index, int64(s.n)*indexSize), 1<<14)
	var buf []byte
	var e [indexSize]byte
	for i := 0; i < s.n; i++ {
		if _, err := io.ReadFull(idx, e[:]); err != nil {
			return fmt.Errorf("inputs: %w", err)
		}
		in, err := s.read(readIndexEntry(e[:]), &buf)
		if err != nil {
			return err
		}
		if !fn(i, in) {
			return nil
		}
	}
	return nil
}

// input returns input i (after sort).
func (s *inputSet) input(i int) (Input, error) {
	if i < 0 || i >= s.n {
		return Input{}, fmt.Errorf("inputs: no input %d", i)
	}
	var e [indexSize]byte
	if _, err := s.f.ReadAt(e[:], s.index+int64(i)*indexSize); err != nil {
		return Input{}, fmt.Errorf("inputs: %w", err)
	}
	var buf []byte
	return s.read(readIndexEntry(e[:]), &buf)
}

// read reads the input whose record e places.
func (s *inputSet) read(e indexEntry, buf *[]byte) (Input, error) {
	*buf = slices.Grow((*buf)[:0], int(e.n))[:e.n]
	if _, err := s.f.ReadAt(*buf, e.off); err != nil {
		return Input{}, fmt.Errorf("inputs: %w", err)
	}
	in, err := s.decode(*buf)
	if err != nil {
		return Input{}, err
	}
	if e.prefix {
		if seg := rootSegment(in.Root); seg != "" {
			in.Rel = seg + "/" + in.Rel
		}
	}
	return in, nil
}

// decode reads an input back from its record.
func (s *inputSet) decode(b []byte) (Input, error) {
	var pi plannedInput
	if err := json.Unmarshal(bytes.TrimSpace(b), &pi); err != nil {
		return Input{}, fmt.Errorf("inputs: %w", err)
	}
	in := Input{Name: pi.Name, Path: pi.Path, Key: pi.Key, Rel: pi.Rel, Root: pi.Root, Top: pi.Top, Inner: pi.Inner}
	if pi.FS > 0 && pi.FS <= len(s.fss) {
		in.FS = s.fss[pi.FS-1]
	}
	if a, ok := in.FS.(*mpq.Archive); ok && pi.EntryName != "" {
		in.Entry, _ = a.Lookup(pi.EntryName)
	}
	return in, nil
}

// fsIdentity is a comparable identity of a file system: the value when
// it is comparable, else its address (a map, such as an fstest.MapFS).
func fsIdentity(f fs.FS) any {
	v := reflect.ValueOf(f)
	switch {
	case v.Comparable():
		return f
	case v.Kind() == reflect.Map || v.Kind() == reflect.Slice || v.Kind() == reflect.Func:
		return [2]any{v.Type(), v.Pointer()}
	}
	return new(int) // no identity to find: a number of its own
}
