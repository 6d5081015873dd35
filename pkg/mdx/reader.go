package mdx

import (
	"bytes"
	"fmt"
	"slices"
	"unsafe"
)

// reader walks the file's bytes with a sticky error: after the first
// failure every read returns zero and moves to the end, so parsers only need
// to check r.err before doing something irreversible (allocating, storing).
type reader struct {
	b     []byte
	pos   int
	end   int // bound of the current chunk or record
	err   error
	chunk uint32
}

func (r *reader) failf(off int, format string, args ...any) {
	if r.err == nil {
		r.err = &FormatError{Offset: int64(off), Chunk: tagString(r.chunk), Reason: fmt.Sprintf(format, args...)}
	}
	r.pos = r.end
}

func (r *reader) rem() int { return r.end - r.pos }

// need checks that n bytes remain for what.
func (r *reader) need(n int, what string) bool {
	if r.err != nil {
		return false
	}
	if n > r.end-r.pos {
		r.failf(r.pos, "%s needs %d bytes, %d remain", what, n, r.end-r.pos)
		return false
	}
	return true
}

func (r *reader) u32() uint32 {
	if r.end-r.pos < 4 {
		r.need(4, "field")
		return 0
	}
	v := le.Uint32(r.b[r.pos:])
	r.pos += 4
	return v
}

func (r *reader) i32() int32   { return int32(r.u32()) }
func (r *reader) f32() float32 { return f32bits(r.u32()) }

func (r *reader) vec3() Vec3 {
	if r.end-r.pos < 12 {
		r.need(12, "vector")
		return Vec3{}
	}
	v := getVec3(r.b[r.pos:])
	r.pos += 12
	return v
}

func (r *reader) extent() Extent {
	return Extent{BoundsRadius: r.f32(), Min: r.vec3(), Max: r.vec3()}
}

func (r *reader) peek() (uint32, bool) {
	if r.err != nil || r.end-r.pos < 4 {
		return 0, false
	}
	return le.Uint32(r.b[r.pos:]), true
}

// expect consumes a sub-chunk tag that must be there.
func (r *reader) expect(tag uint32) bool {
	t, ok := r.peek()
	if !ok {
		r.need(4, tagString(tag)+" tag")
		return false
	}
	if t != tag {
		r.failf(r.pos, "expected %s, found %q", tagString(tag), tagString(t))
		return false
	}
	r.pos += 4
	return true
}

// count reads nothing: it checks that n elements of elem bytes fit in what
// remains (the count itself was read just before, at r.pos-4).
func (r *reader) count(n uint32, elem int, what string) (int, bool) {
	if r.err != nil {
		return 0, false
	}
	rem := r.end - r.pos
	if uint64(n)*uint64(elem) > uint64(rem) {
		r.failf(r.pos-4, "%s count %d exceeds remaining %d bytes", what, n, rem)
		return 0, false
	}
	return int(n), true
}

// str reads a fixed-size NUL-padded string field. Bytes after the NUL that
// are not zero are remembered in rc (field index idx) for re-encoding.
func (r *reader) str(n int, rc *rec, idx int) string {
	if !r.need(n, "string") {
		return ""
	}
	b := r.b[r.pos : r.pos+n]
	r.pos += n
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return string(b)
	}
	for _, c := range b[i+1:] {
		if c != 0 {
			if rc.strs == nil {
				rc.strs = make(map[int][]byte, 1)
			}
			rc.strs[idx] = bytes.Clone(b)
			break
		}
	}
	return string(b[:i])
}

// sized starts a record with an inclusive u32 size and narrows the reader to
// it. It returns the previous bound for done.
func (r *reader) sized(what string, min int) (start, oldEnd int, ok bool) {
	start, oldEnd = r.pos, r.end
	size := r.u32()
	if r.err != nil {
		return start, oldEnd, false
	}
	if int64(size) < int64(min) {
		r.failf(start, "%s size %d is smaller than its fixed part (%d bytes)", what, size, min)
		return start, oldEnd, false
	}
	if int64(size) > int64(r.end-start) {
		r.failf(start, "%s size %d exceeds remaining %d bytes", what, size, r.end-start)
		return start, oldEnd, false
	}
	r.end = start + int(size)
	return start, oldEnd, true
}

