package mdxrender

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/allocs"
	"github.com/mdxrender/mdxrender/internal/hostile"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// overBudget counts a render's over-budget warnings that name limit.
func overBudget(ws []Warning, limit budget.Kind) int {
	n := 0
	for _, w := range ws {
		if w.Code == render.OverBudget && strings.Contains(w.Message, limit.String()) {
			n++
		}
	}
	return n
}

// TestTexturesShareOneBudget is the hostile-input cases of many texture
// names that all lead to one large picture, in a map (one block, sixteen
// names) and as loose copies, at a small scale: each texture is within
// the limit on its own, but the model's textures together are held to
// it, so two are decoded and the rest are refused, each with a warning
// naming the limit.
func TestTexturesShareOneBudget(t *testing.T) {
	const n, side = 16, 256
	png := hostile.PNG(side, side, 8, hostile.PNGRGBA)
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("t%d.png", i))
	}
	mdl := hostile.MDLTexturedMany(names)
	// One picture with its mipmaps is side²·4/3 pixels: room for two.
	lim := Limits{TexturePixels: side * side * 4 / 3 * 5 / 2}

	dir := t.TempDir()
	list := "m.mdl\r\n" + strings.Join(names, "\r\n")
	blocks := []hostile.MPQBlock{{Data: mdl, Sectors: true}, {Data: png}, {Data: []byte(list)}}
	mnames := []hostile.MPQName{{Name: "m.mdl", Block: 0}, {Name: "(listfile)", Block: 2}}
	for _, p := range names {
		mnames = append(mnames, hostile.MPQName{Name: p, Block: 1})
		writeTestFile(t, dir, "loose/"+p, png)
	}
	writeTestFile(t, dir, "big.w3x", hostile.MPQ(3, blocks, mnames))
	loose := writeTestFile(t, dir, "loose/m.mdl", mdl)

	for _, path := range []string{dir + "/big.w3x:m.mdl", loose} {
		m, err := Open(path, &Options{Limits: lim})
		if err != nil {
			t.Fatal(err)
		}
		_, warns, err := m.Render(View{Width: 64})
		m.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got := overBudget(warns, budget.TexturePixels); got != n-2 {
			t.Errorf("%s: %d textures refused, want %d: %v", path, got, n-2, warns)
		}
		// The defaults decode them all.
		m, err = Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, warns, err := m.Render(View{Width: 64}); err != nil || overBudget(warns, budget.TexturePixels) != 0 {
			t.Errorf("%s at the defaults: %v %v", path, err, warns)
		}
		m.Close()
	}
}

// TestPaddedTexturesNotRead is the hostile-input case of small BLPs padded
// to hundreds of megabytes, at a small scale: a texture file larger than
// what the model may still read is refused before a byte of it is read,
// so the render allocates about what it is allowed to read, not what the
// files hold.
func TestPaddedTexturesNotRead(t *testing.T) {
	const n, pad = 8, 4 << 20
	blp := hostile.BLP1Streams(8, 8, hostile.BaselineJPEG(8, 8, 4))
	dir := t.TempDir()
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("b%d.blp", i))
		writeTestFile(t, dir, names[i], hostile.Padded(blp, pad))
	}
	path := writeTestFile(t, dir, "m.mdl", hostile.MDLTexturedMany(names))
	lim := Limits{ReadBytes: 2*pad + 64<<10} // the model and two textures
	var warns []Warning
	var err error
	alloc := allocs.Bytes(func() {
		var m *Model
		if m, err = Open(path, &Options{Limits: lim}); err == nil {
			_, warns, err = m.Render(View{Width: 64})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := overBudget(warns, budget.ReadBytes); got != n-2 {
		t.Errorf("%d textures refused, want %d: %v", got, n-2, warns)
	}
	if alloc > 4*pad {
		t.Errorf("allocated %d bytes for a budget of %d (the files hold %d)", alloc, lim.ReadBytes, n*pad)
	}
}
