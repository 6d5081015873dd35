package texture_test

import (
	"fmt"

	"github.com/mdxrender/mdxrender/pkg/texture"
)

// A model's team-colour layer names no file, only replaceable id 1. With
// no ReplaceableTextures folder under the roots, the player's built-in
// colour is used, without a warning.
func ExampleResolver_Load() {
	r := &texture.Resolver{Cache: texture.NewCache(64 << 20)}
	model := []texture.Source{texture.Folder("testdata/no-such-model-dir")}
	tex, warns := r.Load(texture.Request{Local: model, ReplaceableID: texture.ReplaceableTeamColor, Team: texture.Player(2)})
	fmt.Println(tex.Format, tex.Width(), tex.Height(), len(warns))
	fmt.Printf("%.3f\n", tex.Sample(0.5, 0.5, 0))

	// A path that tries to leave the roots is refused with a warning.
	_, warns = r.Load(texture.Request{Local: model, Path: `..\..\secrets.blp`})
	fmt.Println(warns[0])
	// Output:
	// synthetic 8 8 0
	// [0.110 0.902 0.725 1.000]
	// texture "..\\..\\secrets.blp": ".." component refused
}

func ExampleReplaceablePath() {
	p, _ := texture.ReplaceablePath(texture.ReplaceableTeamGlow, 7, false)
	fmt.Println(p)
	// Output: ReplaceableTextures\TeamGlow\TeamGlow07.blp
}
