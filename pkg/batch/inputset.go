package batch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/mdxrender/mdxrender/pkg/mpq"
)

// An inputSet holds the inputs a batch found while it plans: each in a
// temporary file as it is found, with only its key, where it is and a
// hash of its relative path in memory, some 90 bytes an input instead of
// the 300 an Input takes with its strings, so that planning a hundred
// thousand models does not take more memory than rendering them. The
// inputs are then read back sorted by key, without duplicates, their
// relative paths told apart across roots (separateRoots).
type inputSet struct {
	f   *os.File
	bw  *bufio.Writer
	end int64 // the file's length, buffered part included
	fss []fs.FS
	ids map[any]int
	// refs are the inputs in the order found; sorted by sort.
	refs []inputRef
	// roots counts the roots inputs were found in; with several, inputs
	// of one relative path in two of them get the root's name in front.
	roots map[string]bool
	err   error
}

// inputRef is an input of the set: its key, where its record is and
// how long it is, the hash of its relative path, and whether its
// relative path takes its root's name (separateRoots).
type inputRef struct {
	key     string
	off     int64
	n       int32
	prefix  bool
	relHash uint64
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
	f, err := os.CreateTemp("", "mdxrender-inputs-*")
	if err != nil {
		return nil, fmt.Errorf("inputs: a temporary file: %w", err)
	}
	// Gone with the process, however it ends (where the system allows
	// removing an open file; elsewhere close removes it).
	os.Remove(f.Name())
	return &inputSet{f: f, bw: bufio.NewWriterSize(f, 1<<16), ids: map[any]int{}, roots: map[string]bool{}}, nil
}

func (s *inputSet) close() {
	if s.f != nil {
		s.f.Close()
		os.Remove(s.f.Name())
		s.f = nil
	}
}

func (s *inputSet) len() int { return len(s.refs) }

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
	s.refs = append(s.refs, inputRef{key: in.Key, off: s.end, n: int32(len(b)), relHash: hashString(in.Rel)})
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
// whose relative path another root holds too.
func (s *inputSet) sort() error {
	if s.err == nil {
		s.err = s.bw.Flush()
	}
	if s.err != nil {
		return fmt.Errorf("inputs: %w", s.err)
	}
	slices.SortStableFunc(s.refs, func(a, b inputRef) int { return strings.Compare(a.key, b.key) })
	kept := s.refs[:0]
	for i, r := range s.refs {
		if i > 0 && r.key == s.refs[i-1].key {
			continue
		}
		kept = append(kept, r)
	}
	clear(s.refs[len(kept):])
	s.refs = kept
	if len(s.roots) > 1 {
		seen := make(map[uint64]int, len(s.refs))
		for _, r := range s.refs {
			seen[r.relHash]++
		}
		for i := range s.refs {
			s.refs[i].prefix = seen[s.refs[i].relHash] > 1
		}
	}
	return nil
}

// each calls fn with every input in order (after sort); fn returning
// false stops it.
func (s *inputSet) each(fn func(i int, in Input) bool) error {
	var buf []byte
	for i := range s.refs {
		in, err := s.read(i, &buf)
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
	var buf []byte
	return s.read(i, &buf)
}

func (s *inputSet) read(i int, buf *[]byte) (Input, error) {
	r := s.refs[i]
	*buf = slices.Grow((*buf)[:0], int(r.n))[:r.n]
	if _, err := s.f.ReadAt(*buf, r.off); err != nil {
		return Input{}, fmt.Errorf("inputs: %w", err)
	}
	in, err := s.decode(*buf)
	if err != nil {
		return Input{}, err
	}
	if r.prefix {
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

// setRel returns the record b with its relative path rel.
func setRel(b []byte, rel string) ([]byte, error) {
	var pi plannedInput
	if err := json.Unmarshal(bytes.TrimSpace(b), &pi); err != nil {
		return nil, err
	}
	pi.Rel = rel
	out, err := json.Marshal(pi)
	return append(out, '\n'), err
}
