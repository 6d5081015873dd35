// Package budget is the resource budget of drawing one model from a file a
// stranger may have written: how much it may read, decode, simulate and
// draw. Every package that reads or works on such a file takes its limits
// from one Limits value and charges what it costs to one Meter per model,
// and every refusal is one *Error that names the file, the limit, the
// value asked for and the name (the command line's --limit key) that
// raises it.
//
// A Meter adds up what one model costs over all of its files: the model
// file and every texture and spawned model it reads (bytes, counted once
// decompressed), the texture pixels it decodes, and its simulation work.
// Sizes of one thing (a picture's samples, a progressive JPEG's scans) are
// checked against their limit on their own.
package budget

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits bounds what one model may cost. Every zero (or negative) field
// means its default (DefaultLimits); there is no "unlimited", only a larger
// number. The defaults sit far above what real models need and keep a
// hostile file to a few seconds of CPU and a few hundred megabytes.
type Limits struct {
	// ReadBytes bounds the bytes one model reads in all: its own file,
	// its textures and the models its emitters spawn, each counted once
	// and as it is once decompressed (an archive entry's declared size).
	// A file that does not fit in what is left is refused before it is
	// read.
	ReadBytes int64
	// Vertices and Triangles bound a model's geometry over all of its
	// geosets.
	Vertices, Triangles int64
	// TexturePixels bounds the texture pixels one model decodes, over all
	// of its textures and mip levels (4 bytes each), and what one decode
	// builds on the way (a JPEG decoder's planes, a 16-bit PNG's image).
	TexturePixels int64
	// JPEGScans bounds the scans of one progressive JPEG stream.
	JPEGScans int64
	// Particles, RibbonEdges and SpawnedVertices bound a model's live
	// particles and spawned models, ribbon edges, and the size of its live
	// spawned models: past them emission waits (a capped picture, with a
	// warning).
	Particles, RibbonEdges, SpawnedVertices int64
	// SimulationWork bounds a model's particle simulation work, in units
	// of 10-20 ns of CPU, over every simulation one call runs.
	SimulationWork int64
	// RenderPixels bounds one picture's samples: width × height × SSAA².
	RenderPixels int64
	// DrawWork bounds the drawing work of a model's pictures, in units of
	// 10-20 ns of CPU: posing its geometry, setting up its triangles,
	// clearing and resolving the samples and shading the fragments of
	// every frame (and the framing pass of a run of frames). One picture
	// is bounded by RenderPixels and Overdraw; many (a sprite sheet of a
	// heavy model) are bounded by this.
	DrawWork int64
	// Overdraw bounds the samples one frame's triangles cover, as a
	// multiple of the frame's samples; the triangles past it in drawing
	// order are left out (a capped picture, with a warning).
	Overdraw int64
	// ExtractBytes bounds what one archive extraction writes.
	ExtractBytes int64
}

// Kind names one limit. Its String is the limit's key, as the command
// line's --limit and a batch configuration's limits.* name it.
type Kind uint8

// The limits, in the order Names lists them.
const (
	ReadBytes Kind = iota
	Vertices
	Triangles
	TexturePixels
	JPEGScans
	Particles
	RibbonEdges
	SpawnedVertices
	SimulationWork
	RenderPixels
	DrawWork
	Overdraw
	ExtractBytes
	numKinds
)

// kinds describes each limit: its key, its default, the unit a value is
// counted in, and what it bounds, for help texts.
var kinds = [numKinds]struct {
	key  string
	def  int64
	unit string
	doc  string
}{
	ReadBytes:       {"read_bytes", 128 << 20, "bytes", "bytes a model reads: its file, textures and spawned models"},
	Vertices:        {"vertices", 512 << 10, "vertices", "a model's vertices"},
	Triangles:       {"triangles", 1 << 20, "triangles", "a model's triangles"},
	TexturePixels:   {"texture_pixels", 96 << 20, "pixels", "texture pixels a model decodes"},
	JPEGScans:       {"jpeg_scans", 100, "scans", "scans of one progressive JPEG"},
	Particles:       {"particles", 10_000, "particles", "live particles and spawned models"},
	RibbonEdges:     {"ribbon_edges", 20_000, "edges", "live ribbon edges"},
	SpawnedVertices: {"spawned_vertices", 1 << 20, "vertices", "size of the live spawned models"},
	SimulationWork:  {"simulation_work", 200_000_000, "work units", "particle simulation work"},
	RenderPixels:    {"render_pixels", 4096 * 4096, "samples", "samples of one picture"},
	DrawWork:        {"draw_work", 300_000_000, "work units", "drawing work of a model's pictures"},
	Overdraw:        {"overdraw", 512, "times the picture's samples", "coverage of one frame"},
	ExtractBytes:    {"extract_bytes", 1 << 30, "bytes", "bytes one archive extraction writes"},
}

