package hostile

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// mdlHeader writes the Version and Model blocks of an MDL file.
func mdlHeader(w *bytes.Buffer, name string) {
	fmt.Fprintf(w, "// %s: a hostile-input case made by internal/hostile\n", name)
	fmt.Fprintf(w, "Version {\n\tFormatVersion 800,\n}\nModel %q {\n\tBlendTime 150,\n}\n", name)
}

// rootBone is the bone, object 0, every case's geoset hangs on, and
// onePivot its pivot point when it is the only node.
const (
	rootBone = "Bone \"Root\" {\n\tObjectId 0,\n\tGeosetId 0,\n\tGeosetAnimId None,\n}\n"
	onePivot = "PivotPoints 1 {\n\t{ 0, 0, 0 },\n}\n"
)

// MDLGeometry returns an MDL model with one geoset of the given numbers
// of vertices and triangles, each list written on a single line (a 100 MB
// line holds about 6.5 million vertices). Every triangle names vertices
// 0, 1 and 2.
func MDLGeometry(vertices, triangles int) []byte {
	var w bytes.Buffer
	mdlHeader(&w, "geometry")
	w.WriteString("Sequences 1 {\n\tAnim \"Stand\" {\n\t\tInterval { 0, 1000 },\n\t}\n}\n")
	w.WriteString("Materials 1 {\n\tMaterial {\n\t\tLayer {\n\t\t\tFilterMode None,\n\t\t\tstatic TextureID 0,\n\t\t}\n\t}\n}\n")
	w.WriteString("Textures 1 {\n\tBitmap {\n\t\tImage \"\",\n\t\tReplaceableId 1,\n\t}\n}\n")
	fmt.Fprintf(&w, "Geoset {\n\tVertices %d {", vertices)
	var buf []byte
	for i := range vertices {
		// Points on a 100×100 grid, so the model has a size.
		buf = append(buf[:0], " { "...)
		buf = strconv.AppendInt(buf, int64(i%100), 10)
		buf = append(buf, ", "...)
		buf = strconv.AppendInt(buf, int64(i/100%100), 10)
		buf = append(buf, ", 0 },"...)
		w.Write(buf)
	}
	w.WriteString(" }\n")
	fmt.Fprintf(&w, "\tFaces 1 %d {\n\t\tTriangles {\n\t\t\t{", 3*triangles)
	for range triangles {
		w.WriteString(" 0, 1, 2,")
	}
	w.WriteString(" },\n\t\t}\n\t}\n")
	w.WriteString("\tGroups 1 1 {\n\t\tMatrices { 0 },\n\t}\n\tMaterialID 0,\n}\n")
	w.WriteString(rootBone + onePivot)
	return w.Bytes()
}

// Emitters configures the particle cases.
type Emitters struct {
	PRE2    int     // PRE2 emitters
	Ribbons int     // ribbon emitters
	PREM    int     // PREM emitters, spawning SpawnPath
	Rate    float64 // emission rate of every emitter, per second
	Life    float64 // lifespan of every particle, seconds
	// SpawnPath is the model PREM emitters spawn (see MDLSpawned).
	SpawnPath string
}

