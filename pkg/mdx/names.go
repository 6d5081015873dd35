package mdx

// String returns the MDL spelling of a layer filter mode.
func (f FilterMode) String() string {
	names := [...]string{"None", "Transparent", "Blend", "Additive", "AddAlpha", "Modulate", "Modulate2x"}
	if int(f) < len(names) {
		return names[f]
	}
	return "FilterMode(" + itoa(int64(f)) + ")"
}

// String returns the MDL spelling of a light type.
func (t LightType) String() string {
	names := [...]string{"Omnidirectional", "Directional", "Ambient"}
	if int(t) < len(names) {
		return names[t]
	}
	return "LightType(" + itoa(int64(t)) + ")"
}

// String returns the MDL spelling of a collision shape type.
func (t ShapeType) String() string {
	names := [...]string{"Box", "Plane", "Sphere", "Cylinder"}
	if int(t) < len(names) {
		return names[t]
	}
	return "ShapeType(" + itoa(int64(t)) + ")"
}
