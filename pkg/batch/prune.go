package batch

import (
	"encoding/json"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// earlierFiles is what earlier runs say they wrote into an output folder:
// each output (and diff image) with the input it belongs to, and each
// cache record with its input. Only these files are ever pruned.
type earlierFiles struct {
	outputs map[string]string // slash path below the folder -> input key
	records map[string]string // record file name in CacheDir -> input key
}

// claims reads the cache records and the manifests in out.
func claims(out string) *earlierFiles {
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
	ents, _ := os.ReadDir(filepath.Join(out, CacheDir))
	for _, d := range ents {
		if !strings.HasSuffix(d.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(out, CacheDir, d.Name()))
		var rec cacheRecord
		if err != nil || json.Unmarshal(b, &rec) != nil || rec.Result.Input == "" {
			continue
		}
		e.records[d.Name()] = rec.Result.Input
		claim(&rec.Result)
	}
	ms, _ := filepath.Glob(filepath.Join(out, "manifest*.json"))
	for _, p := range ms {
		m, err := ReadManifest(p)
		if err != nil {
			continue
		}
		for i := range m.Models {
			claim(&m.Models[i])
		}
	}
	return e
}

// prune removes the files earlier runs wrote that this run does not
// produce: those of inputs no longer planned in any shard, and, for the
// inputs this run rendered, outputs they no longer have (a format or
// name template changed). Outputs of other shards' inputs and of models
// that failed this time are left alone, as is every file no record or
// manifest names, and anything that is not a regular file inside out. It
// returns the removed paths, relative to out, sorted.
func prune(out string, e *earlierFiles, all map[string]bool, jobs []Job, results []ModelResult) []string {
	if e == nil {
		return nil
	}
	mine := map[string]bool{}
	for _, j := range jobs {
		mine[j.Input.Key] = true
	}
	failed := map[string]bool{}
	produced := map[string]bool{}
	for i := range results {
		r := &results[i]
		if r.Status == StatusFailed {
			failed[r.Input] = true
		}
		for _, o := range r.Outputs {
			produced[o.Path] = true
		}
		for _, c := range r.Checks {
			produced[c.Diff] = true
		}
	}
	var removed []string
	remove := func(rel string) {
		p := filepath.FromSlash(rel)
		if !filepath.IsLocal(p) {
			return
		}
		full := filepath.Join(out, p)
		if fi, err := os.Lstat(full); err != nil || !fi.Mode().IsRegular() {
			return
		}
		if os.Remove(full) == nil {
			removed = append(removed, rel)
			removeEmptyDirs(out, filepath.Dir(full))
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
	names := slices.Sorted(maps.Keys(e.records))
	for _, n := range names {
		if !all[e.records[n]] {
			remove(path.Join(CacheDir, n))
		}
	}
	sort.Strings(removed)
	return removed
}

// removeEmptyDirs removes dir and its parents up to (not including) out
// while they are empty.
func removeEmptyDirs(out, dir string) {
	for {
		rel, err := filepath.Rel(out, dir)
		if err != nil || rel == "." || !filepath.IsLocal(rel) {
			return
		}
		if os.Remove(dir) != nil { // not empty (or gone)
			return
		}
		dir = filepath.Dir(dir)
	}
}
