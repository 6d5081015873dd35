package render

import (
	"math"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/fogleman/fauxgl"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// Portraits (docs/rendering.md#portrait-cameras). The game shows a unit
// in its portrait through the camera of its portrait model (Name_Portrait.mdx
// beside the model) or, without one, through the model's own camera
// named like Portrait. A portrait model is drawn only through its camera:
// its geometry is a bust cut off at the shoulders, often before a
// backdrop plane far larger than the head, and from the orbit camera the
// backdrop is all that shows. So every picture of a portrait model whose
// View names no camera looks through it (DefaultCamera), and a
// command-card icon, which is the game's portrait picture, looks through
// a unit's portrait camera too (PortraitCamera). FitHead is for the many
// models without one: the automatic camera frames the head and shoulders
// instead of the whole model.

// OrbitCamera is the View.Camera that asks for the orbit camera whatever
// the model: a portrait model's picture is otherwise seen through its
// portrait camera (DefaultCamera). A model camera named "orbit" is still
// reached by its index.
const OrbitCamera = "orbit"

// IsPortraitModel reports whether name, a model's file name or path
// (a path inside an archive, "map.w3x:path/X_Portrait.mdx", too), names a
// portrait model: the game names them Name_Portrait, in any case.
func IsPortraitModel(name string) bool {
	s := strings.ReplaceAll(name, `\`, "/")
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		s = s[i+1:]
	}
	base := strings.ToLower(path.Base(s))
	return strings.HasSuffix(strings.TrimSuffix(base, path.Ext(base)), "_portrait")
}

// PortraitCamera returns the index of the camera the game's portrait of
// model m (read from the file name) looks through: the first camera
// whose name contains "portrait" (ignoring case), else, for a portrait
// model (IsPortraitModel), its first camera, whatever its name. ok is
// false when there is none.
func PortraitCamera(m *mdx.Model, name string) (i int, ok bool) {
	for i := range m.Cameras {
		if strings.Contains(strings.ToLower(m.Cameras[i].Name), "portrait") {
			return i, true
		}
	}
	if IsPortraitModel(name) && len(m.Cameras) > 0 {
		return 0, true
	}
	return 0, false
}

// DefaultCamera is the camera rule of every picture, whatever draws it
// (the library's View, render, batch, sheet): a View that names no camera
// and does not place the orbit camera itself (Distance, Target, a Fit
// other than FitVertices) shows a portrait model (IsPortraitModel)
// through its portrait camera (PortraitCamera), and every other model
// through the orbit camera (ok false). A unit's own camera named like
// Portrait is the game's portrait of it, a close-up of the head: icons
// use it, thumbnails show the whole unit.
func DefaultCamera(m *mdx.Model, name string) (i int, ok bool) {
	if !IsPortraitModel(name) {
		return 0, false
	}
	return PortraitCamera(m, name)
}

// PortraitSequence returns the sequence the game's portrait plays: the
// first named Portrait (ignoring case and surrounding spaces), else the
// first whose name starts so and is not a talking one ("Portrait Talk").
// name returns the name of sequence i of n; ok is false when there is
// none.
func PortraitSequence(n int, name func(i int) string) (int, bool) {
	for i := range n {
		if strings.EqualFold(strings.TrimSpace(name(i)), "portrait") {
			return i, true
		}
	}
	for i := range n {
		s := strings.ToLower(strings.TrimSpace(name(i)))
		if strings.HasPrefix(s, "portrait") && !strings.Contains(s, "talk") {
			return i, true
		}
	}
	return 0, false
}

// modelCamera is the model camera a picture with v is drawn through, by
// name or index, or "" for the orbit camera: v's own choice, else the
// rule of DefaultCamera.
func (a *Animator) modelCamera(v *View) string { return ModelCamera(a.m, a.name, v) }

// ModelCamera is the model camera a picture of m (read from the file
// name) with v is drawn through, by name or index as View.Camera names
// it, or "" for the orbit camera: v's own choice, else the rule of
// DefaultCamera. Through a model camera, v's Yaw and Pitch are not used.
func ModelCamera(m *mdx.Model, name string, v *View) string {
	switch {
	case v.Camera == OrbitCamera:
		return ""
	case v.Camera != "":
		return v.Camera
	case v.explicit() || v.Fit != FitVertices:
		return ""
	}
	if i, ok := DefaultCamera(m, name); ok {
		return strconv.Itoa(i)
	}
	return ""
}

// headNode returns the node a model's head is at: the first bone whose
// name has the word "head" in it ("Head", "bone_head", "Bip01 Head"),
// else the first other node so named (an attachment "Head Ref"); never
// "OverHead Ref", which floats above the unit for effects, nor a word
// that merely ends in head ("bone_lionhead_L"). ok is false when there
// is none.
func headNode(m *mdx.Model) (i int, ok bool) {
	nodes := m.Nodes()
	first := -1
	for i, n := range nodes {
		if !hasWord(n.Name, "head") || strings.Contains(strings.ToLower(n.Name), "overhead") {
			continue
		}
		if i < len(m.Bones) {
			return i, true
		}
		if first < 0 {
			first = i
		}
	}
	return first, first >= 0
}

// hasWord reports whether name has w as one of its words, split at
// anything not a letter or digit and at lower-to-upper case changes
// ("BoneHead" has "head").
func hasWord(name, w string) bool {
	var word []rune
	flush := func() bool {
		ok := strings.EqualFold(string(word), w)
		word = word[:0]
		return ok
	}
	prev := rune(0)
	for _, c := range name {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) || unicode.IsUpper(c) && unicode.IsLower(prev) {
			if flush() {
				return true
			}
		}
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			word = append(word, c)
		}
		prev = c
	}
	return flush()
}

// Proportions of the head-and-shoulders region, in head sizes: the
// shoulders reach 1.6 below the head's point (the neck, for most
// models), the crown at most 2.2 above it (room for a large head or a
// helmet; a raised weapon is cut), and 1.6 to each side, which keeps the
// picture about square and lets broad shoulders run out of it, as the
// game's portraits do.
const (
	headBelow = 1.6
	headAbove = 2.2
	headSide  = 1.6
)

// headGuess is where the head's point is put, below the top of what is
// drawn, in shares of the model's height, when no node says: a little
// above the neck of a standing figure, whose head is about an eighth of
// its height.
const headGuess = 0.18

// headShare is a head's size in shares of the height of its point
// above the ground: a standing figure's head is about a seventh of what
// is below it. The height of what is drawn above the head says less: a
// hat, a halo or a raised weapon often stands far above it.
const headShare = 0.15

// headPoints calls add with the points of what the frame draws that lie
// in its head-and-shoulders region: around the head node's posed
// position when the model has one inside what is drawn, else around the
// top of the silhouette (headGuess below it). The head's size is
// headShare of that point's height above the lowest point drawn, kept
// between 6% and 20% of the model's height. A region that
// holds too little of the model (under 2% of its points) gives way to the
// whole model.
func (r *frame) headPoints(dir fauxgl.Vector, add func([3]float32)) {
	var pts [][3]float32
	var box boxAcc
	r.drawnPoints(dir, func(p [3]float32) {
		pts = append(pts, p)
		box.add(p)
	})
	b, ok := box.box()
	if !ok {
		for _, p := range pts {
			add(p)
		}
		return
	}
	h := b.Max.Z - b.Min.Z
	if h <= 0 {
		h = math.Max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y)
	}
	head, found := fauxgl.Vector{}, false
	if i, ok := headNode(r.m); ok {
		head = r.p.WorldLocation(i)
		found = b.Offset(0.05 * h).Contains(head)
	}
	if !found {
		// The top of the silhouette: the mean place of the highest tenth.
		top := b.Max.Z - 0.1*h
		var sx, sy float64
		n := 0
		for _, p := range pts {
			if float64(p[2]) >= top {
				sx += float64(p[0])
				sy += float64(p[1])
				n++
			}
		}
		head = fauxgl.V(sx/float64(n), sy/float64(n), b.Max.Z-headGuess*h)
	}
	s := math.Max(0.06*h, math.Min(0.2*h, headShare*(head.Z-b.Min.Z)))
	in := func(p [3]float32) bool {
		x, y, z := float64(p[0])-head.X, float64(p[1])-head.Y, float64(p[2])-head.Z
		return z >= -headBelow*s && z <= headAbove*s && x*x+y*y <= headSide*headSide*s*s
	}
	n := 0
	for _, p := range pts {
		if in(p) {
			n++
		}
	}
	whole := n < max(3, len(pts)/50)
	for _, p := range pts {
		if whole || in(p) {
			add(p)
		}
	}
}
