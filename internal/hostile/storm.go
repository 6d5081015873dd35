package hostile

import (
	"bytes"
	"fmt"
)

// Storm configures MDLStorm: the particle cases whose cost is not only
// the number of live particles but what each step samples and poses on
// the way (long bone chains, tracks of many keys) and how the emitters
// emit (squirt, heads and tails).
type Storm struct {
	Emitters
	// Bones is the length of the chain of bones (each the parent of the
	// next) the emitters hang on, from the root bone the geoset is bound
	// to; 0 counts as 1.
	Bones int
	// Keys gives every track a model of the case can have (each bone's
	// translation, rotation and scaling, every animatable field of every
	// emitter) that many keys, spread over the sequence, which is
	// max(1000, Keys) ms long; 0 leaves every field static.
	Keys int
	// Squirt makes the PRE2 emitters squirt: each adds its whole rate
	// whenever its rate track's key changes (the keys alternate between
	// Rate and Rate/2; give Keys ≥ 2).
	Squirt bool
	// Both makes every PRE2 emission a head and a tail.
	Both bool
}

// MDLStorm returns a model of one quad geoset on the first bone of a
// chain of s.Bones bones and the emitters s.Emitters asks for on the last
// one, every track of s.Keys keys. With Keys 0, Bones 1 and neither Squirt
// nor Both it has the emitters of MDLEmitters.
func MDLStorm(name string, s Storm) []byte {
	var w bytes.Buffer
	mdlHeader(&w, name)
	length := max(1000, s.Keys)
	fmt.Fprintf(&w, "Sequences 1 {\n\tAnim \"Stand\" {\n\t\tInterval { 0, %d },\n\t}\n}\n", length)
	w.WriteString("Textures 1 {\n\tBitmap {\n\t\tImage \"\",\n\t\tReplaceableId 1,\n\t}\n}\n")
	w.WriteString("Materials 1 {\n\tMaterial {\n\t\tLayer {\n\t\t\tFilterMode None,\n\t\t\tstatic TextureID 0,\n\t\t}\n\t}\n}\n")
	w.WriteString(quadGeoset)
	k := keyWriter{w: &w, n: s.Keys, length: length}
	bones := chainBones(&w, k, max(s.Bones, 1))
	last := bones - 1
	id := bones
	e := s.Emitters
	for i := range e.PREM {
		fmt.Fprintf(&w, "ParticleEmitter \"Spawner%d\" {\n\tObjectId %d,\n\tParent %d,\n\tEmitterUsesMDL,\n", i, id, last)
		k.float("EmissionRate", e.Rate, e.Rate/2)
		k.float("Gravity", 0, 0)
		w.WriteString("\tstatic Longitude 0,\n")
		k.float("Latitude", 3, 3)
		k.float("Visibility", 1, 1)
		w.WriteString("\tParticle {\n")
		k.float("LifeSpan", e.Life, e.Life)
		k.float("InitVelocity", 30, 30)
		fmt.Fprintf(&w, "\t\tPath %q,\n\t}\n}\n", e.SpawnPath)
		id++
	}
	for i := range e.PRE2 {
		fmt.Fprintf(&w, "ParticleEmitter2 \"Storm%d\" {\n\tObjectId %d,\n\tParent %d,\n", i, id, last)
		k.float("Speed", 100, 100)
		k.float("Variation", 1, 1)
		k.float("Latitude", 180, 180)
		k.float("Gravity", 0, 0)
		k.float("EmissionRate", e.Rate, e.Rate/2)
		k.float("Width", 50, 50)
		k.float("Length", 50, 50)
		k.float("Visibility", 1, 1)
		fmt.Fprintf(&w, "\tLifeSpan %g,\n\tBlend,\n\tRows 1,\n\tColumns 1,\n", e.Life)
		if s.Both {
			w.WriteString("\tBoth,\n")
		} else {
			w.WriteString("\tHead,\n")
		}
		if s.Squirt {
			w.WriteString("\tSquirt,\n")
		}
		w.WriteString("\tTailLength 1,\n\tTime 0.5,\n\tSegmentColor {\n\t\tColor { 1, 1, 1 },\n\t\tColor { 1, 1, 1 },\n\t\tColor { 1, 1, 1 },\n\t}\n")
		w.WriteString("\tAlpha { 255, 255, 255 },\n\tParticleScaling { 10, 10, 10 },\n\tLifeSpanUVAnim { 0, 0, 1 },\n\tDecayUVAnim { 0, 0, 1 },\n")
		w.WriteString("\tTailUVAnim { 0, 0, 1 },\n\tTailDecayUVAnim { 0, 0, 1 },\n\tTextureID 0,\n}\n")
		id++
	}
	for i := range e.Ribbons {
		fmt.Fprintf(&w, "RibbonEmitter \"Ribbon%d\" {\n\tObjectId %d,\n\tParent %d,\n", i, id, last)
		k.float("HeightAbove", 20, 20)
		k.float("HeightBelow", 20, 20)
		k.float("Alpha", 1, 0.5)
		k.vec3("Color", [3]float64{1, 1, 1}, [3]float64{1, 0.5, 0.5})
		k.uint("TextureSlot", 0)
		k.float("Visibility", 1, 1)
		fmt.Fprintf(&w, "\tEmissionRate %d,\n\tLifeSpan %g,\n\tGravity 10,\n\tRows 1,\n\tColumns 1,\n\tMaterialID 0,\n}\n", int64(e.Rate), e.Life)
		id++
	}
	originPivots(&w, id)
	return w.Bytes()
}

