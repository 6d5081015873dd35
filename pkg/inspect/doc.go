// Package inspect describes a model file: format and version, counts,
// sequences, textures, materials and their layers, geosets, the node
// hierarchy and the extent, plus for an M2 file what its conversion leaves
// out. It is the report behind `mdxrender inspect`.
//
// Build makes a Report from a file loaded with package model; WriteText
// prints it for people, and encoding/json prints it for programs. The JSON
// keys are a stable interface: keys are added, never renamed or removed.
// Flag and enumeration names are those of package mdx (the MDL spellings),
// so a report and an MDL file name a flag the same way.
//
// A report describes whatever the decoder accepted, hostile files
// included: non-finite floats are written as the strings "NaN", "+Inf" and
// "-Inf" (see Float), a node whose parent is missing, itself or on a cycle
// is drawn as a root with a note, and deep hierarchies do not make the text
// grow without bound.
package inspect
