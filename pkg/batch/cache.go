package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// CacheDir is the folder below the output folder that holds the batch's
// lock (and, from earlier versions, per-model cache records, which
// --prune removes).
const CacheDir = ".mdxrender-cache"

// cacheKey hashes everything that decides a model's outputs: the program
// version, the model bytes (model is their SHA-256), each resolved
// texture's path and bytes, and the job's options and output names (opts,
// jobOptions). Reading the dependencies is charged to the model's meter,
// as the render that reads them again is: a file over what the model may
// read is hashed as refused, unread.
func cacheKey(version string, model [sha256.Size]byte, deps []texture.File, opts []byte, st *stamper, meter *budget.Meter) string {
	h := sha256.New()
	fmt.Fprintf(h, "mdxrender cache v2\x00%s\x00", version)
	h.Write(model[:])
	for _, d := range deps {
		fmt.Fprintf(h, "dep\x00%s\x00", d)
		io.WriteString(h, st.hashDependency(d, meter))
	}
	h.Write(opts)
	return hex.EncodeToString(h.Sum(nil))
}
