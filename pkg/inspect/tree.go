package inspect

import (
	"fmt"
	"strconv"
)

// maxTreeIndent is the deepest level drawn with tree lines. Real models
// nest about 20 levels.
const maxTreeIndent = 40

// treeLine is one line of the node tree: which node, and the drawing in
// front of its name.
type treeLine struct {
	node   int
	prefix string
}

// layoutTree orders the nodes depth-first under their parents (resolved by
// ObjectID; the first node wins when ids repeat). Nodes whose parent does not
// exist, is themselves, or lies on a cycle become roots, with a note (one
// per node, "" for most), so every node is drawn exactly once and a cycle
// cannot loop. It reads only the nodes' ObjectID and ParentID, so the text
// writer can lay out the tree of a report again, even one read back from
// JSON.
func layoutTree(nodes []Node) (lines []treeLine, notes []string) {
	n := len(nodes)
	notes = make([]string, n)
	first := make(map[int32]int, n)
	for i := range nodes {
		if _, dup := first[nodes[i].ObjectID]; dup {
			notes[i] = "duplicate object id"
			continue
		}
		first[nodes[i].ObjectID] = i
	}
	parent := make([]int, n)
	for i := range nodes {
		parent[i] = -1
		pid := nodes[i].ParentID
		if pid == -1 {
			continue
		}
		p, ok := first[pid]
		switch {
		case !ok:
			notes[i] = joinNote(notes[i], fmt.Sprintf("parent %d not found", pid))
		case p == i:
			notes[i] = joinNote(notes[i], "parent is itself")
		default:
			parent[i] = p
		}
	}
	children := make([][]int, n)
	for i, p := range parent {
		if p >= 0 {
			children[p] = append(children[p], i)
		}
	}
	visited := make([]bool, n)
	walk := func(root int) {
		visited[root] = true
		lines = append(lines, treeLine{node: root})
		type item struct {
			node   int
			depth  int
			indent string // drawing in front of the node's branch
			last   bool
		}
		// An explicit stack keeps deep (hostile) hierarchies off the Go stack.
		var stack []item
		push := func(of, depth int, indent string) {
			kids := children[of]
			for k := len(kids) - 1; k >= 0; k-- {
				if !visited[kids[k]] {
					stack = append(stack, item{node: kids[k], depth: depth, indent: indent, last: k == len(kids)-1})
				}
			}
		}
		push(root, 1, "")
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if visited[it.node] {
				continue
			}
			visited[it.node] = true
			branch, more := "├─ ", "│  "
			if it.last {
				branch, more = "└─ ", "   "
			}
			if it.depth > maxTreeIndent {
				// Past this depth the drawing stops growing (a hostile chain
				// would make the output quadratic) and shows the depth.
				lines = append(lines, treeLine{node: it.node, prefix: it.indent + "[" + strconv.Itoa(it.depth) + "] "})
				push(it.node, it.depth+1, it.indent)
				continue
			}
			lines = append(lines, treeLine{node: it.node, prefix: it.indent + branch})
			push(it.node, it.depth+1, it.indent+more)
		}
	}
	for i := range nodes {
		if parent[i] < 0 {
			walk(i)
		}
	}
	// What is left hangs off a cycle: climb to a node on the cycle and show
	// the cycle from there.
	mark := make([]int, n)
	for i := range nodes {
		if visited[i] {
			continue
		}
		j := i
		for mark[j] != i+1 {
			mark[j] = i + 1
			j = parent[j]
		}
		notes[j] = joinNote(notes[j], "parent cycle")
		walk(j)
	}
	return lines, notes
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
