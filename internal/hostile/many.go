package hostile

import (
	"bytes"
	"fmt"
	"strings"
)

// MDLTexturedMany returns a model of one textured quad per texture path,
// each quad with a material of its own, so that drawing it loads every
// texture: the shape of a model whose many texture names all lead to one
// huge file.
func MDLTexturedMany(texPaths []string) []byte {
	var w bytes.Buffer
	mdlHeader(&w, "textured_many")
	w.WriteString("Sequences 1 {\n\tAnim \"Stand\" {\n\t\tInterval { 0, 1000 },\n\t}\n}\n")
	fmt.Fprintf(&w, "Textures %d {\n", len(texPaths))
	for _, p := range texPaths {
		fmt.Fprintf(&w, "\tBitmap {\n\t\tImage \"%s\",\n\t}\n", p)
	}
	fmt.Fprintf(&w, "}\nMaterials %d {\n", len(texPaths))
	for i := range texPaths {
		fmt.Fprintf(&w, "\tMaterial {\n\t\tLayer {\n\t\t\tFilterMode None,\n\t\t\tstatic TextureID %d,\n\t\t}\n\t}\n", i)
	}
	w.WriteString("}\n")
	for i := range texPaths {
		w.WriteString(strings.Replace(quadGeoset, "MaterialID 0,", fmt.Sprintf("MaterialID %d,", i), 1))
	}
	w.WriteString(rootBone + onePivot)
	return w.Bytes()
}

// Padded returns b followed by zero bytes up to size: a texture whose
// file is far larger than what it decodes (a BLP's levels say where they
// are; the rest is never looked at, but a reader that reads files whole
// reads it all).
func Padded(b []byte, size int) []byte {
	if size <= len(b) {
		return b
	}
	out := make([]byte, size)
	copy(out, b)
	return out
}

// WithSequences returns an MDL model (as the builders here write them)
// with its Sequences block replaced by n sequences of 100 ms each: a
// sprite sheet of all of them has n rows, so a heavy model with many
// sequences asks for many heavy frames.
func WithSequences(mdl []byte, n int) []byte {
	s := string(mdl)
	i := strings.Index(s, "Sequences ")
	j := strings.Index(s[i:], "\n}\n")
	if i < 0 || j < 0 {
		return mdl
	}
	var w bytes.Buffer
	w.WriteString(s[:i])
	fmt.Fprintf(&w, "Sequences %d {\n", n)
	for k := range n {
		fmt.Fprintf(&w, "\tAnim \"S%d\" {\n\t\tInterval { %d, %d },\n\t}\n", k, k*200, k*200+100)
	}
	w.WriteString("}\n")
	w.WriteString(s[i+j+3:])
	return w.Bytes()
}
