package hostile

import (
	"bytes"
	"fmt"
	"strconv"
)

// mdlHeader writes the Version and Model blocks of an MDL file.
func mdlHeader(w *bytes.Buffer, name string) {
	fmt.Fprintf(w, "// %s: a hostile-input case made by internal/hostile\n", name)
	fmt.Fprintf(w, "Version {\n\tFormatVersion 800,\n}\nModel %q {\n\tBlendTime 150,\n}\n", name)
}

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
	w.WriteString("Bone \"Root\" {\n\tObjectId 0,\n\tGeosetId 0,\n\tGeosetAnimId None,\n}\n")
	w.WriteString("PivotPoints 1 {\n\t{ 0, 0, 0 },\n}\n")
	return w.Bytes()
}
