package mpq

import (
	"bytes"
	"encoding/binary"
	"io"

	"github.com/mdxrender/mdxrender/internal/mpqcrypt"
)

// standardNames are the files Warcraft III maps and campaigns hold under
// fixed names. They are tried even when a map has no (listfile), so that a
// listfile-less map still enumerates its script, terrain and previews.
var standardNames = []string{
	"(listfile)", "(attributes)", "(signature)",
	"war3map.j", "scripts\\war3map.j", "war3map.lua", "scripts\\war3map.lua",
	"war3map.w3i", "war3map.w3e", "war3map.wtg", "war3map.wct", "war3map.wts",
	"war3map.w3r", "war3map.w3c", "war3map.w3s", "war3map.w3u", "war3map.w3t",
	"war3map.w3a", "war3map.w3b", "war3map.w3d", "war3map.w3q", "war3map.w3h",
	"war3map.doo", "war3mapUnits.doo", "war3map.shd", "war3map.mmp", "war3map.wpm",
	"war3map.imp", "war3mapMap.blp", "war3mapMap.tga", "war3mapMap.b00",
	"war3mapPreview.tga", "war3mapPreview.blp", "war3mapPath.tga",
	"war3mapMisc.txt", "war3mapSkin.txt", "war3mapExtra.txt", "war3mapSkin.w3u",
	"war3mapSkin.w3t", "war3mapSkin.w3a", "war3mapSkin.w3b", "war3mapSkin.w3d",
	"war3mapSkin.w3q", "war3mapSkin.w3h", "conversation.json",
	"war3campaign.w3f", "war3campaign.w3u", "war3campaign.w3t", "war3campaign.w3a",
	"war3campaign.w3b", "war3campaign.w3d", "war3campaign.w3q", "war3campaign.imp",
	"war3campaign.wts", "war3campaignSkin.txt",
}

// importPrefix is where the World Editor stores imported files whose path
// was not set by hand; war3map.imp lists them without it.
const importPrefix = "war3mapImported\\"

// maxNameLen is the longest name a list may give: Windows paths, the
// game's included, are at most 260 bytes (MAX_PATH). Longer lines are
// skipped, which bounds what a name costs to hold and to walk.
const maxNameLen = 260

// resolveNames names the entries whose names can be found: the standard
// names, every line of (listfile) and every path in war3map.imp or
// war3campaign.imp. The lists are streamed a sector at a time and each name
// is hashed where it lies in the buffer; only a name that hashes to an
// entry still unnamed becomes a string, so a list of millions of names that
// match nothing costs hashing and nothing more.
func (a *Archive) resolveNames() {
	for _, n := range standardNames {
		a.nameEntries(n)
	}
	a.readList("(listfile)", func(rc io.Reader) (int, error) {
		return splitNames(rc, false, false, -1, func(name []byte) { a.nameBytes("", name) })
	})
	for _, imp := range []string{"war3map.imp", "war3campaign.imp"} {
		a.readList(imp, a.scanImports)
	}
	a.collectFiles()
}

// readList streams the list file named name through scan, which returns
// how many names it skipped as too long. A list over the read limit is not
// read, and one that fails part way names nothing; both leave a warning.
func (a *Archive) readList(name string, scan func(io.Reader) (int, error)) {
	i := a.lookup(name)
	if i < 0 || a.byHash[i] == nil {
		return
	}
	f := *a.byHash[i]
	f.Name = name
	if err := f.checkReadLimit("reading the names it lists"); err != nil {
		a.warnf("%s not read: %s", name, inFile(err, name))
		return
	}
	a.listNamed = a.listNamed[:0]
	rc, err := f.Open()
	var long int
	if err == nil {
		long, err = scan(rc)
		rc.Close()
	}
	if err != nil {
		// All or nothing, as when the list was read whole: undo the names
		// this list gave.
		for _, g := range a.listNamed {
			a.groups[g].named = false
			for _, i := range a.group(g) {
				if f := a.byHash[i]; f != nil {
					f.Name = ""
				}
			}
		}
		a.warnf("%s is unreadable: %s", name, inFile(err, name))
		return
	}
	if long > 0 {
		a.warnf("%s: %d names longer than %d bytes skipped", name, long, maxNameLen)
	}
}

