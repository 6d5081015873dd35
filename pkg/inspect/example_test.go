package inspect_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/inspect"
	"github.com/mdxrender/mdxrender/pkg/model"
)

// A report is built from a loaded model file and written as text.
func Example() {
	b, err := os.ReadFile("testdata/box.mdl")
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := model.Load(b, "box.mdl", budget.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := inspect.Build(f, "box.mdl")
	if err := r.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// box.mdl
	//   format      MDL, version 800, 1390 bytes
	//   name        Box
	//   blend time  150 ms
	//   extent      min (-1, -1, 0)  max (1, 1, 2)  radius 1.5
	//
	// Counts
	//   geosets  1   vertices  4   faces         2   materials  1
	//   layers   2   textures  2   sequences     2   nodes      2
	//   bones    1   helpers   1   pivot points  2
	//
	// Sequences (2)
	//   #  name   start  end   length  play  move speed  rarity
	//   0  Stand  0      1000  1000    loop  0           0
	//   1  Death  1000   1500  500     once  0           0
	//
	// Textures (2)
	//   0  Textures\Box.blp
	//   1  replaceable 1 (team colour)
	//
	// Materials (1)
	//   0  priority 0
	//        layer 0  None      texture 1  alpha 1
	//        layer 1  Additive  texture 0  alpha 1  Unshaded,TwoSided
	//
	// Geosets (1)
	//   #  vertices  faces  material  uv sets  groups
	//   0  4         2      0         1        1
	//
	// Nodes (2): tree by parent; id, type, animated tracks (T R S V), flags
	//   Root    0  bone    R
	//   └─ Lid  1  helper     Billboarded
}

// The JSON form is the exported struct as encoding/json writes it.
func Example_json() {
	data, err := os.ReadFile("testdata/box.mdl")
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := model.Load(data, "box.mdl", budget.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := inspect.Build(f, "box.mdl")
	b, err := json.Marshal(r.Materials[0].Layers[1])
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))
	b, _ = json.Marshal(r.Nodes[1])
	fmt.Println(string(b))
	// Output:
	// {"filter_mode":"Additive","flags":17,"flag_names":["Unshaded","TwoSided"],"texture_id":0,"texture_anim_id":-1,"coord_id":0,"alpha":1,"animated":[]}
	// {"type":"helper","name":"Lid","object_id":1,"parent_id":0,"flags":8,"flag_names":["Billboarded"],"animated":[],"tree_note":""}
}
