package pose

import (
	"fmt"
	"math"
	"strings"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// Pose holds one model's animated state at one Clock and camera. Create it
// once per model with New and call Update per frame: every buffer (node
// matrices, skinned vertices) is reused, so posing a frame allocates nothing
// per vertex.
type Pose struct {
	m     *mdx.Model
	nodes []*mdx.Node // Model.Nodes(): index = object id as MV uses it
	// parent[i] is the index of node i's parent, -1 for roots.
	parent []int
	// order lists node indices parents first (MV setupHierarchy).
	order []int
	pivot [][3]float64

	// world is every node's world matrix after Update, in Model.Nodes()
	// order.
	world []mat4
	wrot  []Rotation
	wscl  [][3]float64
	wloc  [][3]float64

	geos     []geoState
	hasBones bool
	clock    Clock
}

type geoState struct {
	// groups[g] is the [start, end) range of matrix group g in
	// MatrixIndices, truncated to 8 bones; ok is false for a geoset whose
	// group tables are inconsistent (rendered at rest).
	groups [][2]int
	skin   bool // Reforged SKIN weights
	gmat   []mat34
	gok    []bool
	pos    []mdx.Vec3
	nrm    []mdx.Vec3
	// tan and bin hold TangentFrames' result, allocated on first use.
	tan, bin []mdx.Vec3
}

// mat34 is a float32 affine matrix, rows of (x, y, z, translation).
type mat34 [12]float32

// CycleError reports a parent cycle in the node hierarchy.
type CycleError struct {
	// Nodes are the names (each cut to 40 bytes) and object ids of the
	// nodes on the cycle, the first repeated at the end.
	Nodes []string
}

// cycleShown is how many nodes of a long cycle the message names at each
// end: a hostile file's cycle of thousands of nodes makes a short message.
const cycleShown = 3

func (e *CycleError) Error() string {
	n := len(e.Nodes)
	if n <= 2*cycleShown+1 {
		return "pose: node parent cycle: " + strings.Join(e.Nodes, " -> ")
	}
	return fmt.Sprintf("pose: node parent cycle of %d nodes: %s -> ... %d more ... -> %s", n-1,
		strings.Join(e.Nodes[:cycleShown], " -> "), n-2*cycleShown, strings.Join(e.Nodes[n-cycleShown:], " -> "))
}

// nodeLabel names node v for a CycleError.
func (p *Pose) nodeLabel(v int) string {
	return fmt.Sprintf("%s (object %d)", clip.Quote(p.nodes[v].Name), v)
}

// New prepares a model for posing: it orders the node hierarchy (parents
// first, siblings in file order, as mdx-m3-viewer does), treats a node whose
// parent id does not exist as a root, and returns a *CycleError when parent
// ids form a cycle.
func New(m *mdx.Model) (*Pose, error) {
	p := &Pose{m: m, nodes: m.Nodes()}
	n := len(p.nodes)
	p.parent = make([]int, n)
	for i, nd := range p.nodes {
		pid := int(nd.ParentID)
		if pid < 0 || pid >= n || pid == i || nd.ParentID == nd.ObjectID {
			pid = -1 // dangling or self parent: a root (a deliberate deviation: docs/rendering.md#order-and-parents)
		}
		p.parent[i] = pid
	}
	if err := p.checkCycles(); err != nil {
		return nil, err
	}
	children := make([][]int, n+1)
	for i, pid := range p.parent {
		children[pid+1] = append(children[pid+1], i)
	}
	p.order = make([]int, 0, n)
	var walk func(pid int)
	walk = func(pid int) {
		for _, c := range children[pid+1] {
			p.order = append(p.order, c)
			walk(c)
		}
	}
	walk(-1)
	p.pivot = make([][3]float64, n)
	for i, nd := range p.nodes {
		// MV takes PIVT[objectId] with the node's own ObjectID field (while
		// parents and bones are looked up by position in Nodes()).
		if id := int(nd.ObjectID); id >= 0 && id < len(m.PivotPoints) {
			p.pivot[i] = v64(m.PivotPoints[id])
		}
	}
	p.world = make([]mat4, n)
	p.wrot = make([]Rotation, n)
	p.wscl = make([][3]float64, n)
	p.wloc = make([][3]float64, n)
	p.hasBones = len(m.Bones) > 0
	p.geos = make([]geoState, len(m.Geosets))
	for gi := range m.Geosets {
		p.geos[gi] = prepareGeoset(m, &m.Geosets[gi])
	}
	for i := range p.world {
		p.world[i] = identity
		p.wrot[i] = qident
		p.wscl[i] = [3]float64{1, 1, 1}
	}
	return p, nil
}

func (p *Pose) checkCycles() error {
	n := len(p.parent)
	state := make([]uint8, n) // 0 new, 1 on current path, 2 done
	for i := range p.parent {
		if state[i] != 0 {
			continue
		}
		var path []int
		j := i
		for j >= 0 && state[j] == 0 {
			state[j] = 1
			path = append(path, j)
			j = p.parent[j]
		}
		if j >= 0 && state[j] == 1 {
			var names []string
			start := 0
			for k, v := range path {
				if v == j {
					start = k
				}
			}
			for _, v := range path[start:] {
				names = append(names, p.nodeLabel(v))
			}
			names = append(names, p.nodeLabel(j))
			return &CycleError{Nodes: names}
		}
		for _, v := range path {
			state[v] = 2
		}
	}
	return nil
}

func prepareGeoset(m *mdx.Model, g *mdx.Geoset) geoState {
	gs := geoState{
		pos: make([]mdx.Vec3, len(g.Vertices)),
		nrm: make([]mdx.Vec3, len(g.Vertices)),
	}
	copy(gs.pos, g.Vertices)
	copy(gs.nrm, g.Normals)
	if m.Version > 800 && len(g.Skin) == 8*len(g.Vertices) && len(g.Vertices) > 0 {
		gs.skin = true
		return gs
	}
	off := 0
	for _, size := range g.MatrixGroups {
		end := off + int(size)
		if end > len(g.MatrixIndices) || end < off {
			// Inconsistent tables: the remaining groups have no bones.
			gs.groups = append(gs.groups, [2]int{0, 0})
			off = len(g.MatrixIndices)
			continue
		}
		e := end
		if e-off > 8 {
			e = off + 8 // MV's extended path uses at most 8 bones
		}
		gs.groups = append(gs.groups, [2]int{off, e})
		off = end
	}
	gs.gmat = make([]mat34, len(gs.groups))
	gs.gok = make([]bool, len(gs.groups))
	return gs
}

// Model returns the posed model.
func (p *Pose) Model() *mdx.Model { return p.m }

// Clock returns the clock of the last Update.
func (p *Pose) Clock() Clock { return p.clock }

// ClockAt returns the clock of a thumbnail at time ms into sequence seq:
// frame = start + ms, wrapped for a looping sequence longer than ms and
// clamped for a non-looping one, as the reference harness does; the global
// sequence counter is ms (docs/rendering.md#clock-of-a-still). seq -1 or out
// of range means no sequence.
func ClockAt(m *mdx.Model, seq int, ms float64) Clock {
	c := Clock{Sequence: -1, Global: ms}
	if seq < 0 || seq >= len(m.Sequences) {
		return c
	}
	s := &m.Sequences[seq]
	c.Sequence = seq
	length := float64(s.Interval[1]) - float64(s.Interval[0])
	t := ms
	if length <= 0 {
		t = 0
	} else if t > length {
		if s.NonLooping() {
			t = length
		} else {
			t = math.Mod(t, length)
		}
	}
	if t < 0 {
		t = 0
	}
	c.Frame = float64(s.Interval[0]) + t
	return c
}

// View is what billboarded nodes need to know about the camera: its
// world→view rotation (see LookRotation). The zero value means identity.
type View struct {
	Rotation Rotation
}

var (
	defT = mdx.Vec3{0, 0, 0}
	defS = mdx.Vec3{1, 1, 1}
	defR = mdx.Quat{0, 0, 0, 1}
)

// Update samples every node at clock c for a camera with the given view and
// recomputes world matrices and skinned vertices.
func (p *Pose) Update(c Clock, v View) {
	p.clock = c
	rot := v.Rotation
	if rot == (Rotation{}) {
		rot = qident
	}
	camInv := qconj(rot)
	camZ := qrot(camInv, [3]float64{0, 0, 1})
	// convertBasis = Ry(−π/2)·Rx(−π/2) (docs/rendering.md#billboards).
	basis := qmul(axisAngle([3]float64{0, 1, 0}, -math.Pi/2), axisAngle([3]float64{1, 0, 0}, -math.Pi/2))

	for _, i := range p.order {
		nd := p.nodes[i]
		lt := v64(Vec3(p.m, nd.Translation, c, defT, defT))
		lr := q64(Quat(p.m, nd.Rotation, c, defR, defR))
		ls := v64(Vec3(p.m, nd.Scaling, c, defS, defS))

		pw, pr, ps, pl := &identity, qident, [3]float64{1, 1, 1}, [3]float64{}
		if pi := p.parent[i]; pi >= 0 {
			pw, pr, ps, pl = &p.world[pi], p.wrot[pi], p.wscl[pi], p.wloc[pi]
		}
		cs := ls
		if nd.Flags&mdx.NodeDontInheritScaling != 0 {
			cs = [3]float64{ls[0] / ps[0], ls[1] / ps[1], ls[2] / ps[2]}
		}
		cr := lr
		switch {
		case nd.Flags&mdx.NodeBillboarded != 0:
			cr = qmul(qmul(qmul(qconj(pr), camInv), basis), lr)
		case nd.Flags&(mdx.NodeBillboardedLockX|mdx.NodeBillboardedLockY|mdx.NodeBillboardedLockZ) != 0:
			q := qmul(qconj(lr), qconj(pr))
			r := qrot(q, camZ)
			switch {
			case nd.Flags&mdx.NodeBillboardedLockX != 0:
				cr = qmul(lr, axisAngle([3]float64{1, 0, 0}, math.Atan2(r[2], r[1])))
				cs[2] = -cs[2] // MV/WS: found empirically (docs/rendering.md#billboards)
			case nd.Flags&mdx.NodeBillboardedLockY != 0:
				cr = qmul(lr, axisAngle([3]float64{0, 1, 0}, math.Atan2(-r[2], r[0])))
			default:
				cr = qmul(lr, axisAngle([3]float64{0, 0, 1}, math.Atan2(r[1], r[0])))
			}
		}
		if nd.Flags&mdx.NodeDontInheritRotation != 0 {
			// MV applies this after billboarding too.
			cr = qmul(qconj(pr), cr)
		}
		p.wscl[i] = [3]float64{ps[0] * cs[0], ps[1] * cs[1], ps[2] * cs[2]}
		cl := lt
		if nd.Flags&mdx.NodeDontInheritTranslation != 0 {
			// MV: −parent.worldLocation + (this node's previous world
			// location, zero for a stateless pose) + local location.
			cl = [3]float64{lt[0] - pl[0], lt[1] - pl[1], lt[2] - pl[2]}
		}
		local := trsOrigin(cr, cl, cs, p.pivot[i])
		p.world[i] = pw.Mul(&local)
		p.wrot[i] = qmul(pr, cr)
		p.wloc[i] = p.world[i].Point(p.pivot[i])
	}
	for gi := range p.geos {
		p.skinGeoset(gi)
	}
}

// WorldLocation returns where node i's pivot is after Update.
func (p *Pose) WorldLocation(i int) fauxgl.Vector { return vector(p.wloc[i]) }

// World returns node i's world matrix after Update (Model.Nodes() order).
func (p *Pose) World(i int) fauxgl.Matrix { return p.world[i].matrix() }

func toMat34(m *mat4) mat34 {
	return mat34{
		float32(m[0]), float32(m[4]), float32(m[8]), float32(m[12]),
		float32(m[1]), float32(m[5]), float32(m[9]), float32(m[13]),
		float32(m[2]), float32(m[6]), float32(m[10]), float32(m[14]),
	}
}

func (p *Pose) boneOK(idx uint32) bool { return int(idx) < len(p.world) }

func (p *Pose) skinGeoset(gi int) {
	g := &p.m.Geosets[gi]
	gs := &p.geos[gi]
	if !p.hasBones {
		return // MV skips skinning entirely: rest positions (docs/rendering.md#skinning)
	}
	if gs.skin {
		p.skinWeights(g, gs)
		return
	}
	for k, r := range gs.groups {
		var sum mat4
		n := 0
		for _, b := range g.MatrixIndices[r[0]:r[1]] {
			if !p.boneOK(b) {
				continue
			}
			w := &p.world[b]
			for e := range sum {
				sum[e] += w[e]
			}
			n++
		}
		gs.gok[k] = n > 0
		if n > 0 {
			inv := 1 / float64(n)
			for e := range sum {
				sum[e] *= inv
			}
			gs.gmat[k] = toMat34(&sum)
		}
	}
	for v, rest := range g.Vertices {
		gidx := -1
		if v < len(g.VertexGroups) {
			gidx = int(g.VertexGroups[v])
		}
		if gidx < 0 || gidx >= len(gs.groups) || !gs.gok[gidx] {
			// Deliberate deviation (docs/rendering.md#skinning): no bones keeps the rest position.
			gs.pos[v] = rest
			if v < len(g.Normals) {
				gs.nrm[v] = g.Normals[v]
			}
			continue
		}
		m := &gs.gmat[gidx]
		gs.pos[v] = xform(m, rest)
		if v < len(g.Normals) {
			gs.nrm[v] = normalize(xformDir(m, g.Normals[v]))
		}
	}
}

func (p *Pose) skinWeights(g *mdx.Geoset, gs *geoState) {
	for v, rest := range g.Vertices {
		m, ok := p.skinMatrix(g.Skin[v*8 : v*8+8])
		if !ok {
			// Rigid, as the retail shader treats a zero weight sum.
			gs.pos[v] = rest
			if v < len(g.Normals) {
				gs.nrm[v] = g.Normals[v]
			}
			continue
		}
		gs.pos[v] = xform(&m, rest)
		if v < len(g.Normals) {
			gs.nrm[v] = xformDir(&m, g.Normals[v]) // unnormalised, as MV's SKIN path
		}
	}
}

// skinMatrix is the SKIN matrix of one vertex's 8 bytes (4 bone indices,
// 4 weights out of 255): Σ (w/255)·World[bone]; ok is false when no weight
// names a bone (the vertex stays rigid).
func (p *Pose) skinMatrix(s []byte) (m mat34, ok bool) {
	for k := 0; k < 4; k++ {
		w := s[4+k]
		if w == 0 || !p.boneOK(uint32(s[k])) {
			continue
		}
		ok = true
		f := float32(w) / 255
		bm := toMat34(&p.world[s[k]])
		for e := range m {
			m[e] += f * bm[e]
		}
	}
	return m, ok
}

func xform(m *mat34, p mdx.Vec3) mdx.Vec3 {
	return mdx.Vec3{
		m[0]*p[0] + m[1]*p[1] + m[2]*p[2] + m[3],
		m[4]*p[0] + m[5]*p[1] + m[6]*p[2] + m[7],
		m[8]*p[0] + m[9]*p[1] + m[10]*p[2] + m[11],
	}
}

func xformDir(m *mat34, p mdx.Vec3) mdx.Vec3 {
	return mdx.Vec3{
		m[0]*p[0] + m[1]*p[1] + m[2]*p[2],
		m[4]*p[0] + m[5]*p[1] + m[6]*p[2],
		m[8]*p[0] + m[9]*p[1] + m[10]*p[2],
	}
}

func normalize(v mdx.Vec3) mdx.Vec3 {
	l := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
	if l == 0 {
		return v
	}
	return mdx.Vec3{v[0] / l, v[1] / l, v[2] / l}
}

// Vertices returns geoset gi's posed positions and normals after Update.
// The slices are owned by the Pose and overwritten by the next Update.
// Normals has one entry per vertex; vertices without a stored normal keep
// (0, 0, 0).
func (p *Pose) Vertices(gi int) (pos, nrm []mdx.Vec3) {
	return p.geos[gi].pos, p.geos[gi].nrm
}

// TangentFrames returns geoset gi's tangent and binormal per vertex at the
// last Update, built as the reference viewer's HD vertex shader builds them
// (docs/rendering.md#reforged-hd-materials): the stored tangent (TANG) made
// orthogonal to the stored normal and normalised, the binormal
// cross(normal, tangent) times the tangent's sign (its w), then both moved
// by the vertex's skin matrix as the normal is, without renormalising. ok
// is false when the geoset does not have one tangent per vertex. The
// slices are owned by the Pose and overwritten by the next call.
func (p *Pose) TangentFrames(gi int) (tan, bin []mdx.Vec3, ok bool) {
	g := &p.m.Geosets[gi]
	gs := &p.geos[gi]
	n := len(g.Vertices)
	if n == 0 || len(g.Tangents) != n {
		return nil, nil, false
	}
	if len(gs.tan) != n {
		gs.tan, gs.bin = make([]mdx.Vec3, n), make([]mdx.Vec3, n)
	}
	for v := range n {
		t4 := g.Tangents[v]
		var nr mdx.Vec3
		if v < len(g.Normals) {
			nr = g.Normals[v]
		}
		t := mdx.Vec3{t4[0], t4[1], t4[2]}
		d := t[0]*nr[0] + t[1]*nr[1] + t[2]*nr[2]
		t = normalize(mdx.Vec3{t[0] - d*nr[0], t[1] - d*nr[1], t[2] - d*nr[2]})
		b := mdx.Vec3{
			(nr[1]*t[2] - nr[2]*t[1]) * t4[3],
			(nr[2]*t[0] - nr[0]*t[2]) * t4[3],
			(nr[0]*t[1] - nr[1]*t[0]) * t4[3],
		}
		if m, ok := p.vertexMatrix(g, gs, v); ok {
			t, b = xformDir(&m, t), xformDir(&m, b)
		}
		gs.tan[v], gs.bin[v] = t, b
	}
	return gs.tan, gs.bin, true
}

// vertexMatrix returns the skin matrix that moved vertex v at the last
// Update (the weighted SKIN sum or its matrix group's average); ok is false
// for a vertex left at its rest position.
func (p *Pose) vertexMatrix(g *mdx.Geoset, gs *geoState, v int) (mat34, bool) {
	if !p.hasBones {
		return mat34{}, false
	}
	if gs.skin {
		return p.skinMatrix(g.Skin[v*8 : v*8+8])
	}
	gidx := -1
	if v < len(g.VertexGroups) {
		gidx = int(g.VertexGroups[v])
	}
	if gidx < 0 || gidx >= len(gs.groups) || !gs.gok[gidx] {
		return mat34{}, false
	}
	return gs.gmat[gidx], true
}