// MDLEmitters returns a model with one bone, a small quad geoset and the
// emitters e asks for, all on the bone at the origin: a "particle storm"
// when the rate and lifespan are extreme (the pre-roll of a looping
// sequence is one lifespan, up to ten minutes).
func MDLEmitters(name string, e Emitters) []byte {
	var w bytes.Buffer
	mdlHeader(&w, name)
	teamColourMaterial(&w, "Stand", "None")
	w.WriteString(quadGeoset)
	w.WriteString(rootBone)
	id := 1
	for i := range e.PREM {
		fmt.Fprintf(&w, "ParticleEmitter \"Spawner%d\" {\n\tObjectId %d,\n\tParent 0,\n\tEmitterUsesMDL,\n", i, id)
		fmt.Fprintf(&w, "\tstatic EmissionRate %g,\n\tstatic Gravity 0,\n\tstatic Longitude 0,\n\tstatic Latitude 3,\n", e.Rate)
		fmt.Fprintf(&w, "\tParticle {\n\t\tstatic LifeSpan %g,\n\t\tstatic InitVelocity 30,\n\t\tPath %q,\n\t}\n}\n", e.Life, e.SpawnPath)
		id++
	}
	for i := range e.PRE2 {
		fmt.Fprintf(&w, "ParticleEmitter2 \"Storm%d\" {\n\tObjectId %d,\n\tParent 0,\n", i, id)
		fmt.Fprintf(&w, "\tstatic Speed 100,\n\tstatic Variation 1,\n\tstatic Latitude 180,\n\tstatic Gravity 0,\n\tLifeSpan %g,\n", e.Life)
		fmt.Fprintf(&w, "\tstatic EmissionRate %g,\n\tstatic Width 50,\n\tstatic Length 50,\n\tBlend,\n\tRows 1,\n\tColumns 1,\n\tHead,\n", e.Rate)
		w.WriteString("\tTailLength 0,\n\tTime 0.5,\n\tSegmentColor {\n\t\tColor { 1, 1, 1 },\n\t\tColor { 1, 1, 1 },\n\t\tColor { 1, 1, 1 },\n\t}\n")
		w.WriteString("\tAlpha { 255, 255, 255 },\n\tParticleScaling { 10, 10, 10 },\n\tLifeSpanUVAnim { 0, 0, 1 },\n\tDecayUVAnim { 0, 0, 1 },\n")
		w.WriteString("\tTailUVAnim { 0, 0, 1 },\n\tTailDecayUVAnim { 0, 0, 1 },\n\tTextureID 0,\n}\n")
		id++
	}
	for i := range e.Ribbons {
		fmt.Fprintf(&w, "RibbonEmitter \"Ribbon%d\" {\n\tObjectId %d,\n\tParent 0,\n", i, id)
		w.WriteString("\tstatic HeightAbove 20,\n\tstatic HeightBelow 20,\n\tstatic Alpha 1,\n\tstatic Color { 1, 1, 1 },\n\tstatic TextureSlot 0,\n")
		fmt.Fprintf(&w, "\tEmissionRate %d,\n\tLifeSpan %g,\n\tGravity 10,\n\tRows 1,\n\tColumns 1,\n\tMaterialID 0,\n}\n", int64(e.Rate), e.Life)
		id++
	}
	originPivots(&w, id)
	return w.Bytes()
}

// MDLSpawned returns a model for PREM emitters to spawn: one geoset of
// the given number of vertices (a strip of triangles) on one bone.
func MDLSpawned(vertices int) []byte {
	var w bytes.Buffer
	mdlHeader(&w, "spawned")
	teamColourMaterial(&w, "Birth", "Blend")
	fmt.Fprintf(&w, "Geoset {\n\tVertices %d {\n", vertices)
	for i := range vertices {
		fmt.Fprintf(&w, "\t\t{ %d, %d, 0 },\n", i/2, i%2*4)
	}
	w.WriteString("\t}\n\tVertexGroup {\n")
	for range vertices {
		w.WriteString("\t\t0,\n")
	}
	tris := max(vertices-2, 0)
	fmt.Fprintf(&w, "\t}\n\tFaces 1 %d {\n\t\tTriangles {\n\t\t\t{", 3*tris)
	for i := range tris {
		fmt.Fprintf(&w, " %d, %d, %d,", i, i+1, i+2)
	}
	w.WriteString(" },\n\t\t}\n\t}\n\tGroups 1 1 {\n\t\tMatrices { 0 },\n\t}\n\tMaterialID 0,\n}\n")
	w.WriteString(rootBone + onePivot)
	return w.Bytes()
}

