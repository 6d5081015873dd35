package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// CacheDir is the folder below the output folder that holds cache records.
const CacheDir = ".mdxrender-cache"

// cacheRecord is stored per input after all its outputs were written; its
// absence means "render again", so an interrupted model is redone.
type cacheRecord struct {
	Key    string      `json:"key"`
	Result ModelResult `json:"result"`
}

// cacheKey hashes everything that decides a model's outputs: the program
// version, the model bytes, each resolved texture's path and bytes, and the
// job's options and output names. Reading the dependencies is charged to
// the model's meter, as the render that reads them again is: a file over
// what the model may read is hashed as refused, unread.
func cacheKey(version string, data []byte, deps []texture.File, job *Job, stems []string, meter *budget.Meter) string {
	h := sha256.New()
	fmt.Fprintf(h, "mdxrender cache v2\x00%s\x00", version)
	m := sha256.Sum256(data)
	h.Write(m[:])
	for _, d := range deps {
		fmt.Fprintf(h, "dep\x00%s\x00", d)
		io.WriteString(h, hashDependency(d, meter))
	}
	opts, _ := json.Marshal(struct {
		Job   *Job
		Stems []string
	}{job, stems})
	h.Write(opts)
	return hex.EncodeToString(h.Sum(nil))
}

// hashDependency returns the hash of dependency d's bytes, or why it has
// none ("missing", "unreadable", "over budget").
func hashDependency(d texture.File, meter *budget.Meter) string {
	st, err := fs.Stat(d.Source.FS, d.Name)
	if err != nil || !st.Mode().IsRegular() {
		return "missing\x00"
	}
	if meter.ChargeRead(d.String(), st.Size()) != nil {
		return "over budget\x00"
	}
	f, err := d.Source.FS.Open(d.Name)
	if err != nil {
		return "missing\x00"
	}
	defer f.Close()
	fh := sha256.New()
	// At most what was charged, and a byte more to tell a file that grew.
	if _, err := io.Copy(fh, io.LimitReader(f, st.Size()+1)); err != nil {
		return "unreadable\x00"
	}
	return string(fh.Sum(nil))
}

// cacheName is the slash path of an input's cache record below the output
// folder.
func cacheName(inputKey string) string {
	s := sha256.Sum256([]byte(inputKey))
	return path.Join(CacheDir, hex.EncodeToString(s[:12])+".json")
}

// lookupCache returns the stored result if its key matches and every output
// it lists is still a file in the output folder.
func lookupCache(out *atomicfile.Dir, inputKey, key string) (*ModelResult, bool) {
	b, err := out.ReadFile(cacheName(inputKey))
	if err != nil {
		return nil, false
	}
	var rec cacheRecord
	if json.Unmarshal(b, &rec) != nil || rec.Key != key || rec.Result.Input != inputKey {
		return nil, false
	}
	for _, o := range rec.Result.Outputs {
		if fi, err := out.Lstat(o.Path); err != nil || !fi.Mode().IsRegular() {
			return nil, false
		}
	}
	return &rec.Result, true
}
