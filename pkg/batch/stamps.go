package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mpq"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// A stamp tells whether a file or folder on disk changed: its size,
// modification time and inode, as make and git tell. A model's stamps
// (the model file, the files its result came from, the folders whose
// listings decided where they were found) let a later run reuse the
// result without reading any of them. A change that keeps all three (a
// file rewritten in place within the clock's resolution, with the same
// size, or a modification time set back by hand) is not seen; --force
// renders everything again.

// stampOf stamps the file or folder name on disk: "" when it cannot be
// stat'ed (a stamp that never matches a later one).
func stampOf(name string) string {
	st, err := os.Stat(name)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d.%d.%d", st.Size(), st.ModTime().UnixNano(), inode(st))
}

// placeOf returns the file on disk whose stamp tells whether name in src
// changed: the file (or folder) itself in a folder, the archive for a
// file in one; ok is false for other file systems.
func placeOf(src texture.Source, name string) (string, bool) {
	if p, ok := src.OnDisk(name); ok {
		return p, true
	}
	if a, ok := src.FS.(*mpq.Archive); ok {
		return a.Name(), true
	}
	return "", false
}

// inputPlace is placeOf for a model input.
func inputPlace(in *Input) (string, bool) {
	switch {
	case in.Entry != nil || in.FS != nil:
		if a, ok := in.FS.(*mpq.Archive); ok {
			return a.Name(), true
		}
		return "", false
	default:
		return in.Path, true
	}
}

// stamper stamps the files and folders models share (textures, their
// folders, archives) once per run, and hashes each texture once: a
// batch of models that use the same textures reads them for the cache
// once, not once per model. The first stamp of a place is taken before
// anything of it is read, so a change while the batch runs leaves a
// stamp older than what was read, and the next run reads it again.
type stamper struct {
	mu     sync.Mutex
	stamps map[string]string
	hashes map[string]string // by place and stamp
}

func (s *stamper) stamp(place string) string {
	s.mu.Lock()
	st, ok := s.stamps[place]
	s.mu.Unlock()
	if ok {
		return st
	}
	st = stampOf(place)
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.stamps[place]; ok {
		return old
	}
	if s.stamps == nil {
		s.stamps = map[string]string{}
	}
	s.stamps[place] = st
	return st
}

// modelStamps stamps what a model's result came from: its file (stamped
// anew: each model file is read once), its dependencies and the folders
// searched for them. ok is false when one of them is not on disk.
func (s *stamper) modelStamps(model string, info *ModelInfo) ([]string, bool) {
	out := []string{"m " + model}
	for _, d := range info.Dependencies {
		p, ok := placeOf(d.Source, d.Name)
		if !ok {
			return nil, false
		}
		out = append(out, "f "+s.stamp(p)+" "+p)
	}
	for _, d := range info.Searched {
		p, ok := placeOf(d.Source, d.Name)
		if !ok {
			return nil, false
		}
		out = append(out, "d "+s.stamp(p)+" "+p)
	}
	return out, true
}

// current reports whether stamps, as modelStamps made them for the
// model file stamped model, still hold.
func (s *stamper) current(model string, stamps []string) bool {
	if len(stamps) == 0 || stamps[0] != "m "+model || model == "" {
		return false
	}
	for _, st := range stamps[1:] {
		// "f STAMP PLACE" or "d STAMP PLACE"; a stamp holds no space.
		if len(st) < 2 {
			return false
		}
		rest := st[2:]
		i := 0
		for i < len(rest) && rest[i] != ' ' {
			i++
		}
		if i == 0 || i == len(rest) {
			return false
		}
		if s.stamp(rest[i+1:]) != rest[:i] {
			return false
		}
	}
	return true
}

// hashDependency returns the hash of dependency d's bytes, or why it has
// none ("missing", "unreadable", "over budget"), charging the read to
// meter. A file on disk or in an archive is hashed once per run, by its
// stamp.
func (s *stamper) hashDependency(d texture.File, meter *budget.Meter) string {
	st, err := fs.Stat(d.Source.FS, d.Name)
	if err != nil || !st.Mode().IsRegular() {
		return "missing\x00"
	}
	if meter.ChargeRead(d.String(), st.Size()) != nil {
		return "over budget\x00"
	}
	key := ""
	if p, ok := placeOf(d.Source, d.Name); ok {
		key = s.stamp(p) + "\x00" + d.String()
		s.mu.Lock()
		h, ok := s.hashes[key]
		s.mu.Unlock()
		if ok {
			return h
		}
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
	h := string(fh.Sum(nil))
	if key != "" {
		s.mu.Lock()
		if s.hashes == nil {
			s.hashes = map[string]string{}
		}
		s.hashes[key] = h
		s.mu.Unlock()
	}
	return h
}

// jobHash hashes what decides a model's outputs besides the files: the
// program version, the job's options and its output names. A line of
// the journal whose jobHash and stamps still hold is the model's result.
func jobHash(version string, opts []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "mdxrender job v1\x00%s\x00", version)
	h.Write(opts)
	return hex.EncodeToString(h.Sum(nil))
}

// jobOptions encodes a job's options and output names for jobHash and
// cacheKey.
func jobOptions(job *Job, stems []string) []byte {
	b, _ := json.Marshal(struct {
		Job   *Job
		Stems []string
	}{job, stems})
	return b
}
