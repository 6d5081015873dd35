package mpq

import (
	"bytes"
	"encoding/binary"
	"errors"
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

// resolveNames names the entries whose names can be found: the standard
// names, every line of (listfile) and every path in war3map.imp or
// war3campaign.imp. A name is only attached to entries its hash matches, so
// a wrong guess costs nothing.
func (a *Archive) resolveNames() {
	for _, n := range standardNames {
		a.nameEntries(n)
	}
	if data, err := a.readNamed("(listfile)"); err == nil {
		for _, n := range parseListfile(data) {
			a.nameEntries(n)
		}
	} else if err != errNotFound {
		a.warnf("(listfile) is unreadable: %v", err)
	}
	for _, imp := range []string{"war3map.imp", "war3campaign.imp"} {
		if data, err := a.readNamed(imp); err == nil {
			for _, n := range parseImports(data) {
				a.nameEntries(n)
				a.nameEntries(importPrefix + n)
			}
		}
	}
	a.collectFiles()
}

// nameEntries gives name to every unnamed entry whose hashes match it, in
// every locale. It goes through an index rather than probing, so that a
// listfile of a million names costs a million map lookups whatever the
// hash table holds.
func (a *Archive) nameEntries(name string) {
	for _, i := range a.byName[nameKey(hashString(name, hashNameA), hashString(name, hashNameB))] {
		if f := a.byHash[i]; f.Name == "" {
			f.Name = name
		}
	}
}

func nameKey(a, b uint32) uint64 { return uint64(a)<<32 | uint64(b) }

var errNotFound = errors.New("not found")

// readNamed reads a whole file found by name.
func (a *Archive) readNamed(name string) ([]byte, error) {
	i := a.lookup(name)
	if i < 0 || a.byHash[i] == nil {
		return nil, errNotFound
	}
	f := *a.byHash[i]
	f.Name = name
	return f.readAll()
}

// parseListfile splits a (listfile) into names. Lines end in CR, LF or
// both; some tools separate names with ';'.
func parseListfile(data []byte) []string {
	var names []string
	for len(data) > 0 {
		i := bytes.IndexAny(data, "\r\n;")
		var line []byte
		if i < 0 {
			line, data = data, nil
		} else {
			line, data = data[:i], data[i+1:]
		}
		if len(line) > 0 {
			names = append(names, string(line))
		}
	}
	return names
}

// parseImports reads the paths out of a war3map.imp: a version word, a
// count, then per import a flag byte (version 1 and later) and a
// NUL-terminated path. The count is trusted only as far as the data goes.
func parseImports(data []byte) []string {
	if len(data) < 8 {
		return nil
	}
	version := binary.LittleEndian.Uint32(data)
	count := binary.LittleEndian.Uint32(data[4:])
	data = data[8:]
	var names []string
	for k := uint32(0); k < count && len(data) > 0; k++ {
		if version >= 1 {
			data = data[1:]
		}
		i := bytes.IndexByte(data, 0)
		if i < 0 {
			if len(data) > 0 {
				names = append(names, string(data))
			}
			break
		}
		if i > 0 {
			names = append(names, string(data[:i]))
		}
		data = data[i+1:]
	}
	return names
}