// Kinds lists every limit, in order.
func Kinds() []Kind {
	out := make([]Kind, numKinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// String is the limit's key: "read_bytes", "texture_pixels", ...
func (k Kind) String() string {
	if k < numKinds {
		return kinds[k].key
	}
	return "limit(" + strconv.Itoa(int(k)) + ")"
}

// Default is the limit's default value.
func (k Kind) Default() int64 { return kinds[k].def }

// Unit is what the limit counts, for messages: "bytes", "pixels", ...
func (k Kind) Unit() string { return kinds[k].unit }

// Doc says in a few words what the limit bounds.
func (k Kind) Doc() string { return kinds[k].doc }

// Lookup returns the limit named key ("texture_pixels"; '-' may stand for
// '_').
func Lookup(key string) (Kind, bool) {
	key = strings.ReplaceAll(strings.TrimSpace(key), "-", "_")
	for i := range kinds {
		if kinds[i].key == key {
			return Kind(i), true
		}
	}
	return 0, false
}

// Names lists the limits' keys, in order.
func Names() []string {
	out := make([]string, numKinds)
	for i := range kinds {
		out[i] = kinds[i].key
	}
	return out
}

// field returns the field of l that holds limit k.
func (l *Limits) field(k Kind) *int64 {
	switch k {
	case ReadBytes:
		return &l.ReadBytes
	case Vertices:
		return &l.Vertices
	case Triangles:
		return &l.Triangles
	case TexturePixels:
		return &l.TexturePixels
	case JPEGScans:
		return &l.JPEGScans
	case Particles:
		return &l.Particles
	case RibbonEdges:
		return &l.RibbonEdges
	case SpawnedVertices:
		return &l.SpawnedVertices
	case SimulationWork:
		return &l.SimulationWork
	case RenderPixels:
		return &l.RenderPixels
	case DrawWork:
		return &l.DrawWork
	case Overdraw:
		return &l.Overdraw
	case ExtractBytes:
		return &l.ExtractBytes
	}
	panic("budget: unknown limit " + k.String())
}

// Get returns limit k, its default when l leaves it zero.
func (l Limits) Get(k Kind) int64 {
	if v := *l.field(k); v > 0 {
		return v
	}
	return k.Default()
}

// Set sets limit k to v (0 restores the default).
func (l *Limits) Set(k Kind, v int64) { *l.field(k) = max(v, 0) }

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	for _, k := range Kinds() {
		l.Set(k, l.Get(k))
	}
	return l
}

// DefaultLimits returns the Limits every zero field stands for.
func DefaultLimits() Limits { return Limits{}.WithDefaults() }

// Check refuses one value of limit k over the limit (a picture's samples,
// a stream's scans): what says what asked for v, file where it is.
func (l Limits) Check(k Kind, v int64, file, what string) error {
	if m := l.Get(k); v > m {
		return &Error{File: file, Limit: k, Max: m, Value: v, What: what}
	}
	return nil
}

// Error reports something refused because it would cost more than a
// limit allows. The file may be well formed: raising the limit (Limits,
// or --limit KEY=N on the command line) lets it through.
type Error struct {
	// File is the file the cost comes from ("archive:path" inside an
	// archive), "" when the cost is the whole model's.
	File string
	// Limit is the limit it passed.
	Limit Kind
	// Max is the limit's value; Value what was asked for in all: Used,
	// what the model had spent before, plus what this asked for.
	Max, Value, Used int64
	// What says what asked for it.
	What string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.What != "" {
		b.WriteString(e.What)
		b.WriteString(": ")
	}
	if e.Used > 0 {
		fmt.Fprintf(&b, "needs %s %s, %s in all with what was spent before, over the %s limit of %s",
			count(e.Value-e.Used), e.Limit.Unit(), count(e.Value), e.Limit, count(e.Max))
	} else {
		fmt.Fprintf(&b, "needs %s %s, over the %s limit of %s", count(e.Value), e.Limit.Unit(), e.Limit, count(e.Max))
	}
	return b.String()
}

// count writes n in full, with a binary or decimal suffix when it is a
// round number people would write that way (128Mi, 200M).
func count(n int64) string {
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if n >= u.mult && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