// MDLSpawnedBones returns a model for PREM emitters to spawn: one geoset
// of the given number of vertices (a strip of triangles) bound in turn to
// the bones of a chain of bones bones (0 counts as 1), whose translation,
// rotation and scaling tracks have keys keys each (0: static), in a
// looping sequence max(1000, keys) ms long.
func MDLSpawnedBones(vertices, bones, keys int) []byte {
	bones = max(bones, 1)
	var w bytes.Buffer
	mdlHeader(&w, "spawned")
	length := max(1000, keys)
	fmt.Fprintf(&w, "Sequences 1 {\n\tAnim \"Birth\" {\n\t\tInterval { 0, %d },\n\t}\n}\n", length)
	w.WriteString("Textures 1 {\n\tBitmap {\n\t\tImage \"\",\n\t\tReplaceableId 1,\n\t}\n}\n")
	w.WriteString("Materials 1 {\n\tMaterial {\n\t\tLayer {\n\t\t\tFilterMode Blend,\n\t\t\tstatic TextureID 0,\n\t\t}\n\t}\n}\n")
	fmt.Fprintf(&w, "Geoset {\n\tVertices %d {\n", vertices)
	for i := range vertices {
		fmt.Fprintf(&w, "\t\t{ %d, %d, 0 },\n", i/2, i%2*4)
	}
	w.WriteString("\t}\n\tVertexGroup {\n")
	for i := range vertices {
		fmt.Fprintf(&w, "\t\t%d,\n", i%bones)
	}
	tris := max(vertices-2, 0)
	fmt.Fprintf(&w, "\t}\n\tFaces 1 %d {\n\t\tTriangles {\n\t\t\t{", 3*tris)
	for i := range tris {
		fmt.Fprintf(&w, " %d, %d, %d,", i, i+1, i+2)
	}
	fmt.Fprintf(&w, " },\n\t\t}\n\t}\n\tGroups %d %d {\n", bones, bones)
	for i := range bones {
		fmt.Fprintf(&w, "\t\tMatrices { %d },\n", i)
	}
	w.WriteString("\t}\n\tMaterialID 0,\n}\n")
	chainBones(&w, keyWriter{w: &w, n: keys, length: length}, bones)
	originPivots(&w, bones)
	return w.Bytes()
}

// chainBones writes n bones, each the parent of the next, the first bound
// to geoset 0, with k's tracks; it returns n.
func chainBones(w *bytes.Buffer, k keyWriter, n int) int {
	for i := range n {
		fmt.Fprintf(w, "Bone \"Link%d\" {\n\tObjectId %d,\n", i, i)
		if i > 0 {
			fmt.Fprintf(w, "\tParent %d,\n", i-1)
		}
		if i == 0 {
			w.WriteString("\tGeosetId 0,\n")
		} else {
			w.WriteString("\tGeosetId None,\n")
		}
		w.WriteString("\tGeosetAnimId None,\n")
		if k.n > 0 {
			k.vec3("Translation", [3]float64{0, 0, 0}, [3]float64{0, 0, 1})
			k.quat("Rotation")
			k.vec3("Scaling", [3]float64{1, 1, 1}, [3]float64{1, 1, 1})
		}
		w.WriteString("}\n")
	}
	return n
}

// keyWriter writes a field either static (n = 0) or as a linear track of
// n keys spread over [0, length] ms, alternating between two values.
type keyWriter struct {
	w         *bytes.Buffer
	n, length int
}

// frame is the frame of key i.
func (k keyWriter) frame(i int) int { return i * k.length / max(k.n, 1) }

func (k keyWriter) float(field string, a, b float64) {
	if k.n == 0 {
		fmt.Fprintf(k.w, "\tstatic %s %g,\n", field, a)
		return
	}
	fmt.Fprintf(k.w, "\t%s %d {\n\t\tLinear,\n", field, k.n)
	for i := range k.n {
		v := a
		if i%2 == 1 {
			v = b
		}
		fmt.Fprintf(k.w, "\t\t%d: %g,\n", k.frame(i), v)
	}
	k.w.WriteString("\t}\n")
}

func (k keyWriter) uint(field string, v uint32) {
	if k.n == 0 {
		fmt.Fprintf(k.w, "\tstatic %s %d,\n", field, v)
		return
	}
	fmt.Fprintf(k.w, "\t%s %d {\n\t\tDontInterp,\n", field, k.n)
	for i := range k.n {
		fmt.Fprintf(k.w, "\t\t%d: %d,\n", k.frame(i), v)
	}
	k.w.WriteString("\t}\n")
}

func (k keyWriter) vec3(field string, a, b [3]float64) {
	if k.n == 0 {
		fmt.Fprintf(k.w, "\tstatic %s { %g, %g, %g },\n", field, a[0], a[1], a[2])
		return
	}
	fmt.Fprintf(k.w, "\t%s %d {\n\t\tLinear,\n", field, k.n)
	for i := range k.n {
		v := a
		if i%2 == 1 {
			v = b
		}
		fmt.Fprintf(k.w, "\t\t%d: { %g, %g, %g },\n", k.frame(i), v[0], v[1], v[2])
	}
	k.w.WriteString("\t}\n")
}

// quat writes a rotation track turning a quarter about Z and back.
func (k keyWriter) quat(field string) {
	fmt.Fprintf(k.w, "\t%s %d {\n\t\tLinear,\n", field, k.n)
	for i := range k.n {
		if i%2 == 0 {
			fmt.Fprintf(k.w, "\t\t%d: { 0, 0, 0, 1 },\n", k.frame(i))
		} else {
			fmt.Fprintf(k.w, "\t\t%d: { 0, 0, 0.70710677, 0.70710677 },\n", k.frame(i))
		}
	}
	k.w.WriteString("\t}\n")
}
