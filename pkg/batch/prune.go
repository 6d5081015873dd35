package batch

import (
	"bufio"
	"encoding/json"
	"maps"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
)

// earlierFiles is what earlier runs say they wrote into an output folder:
// each output (and diff image) with the input it belongs to, and each
// cache record (of earlier versions) with its input. Only these files are
// ever pruned.
type earlierFiles struct {
	outputs map[string]string // slash path below the folder -> input key
	records map[string]string // record file name in CacheDir -> input key
}

// claims reads the journals, the manifests and the cache records of
// earlier versions in out.
func claims(out *atomicfile.Dir) *earlierFiles {
	e := &earlierFiles{outputs: map[string]string{}, records: map[string]string{}}
	claim := func(r *ModelResult) {
		for _, o := range r.Outputs {
			e.outputs[o.Path] = r.Input
		}
		for _, c := range r.Checks {
			if c.Diff != "" {
				e.outputs[c.Diff] = r.Input
			}
		}
	}
	ents, _ := out.ReadDir(CacheDir)
	for _, d := range ents {
		if ok, _ := path.Match("journal*.jsonl", d.Name()); ok {
			claimJournal(out, path.Join(CacheDir, d.Name()), claim)
			continue
		}
		if !strings.HasSuffix(d.Name(), ".json") {
			continue
		}
		b, err := out.ReadFile(path.Join(CacheDir, d.Name()))
		var rec struct {
			Result ModelResult `json:"result"`
		}
		if err != nil || json.Unmarshal(b, &rec) != nil || rec.Result.Input == "" {
			continue
		}
		e.records[d.Name()] = rec.Result.Input
		claim(&rec.Result)
	}
	top, _ := out.ReadDir(".")
	for _, d := range top {
		if ok, _ := path.Match("manifest*.json", d.Name()); !ok {
			continue
		}
		b, err := out.ReadFile(d.Name())
		if err != nil {
			continue
		}
		m, err := parseManifest(out.Path(d.Name()), b)
		if err != nil {
			continue
		}
		for i := range m.Models {
			claim(&m.Models[i])
		}
	}
	return e
}

// claimJournal claims the outputs of every model line of a journal.
func claimJournal(out *atomicfile.Dir, name string, claim func(r *ModelResult)) {
	f, err := out.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	for {
		line, err := readLine(br)
		if err != nil {
			return
		}
		k, ok := lineKey(line)
		if !ok {
			continue
		}
		var e journalEntry
		var r ModelResult
		if json.Unmarshal(line, &e) == nil && json.Unmarshal(e.Result, &r) == nil && r.Input == k {
			claim(&r)
		}
	}
}

// prune removes the files earlier runs wrote that this run does not
// produce: those of inputs no longer planned in any shard, and, for the
// inputs this run rendered, outputs they no longer have (a format or
// name template changed). Outputs of other shards' inputs and of models
// that failed this time are left alone, as is every file no record,
// journal or manifest names, and anything that is not a regular file
// inside out. It returns the removed paths, relative to out, sorted.
func prune(out *atomicfile.Dir, e *earlierFiles, all map[string]bool, results modelSource) []string {
	if e == nil {
		return nil
	}
	mine := map[string]bool{}
	failed := map[string]bool{}
	produced := map[string]bool{}
	results.each(func(r *ModelResult) error {
		mine[r.Input] = true
		if r.Status == StatusFailed {
			failed[r.Input] = true
		}
		for _, o := range r.Outputs {
			produced[o.Path] = true
		}
		for _, c := range r.Checks {
			produced[c.Diff] = true
		}
		return nil
	})
	var removed []string
	remove := func(rel string) {
		// A name that is not a path inside out is refused by out.
		if fi, err := out.Lstat(rel); err != nil || !fi.Mode().IsRegular() {
			return
		}
		if out.Remove(rel) == nil {
			removed = append(removed, rel)
			removeEmptyDirs(out, path.Dir(rel))
		}
	}
	paths := slices.Sorted(maps.Keys(e.outputs))
	for _, p := range paths {
		k := e.outputs[p]
		if produced[p] || all[k] && !(mine[k] && !failed[k]) {
			continue
		}
		remove(p)
	}
	// Cache records of earlier versions: the journal has taken their
	// place.
	names := slices.Sorted(maps.Keys(e.records))
	for _, n := range names {
		remove(path.Join(CacheDir, n))
	}
	sort.Strings(removed)
	return removed
}

// removeEmptyDirs removes the folder dir (a slash path below out) and
// its parents below out while they are empty.
func removeEmptyDirs(out *atomicfile.Dir, dir string) {
	for ; dir != "."; dir = path.Dir(dir) {
		if fi, err := out.Lstat(dir); err != nil || !fi.IsDir() {
			return
		}
		if out.Remove(dir) != nil { // not empty (or gone)
			return
		}
	}
}
