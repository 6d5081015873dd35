package mpq

import (
	"fmt"
	"io"
	"os"
	"sort"
	"sync"

	"github.com/mdxrender/mdxrender/pkg/budget"
)

// maxSectorBytes caps the buffer one sector of one file needs. The largest
// sectors seen in Warcraft III maps are 32 MiB (shift 16), and a file smaller
// than its sector only needs its own size.
const maxSectorBytes = 32 << 20

// Archive is an open MPQ archive. It is an fs.FS over the file names it can
// enumerate (from "(listfile)", "war3map.imp" and the standard map file
// names), and Open also finds any other file whose name hashes to an entry.
// An Archive is safe for concurrent use.
type Archive struct {
	name   string
	r      io.ReaderAt
	size   int64
	closer io.Closer

	header   Header
	hashSize uint32 // declared entries; hashes holds those present in the file
	hashes   []hashEntry
	blocks   []blockEntry

	lim       budget.Limits
	readLimit int64 // lim's ReadBytes: the largest file read whole
	warnings  []string

	files  []*File // Files(), in block order
	byHash []*File // per hash entry: its file, nil when it points at no usable block
	// groups index the hash entries by their two name hashes, for naming
	// entries from lists and for lookups: groupOf maps the hashes to a
	// group, whose entries are groupIdx[first:first+n].
	groupOf  map[uint64]int32
	groups   []nameGroup
	groupIdx []int32
	// nextFree[i] is the first free hash entry at or after i, or -1: where
	// a probe that passes i stops.
	nextFree []int32
	// nameFilter has bit h%65536 set for the first name hash h of every
	// entry: a name whose bit is clear matches nothing, which spares the
	// map lookup for almost every name of a long list.
	nameFilter *[1024]uint64
	listNamed  []int32 // groups the list being read has named

	comps sync.Map // compKey -> compResult: File.Compressions' answers

	treeOnce sync.Once
	tree     *tree
}

// Open opens the archive file at name. The file stays open until Close.
// lim's ReadBytes is the archive's read limit: the largest file that
// ReadFile, fs.ReadFile and File.ReadAll return whole, and the largest
// (listfile) or war3map.imp that opening reads names from (the zero Limits
// means the defaults).
func Open(name string, lim budget.Limits) (*Archive, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	a, err := NewReader(f, st.Size(), name, lim)
	if err != nil {
		f.Close()
		return nil, err
	}
	a.closer = f
	return a, nil
}

// NewReader reads an archive of size bytes from r. name is used in error
// messages only. The caller keeps r open for as long as the Archive is used.
// lim is as for Open.
func NewReader(r io.ReaderAt, size int64, name string, lim budget.Limits) (*Archive, error) {
	a := &Archive{name: name, r: r, size: size, lim: lim, readLimit: lim.Get(budget.ReadBytes)}
	if size < headerSizeV1 {
		return nil, a.formatErr(-1, "%d bytes is too small for an MPQ archive", size)
	}
	h, lay, err := a.findHeader()
	if err != nil {
		return nil, err
	}
	a.header = h
	if h.Malformed {
		a.warnf("header fields disagree with the format (stored format %d, header size %#x); read as format %d like Storm does", h.StoredFormat+1, h.StoredHeaderSize, h.Version())
	}
	if err := a.loadTables(lay); err != nil {
		return nil, err
	}
	a.header.HashEntriesRead, a.header.BlockEntriesRead = uint32(len(a.hashes)), uint32(len(a.blocks))
	if n := uint32(len(a.hashes)); n < a.hashSize {
		a.warnf("hash table clipped to the file: %d of %d entries present", n, a.hashSize)
	}
	if n := uint32(len(a.blocks)); n < lay.blockEntries {
		a.warnf("block table clipped to the file: %d of %d entries present", n, lay.blockEntries)
	}
	if err := a.checkTables(); err != nil {
		return nil, err
	}
	a.buildEntries()
	a.resolveNames()
	return a, nil
}

// entryBytes is what an open archive holds in memory for each entry it
// can open (its File, its places in the indexes, its name), measured at
// about 270 bytes an entry over a million entries.
const entryBytes = 256

// checkTables refuses an archive whose tables would take more memory than
// its read limit allows: a 69 MB archive of a million names cost 270 MB
// to open and a gigabyte to list. At the default limit that is about half
// a million entries; the largest real archives hold tens of thousands.
func (a *Archive) checkTables() error {
	var used int64
	for i := range a.hashes {
		if b := a.hashes[i].block; b != hashFree && b != hashDeleted {
			used++
		}
	}
	cost := int64(len(a.hashes))*16 + int64(len(a.blocks))*16 + used*entryBytes
	return a.lim.Check(budget.ReadBytes, cost, archiveShown(a.name), fmt.Sprintf("holding the tables of %d entries in memory", used))
}

// Close closes the file opened by Open; for an Archive from NewReader it
// does nothing.
func (a *Archive) Close() error {
	if a.closer != nil {
		return a.closer.Close()
	}
	return nil
}

// Name returns the name the archive was opened with.
func (a *Archive) Name() string { return a.name }

// Header returns the archive header as it was interpreted.
func (a *Archive) Header() Header { return a.header }

// Warnings lists damage found while opening that did not stop the archive
// from being read: clipped tables, header fields that were overridden, hash
// entries that point nowhere. A corrupt save may open with no files and
// only warnings to show for it.
func (a *Archive) Warnings() []string { return append([]string(nil), a.warnings...) }