// MDLTextured returns a model of one textured quad whose texture is the
// file texPath (relative to the model's folder).
func MDLTextured(texPath string) []byte {
	var w bytes.Buffer
	mdlHeader(&w, "textured")
	w.WriteString("Sequences 1 {\n\tAnim \"Stand\" {\n\t\tInterval { 0, 1000 },\n\t}\n}\n")
	// MDL strings have no escapes: the path is written as it is.
	fmt.Fprintf(&w, "Textures 1 {\n\tBitmap {\n\t\tImage \"%s\",\n\t}\n}\n", texPath)
	w.WriteString("Materials 1 {\n\tMaterial {\n\t\tLayer {\n\t\t\tFilterMode None,\n\t\t\tstatic TextureID 0,\n\t\t}\n\t}\n}\n")
	w.WriteString(quadGeoset)
	w.WriteString(rootBone + onePivot)
	return w.Bytes()
}

// quadGeoset is a 20×20 quad in the XY plane, on bone 0, material 0.
const quadGeoset = `Geoset {
	Vertices 4 {
		{ -10, -10, 0 },
		{ 10, -10, 0 },
		{ 10, 10, 0 },
		{ -10, 10, 0 },
	}
	Normals 4 {
		{ 0, 0, 1 },
		{ 0, 0, 1 },
		{ 0, 0, 1 },
		{ 0, 0, 1 },
	}
	TVertices 4 {
		{ 0, 1 },
		{ 1, 1 },
		{ 1, 0 },
		{ 0, 0 },
	}
	VertexGroup {
		0,
		0,
		0,
		0,
	}
	Faces 1 6 {
		Triangles {
			{ 0, 1, 2, 0, 2, 3 },
		}
	}
	Groups 1 1 {
		Matrices { 0 },
	}
	MaterialID 0,
}
`

// MDLCycle returns a model whose n bones form one parent cycle (bone i's
// parent is bone i+1, the last one's the first), the quad geoset on the
// first bone.
func MDLCycle(n int) []byte {
	var w bytes.Buffer
	mdlHeader(&w, "cycle")
	teamColourMaterial(&w, "Stand", "None")
	w.WriteString(quadGeoset)
	for i := range n {
		fmt.Fprintf(&w, "Bone \"Link%d\" {\n\tObjectId %d,\n\tParent %d,\n\tGeosetId 0,\n\tGeosetAnimId None,\n}\n", i, i, (i+1)%n)
	}
	originPivots(&w, n)
	return w.Bytes()
}

// MDLLongStrings returns the textured quad with a texture path, a
// sequence name and a bone name of n bytes each (MDL strings have no
// length limit; MDX ones are at most 260 bytes).
func MDLLongStrings(n int) []byte {
	long := func(c string) string { return strings.Repeat(c, n) }
	b := string(MDLTextured(long("t") + ".blp"))
	b = strings.Replace(b, `Anim "Stand"`, `Anim "`+long("s")+`"`, 1)
	b = strings.Replace(b, `Bone "Root"`, `Bone "`+long("b")+`"`, 1)
	return []byte(b)
}

// originPivots writes the PivotPoints block of n objects, all at the
// origin.
func originPivots(w *bytes.Buffer, n int) {
	fmt.Fprintf(w, "PivotPoints %d {\n", n)
	for range n {
		w.WriteString("\t{ 0, 0, 0 },\n")
	}
	w.WriteString("}\n")
}

// teamColourMaterial writes the blocks every generated model but the
// textured ones opens with: one sequence of a second named anim, the team
// colour as the only texture, and one material of one layer drawn with
// filter mode filter.
func teamColourMaterial(w *bytes.Buffer, anim, filter string) {
	fmt.Fprintf(w, "Sequences 1 {\n\tAnim %q {\n\t\tInterval { 0, 1000 },\n\t}\n}\n", anim)
	w.WriteString("Textures 1 {\n\tBitmap {\n\t\tImage \"\",\n\t\tReplaceableId 1,\n\t}\n}\n")
	fmt.Fprintf(w, "Materials 1 {\n\tMaterial {\n\t\tLayer {\n\t\t\tFilterMode %s,\n\t\t\tstatic TextureID 0,\n\t\t}\n\t}\n}\n", filter)
}