// nameEntries gives name to every entry whose hashes match it, in every
// locale, unless an earlier name has. It goes through an index rather than
// probing, so that a listfile of a million names costs at most a million
// map lookups whatever the hash table holds, and a name repeated a million
// times names its group of entries once.
func (a *Archive) nameEntries(name string) {
	a.nameBytes("", []byte(name))
}

// nameBytes is nameEntries for the name prefix+name, given as bytes where
// they lie; the string is made only when an unnamed group takes it.
func (a *Archive) nameBytes(prefix string, name []byte) {
	h1 := mpqcrypt.More(mpqcrypt.More(mpqcrypt.Start, prefix, mpqcrypt.NameA), name, mpqcrypt.NameA).Sum()
	if a.nameFilter[h1%65536/64]&(1<<(h1%64)) == 0 {
		return // no entry has this first hash: most names of a long list
	}
	h2 := mpqcrypt.More(mpqcrypt.More(mpqcrypt.Start, prefix, mpqcrypt.NameB), name, mpqcrypt.NameB).Sum()
	g, ok := a.groupOf[nameKey(h1, h2)]
	if !ok || a.groups[g].named {
		return
	}
	a.groups[g].named = true
	a.listNamed = append(a.listNamed, g)
	s := prefix + string(name)
	for _, i := range a.group(g) {
		if f := a.byHash[i]; f != nil {
			f.Name = s
		}
	}
}

func nameKey(a, b uint32) uint64 { return uint64(a)<<32 | uint64(b) }

// group returns the hash indexes of group g, in table order.
func (a *Archive) group(g int32) []int32 {
	gr := a.groups[g]
	return a.groupIdx[gr.first : gr.first+gr.n]
}

// splitNames reads names from r and calls fn with each non-empty one (the
// bytes are only valid during the call). Names end at CR, LF or ';' (some
// tools separate names with ';'), or with nul at NUL; with flags the first
// byte of every record is a flag and not part of the name; at most count
// records are read (count < 0: all). A record that runs to the end of the
// stream counts too. It returns how many names were skipped for being
// longer than maxNameLen.
func splitNames(r io.Reader, nul, flags bool, count int64, fn func(name []byte)) (long int, err error) {
	buf := make([]byte, 64<<10)
	var name []byte // the start of a name cut by the end of the buffer
	tooLong := false
	flag := flags // the next byte is a record's flag byte
	var records int64
	// end finishes a record whose last bytes are part.
	end := func(part []byte) bool {
		full := part
		if len(name) > 0 && !tooLong {
			name = append(name, part...)
			full = name
		}
		switch {
		case tooLong || len(full) > maxNameLen:
			long++
		case len(full) > 0:
			fn(full)
		}
		name, tooLong, flag = name[:0], false, flags
		records++
		return count >= 0 && records >= count
	}
	for {
		n, rerr := r.Read(buf)
		chunk := buf[:n]
		for len(chunk) > 0 {
			if flag {
				chunk, flag = chunk[1:], false
				continue
			}
			i := -1
			if nul {
				i = bytes.IndexByte(chunk, 0)
			} else {
				// By hand: bytes.IndexAny builds its set on every call,
				// which costs more than the search for one-letter names.
				for k, c := range chunk {
					if c == '\n' || c == '\r' || c == ';' {
						i = k
						break
					}
				}
			}
			if i < 0 {
				// The name goes on in the next buffer.
				if len(name)+len(chunk) > maxNameLen {
					tooLong, name = true, name[:0]
				} else if !tooLong {
					name = append(name, chunk...)
				}
				break
			}
			if end(chunk[:i]) {
				return long, nil
			}
			chunk = chunk[i+1:]
		}
		if rerr == io.EOF {
			if len(name) > 0 || tooLong {
				end(nil)
			}
			return long, nil
		}
		if rerr != nil {
			return long, rerr
		}
	}
}

// scanImports reads the paths out of a war3map.imp: a version word, a
// count, then per import a flag byte (version 1 and later) and a
// NUL-terminated path. Each path names its entry both as written and under
// war3mapImported\. The count is trusted only as far as the data goes.
func (a *Archive) scanImports(r io.Reader) (int, error) {
	var head [8]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return 0, nil
		}
		return 0, err
	}
	version := binary.LittleEndian.Uint32(head[:])
	count := binary.LittleEndian.Uint32(head[4:])
	if count == 0 {
		return 0, nil
	}
	return splitNames(r, true, version >= 1, int64(count), func(name []byte) {
		a.nameBytes("", name)
		a.nameBytes(importPrefix, name)
	})
}