// done ends a sized record: anything not consumed is kept in rc.tail.
func (r *reader) done(rc *rec, oldEnd int) {
	if r.err != nil {
		return
	}
	if r.pos < r.end {
		rc.tail = bytes.Clone(r.b[r.pos:r.end])
		r.pos = r.end
	}
	r.end = oldEnd
}

// tracks reads the track chunks that follow a record's fixed part until the
// record ends or a tag that is not in canon or that read does not accept
// (unknown or repeated). Those bytes stay for r.done.
func (r *reader) tracks(rc *rec, canon []uint32, read func(tag uint32) bool) {
	var buf [16]uint32
	ord := buf[:0]
	for r.err == nil && r.end-r.pos >= 4 && len(ord) < len(buf) {
		tag := le.Uint32(r.b[r.pos:])
		if !slices.Contains(canon, tag) || !read(tag) {
			break
		}
		ord = append(ord, tag)
	}
	if r.err == nil && !inOrder(ord, canon) {
		rc.order = append([]uint32(nil), ord...)
	}
}

// inOrder reports whether tags appear in canon's order.
func inOrder(tags, canon []uint32) bool {
	j := 0
	for _, t := range tags {
		for j < len(canon) && canon[j] != t {
			j++
		}
		if j == len(canon) {
			return false
		}
		j++
	}
	return true
}

// readTrack reads one track chunk (tag already peeked at r.pos).
func readTrack[T TrackValue](r *reader, get func([]byte) T, vsize int) *Track[T] {
	at := r.pos
	r.pos += 4
	n := r.u32()
	interp := Interpolation(r.u32())
	gs := r.i32()
	if r.err != nil {
		return nil
	}
	ksize := 4 + vsize
	if interp.HasTangents() {
		ksize += 2 * vsize
	}
	cnt, ok := r.keys(at, n, ksize)
	if !ok {
		return nil
	}
	t := &Track[T]{Interpolation: interp, GlobalSeqID: gs, Keys: make([]Key[T], cnt)}
	b := r.b[r.pos : r.pos+cnt*ksize]
	r.pos += cnt * ksize
	switch {
	case interp.HasTangents() && vsize == int(unsafe.Sizeof(t.Keys[0].Value)):
		// A key with tangents whose values are stored as they are held
		// (not a compressed quaternion) is laid out in the file as Key is
		// in memory, frame, value, in and out tangents, all 32-bit words
		// (TestKeyLayout): one copy on a little-endian machine instead
		// of three calls through get per key.
		fillWords(t.Keys, b, 4)
	case interp.HasTangents():
		for i := range t.Keys {
			k := &t.Keys[i]
			k.Frame = int32(le.Uint32(b))
			k.Value = get(b[4:])
			k.InTan = get(b[4+vsize:])
			k.OutTan = get(b[4+2*vsize:])
			b = b[ksize:]
		}
	default:
		for i := range t.Keys {
			k := &t.Keys[i]
			k.Frame = int32(le.Uint32(b))
			k.Value = get(b[4:])
			b = b[ksize:]
		}
	}
	return t
}

// keys checks the key count n of the track at at (read just before r.pos)
// against the bytes left, at ksize bytes a key, and the quota. It is count
// for keys, naming the track's tag only when there is an error to report:
// tracks are many.
func (r *reader) keys(at int, n uint32, ksize int) (int, bool) {
	if r.err != nil {
		return 0, false
	}
	if rem := r.end - r.pos; uint64(n)*uint64(ksize) > uint64(rem) {
		r.failf(r.pos-4, "%s key count %d exceeds remaining %d bytes", tagString(le.Uint32(r.b[at:])), n, rem)
		return 0, false
	}
	if int(n) > maxKeys {
		r.tooMany(at, "key count", int(n), maxKeys)
		return 0, false
	}
	return int(n), true
}

// tooMany fails on a count over one of the decoder's caps (maxRecords,
// maxKeys).
func (r *reader) tooMany(at int, what string, n, limit int) {
	r.failf(at, "%s %d is more than this decoder accepts (%d)", what, n, limit)
}

// take reads a track into *p unless one is there already (a repeated tag is
// treated as unknown so its bytes are kept raw).
func take[T TrackValue](r *reader, p **Track[T], get func([]byte) T, vsize int) bool {
	if *p != nil {
		return false
	}
	*p = readTrack(r, get, vsize)
	return true
}
