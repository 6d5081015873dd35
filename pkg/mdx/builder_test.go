package mdx

import (
	"encoding/binary"
	"math"
)

// bb builds MDX bytes by hand in tests, following the seed layouts, so the
// decoder is checked against the documents rather than against itself.
type bb struct{ b []byte }

func (w *bb) u32(vs ...uint32) *bb {
	for _, v := range vs {
		w.b = binary.LittleEndian.AppendUint32(w.b, v)
	}
	return w
}
func (w *bb) i32(v int32) *bb { return w.u32(uint32(v)) }
func (w *bb) f32(vs ...float32) *bb {
	for _, v := range vs {
		w.u32(math.Float32bits(v))
	}
	return w
}
func (w *bb) tag(s string) *bb  { w.b = append(w.b, s...); return w }
func (w *bb) raw(p ...byte) *bb { w.b = append(w.b, p...); return w }
func (w *bb) u16(v uint16) *bb  { w.b = binary.LittleEndian.AppendUint16(w.b, v); return w }
func (w *bb) str(s string, n int) *bb {
	p := make([]byte, n)
	copy(p, s)
	w.b = append(w.b, p...)
	return w
}

// sized appends an inclusive-size record built by f.
func (w *bb) sized(f func(*bb)) *bb {
	var in bb
	f(&in)
	return w.u32(uint32(len(in.b) + 4)).raw(in.b...)
}

// chunk appends a chunk header and the payload built by f.
func (w *bb) chunk(tag string, f func(*bb)) *bb {
	var in bb
	f(&in)
	return w.tag(tag).u32(uint32(len(in.b))).raw(in.b...)
}

// node appends a generic-object header with optional tracks.
func (w *bb) node(name string, id, parent int32, flags uint32, tracks func(*bb)) *bb {
	return w.sized(func(n *bb) {
		n.str(name, 80).i32(id).i32(parent).u32(flags)
		if tracks != nil {
			tracks(n)
		}
	})
}

// header starts a file: magic, VERS, and a MODL chunk.
func header(version uint32) *bb {
	w := &bb{}
	w.tag("MDLX").chunk("VERS", func(c *bb) { c.u32(version) })
	w.chunk("MODL", func(c *bb) {
		c.str("Test", 80).str("", 260).f32(5, -1, -2, -3, 1, 2, 3).u32(150)
	})
	return w
}

// floatTrack appends a float track chunk with keys (frame, value) and, for
// Hermite/Bezier, tangents value+1 and value+2.
func (w *bb) floatTrack(tag string, interp uint32, gs int32, keys ...float32) *bb {
	w.tag(tag).u32(uint32(len(keys)/2), interp).i32(gs)
	for i := 0; i+1 < len(keys); i += 2 {
		w.u32(uint32(int32(keys[i]))).f32(keys[i+1])
		if interp > 1 {
			w.f32(keys[i+1]+1, keys[i+1]+2)
		}
	}
	return w
}