// Limits returns the limits the archive was opened with.
func (a *Archive) Limits() budget.Limits { return a.lim }

// Files returns every file entry of the archive, named or not, in block
// table order. Locale variants of one name are separate entries.
func (a *Archive) Files() []*File {
	out := make([]*File, len(a.files))
	for i, f := range a.files {
		g := *f
		out[i] = &g
	}
	return out
}

// Lookup finds the file name stands for by the hash of its name, whether or
// not any listfile mentions it: the locale-neutral entry if there is one,
// else the first entry of any locale. Case and '/' versus '\' do not matter.
func (a *Archive) Lookup(name string) (*File, bool) {
	i := a.lookup(name)
	if i < 0 {
		return nil, false
	}
	f := a.byHash[i]
	if f == nil {
		return nil, false // the entry points at a block that is not usable
	}
	// A copy: the caller may keep or change it without touching the
	// archive's own entries, which other goroutines read.
	g := *f
	g.Name = name
	return &g, true
}

func (a *Archive) formatErr(off int64, format string, args ...any) *FormatError {
	return &FormatError{Archive: a.name, Offset: off, Reason: fmt.Sprintf(format, args...)}
}

func (a *Archive) warnf(format string, args ...any) {
	if len(a.warnings) < 100 {
		a.warnings = append(a.warnings, fmt.Sprintf(format, args...))
	}
}

// nameGroup is the hash entries that carry one pair of name hashes and
// point inside the block table (usable or not: a probe stops at them
// alike), in hash table order.
type nameGroup struct {
	first, n int32
	named    bool // a list or a standard name has named the group
}

// buildEntries makes a File for every hash entry that points at a usable
// block, and the indexes that name and look them up. Several hash entries
// may point at one block; an unnamed duplicate is left out once names are
// known (resolveNames). Everything here is a fixed number of bytes per hash
// entry present in the file.
func (a *Archive) buildEntries() {
	n := len(a.hashes)
	a.byHash = make([]*File, n)
	a.nextFree = make([]int32, n)
	a.nameFilter = new([1024]uint64)
	next := int32(-1)
	for i := n - 1; i >= 0; i-- {
		if a.hashes[i].block == hashFree {
			next = int32(i)
		}
		a.nextFree[i] = next
	}
	// Group the entries by name hashes: count, then place.
	var members int
	for i := range a.hashes {
		if uint64(a.hashes[i].block) < uint64(len(a.blocks)) {
			members++
		}
	}
	a.groupOf = make(map[uint64]int32, members)
	a.groups = make([]nameGroup, 0, members)
	for i := range a.hashes {
		e := &a.hashes[i]
		if uint64(e.block) >= uint64(len(a.blocks)) {
			continue
		}
		k := nameKey(e.name1, e.name2)
		g, ok := a.groupOf[k]
		if !ok {
			g = int32(len(a.groups))
			a.groupOf[k] = g
			a.groups = append(a.groups, nameGroup{})
		}
		a.groups[g].n++
		a.nameFilter[e.name1%65536/64] |= 1 << (e.name1 % 64)
	}
	first := int32(0)
	for g := range a.groups {
		a.groups[g].first = first
		first += a.groups[g].n
		a.groups[g].n = 0
	}
	a.groupIdx = make([]int32, members)
	files := make([]File, 0, members)
	outside, unusable := 0, 0
	for i := range a.hashes {
		e := &a.hashes[i]
		if e.block == hashFree || e.block == hashDeleted {
			continue
		}
		if uint64(e.block) >= uint64(len(a.blocks)) {
			outside++
			continue
		}
		g := &a.groups[a.groupOf[nameKey(e.name1, e.name2)]]
		a.groupIdx[g.first+g.n] = int32(i)
		g.n++
		if !a.blockUsable(e.block) {
			unusable++
			continue
		}
		b := &a.blocks[e.block]
		files = append(files, File{
			Locale:         e.locale,
			Platform:       e.platform,
			BlockIndex:     int(e.block),
			HashIndex:      i,
			Offset:         a.dataOffset(b.pos),
			CompressedSize: int64(b.csize),
			Size:           int64(b.fsize),
			Flags:          b.flags,
			StoredFlags:    b.raw,
			a:              a,
		})
		a.byHash[i] = &files[len(files)-1]
	}
	if outside > 0 {
		a.warnf("%d hash entries point past the end of the block table (%d entries)", outside, len(a.blocks))
	}
	if unusable > 0 {
		a.warnf("%d hash entries point at blocks that are deleted or lie outside the file", unusable)
	}
}

// collectFiles fills a.files from a.byHash: named entries always, unnamed
// ones unless another entry already stands for their block.
func (a *Archive) collectFiles() {
	named := make([]bool, len(a.blocks))
	for _, f := range a.byHash {
		if f != nil && f.Name != "" {
			named[f.BlockIndex] = true
		}
	}
	seen := make([]bool, len(a.blocks))
	a.files = a.files[:0]
	for _, f := range a.byHash {
		if f == nil || f.Name == "" && (named[f.BlockIndex] || seen[f.BlockIndex]) {
			continue
		}
		seen[f.BlockIndex] = true
		a.files = append(a.files, f)
	}
	sort.SliceStable(a.files, func(i, j int) bool {
		if a.files[i].BlockIndex != a.files[j].BlockIndex {
			return a.files[i].BlockIndex < a.files[j].BlockIndex
		}
		return a.files[i].HashIndex < a.files[j].HashIndex
	})
}
