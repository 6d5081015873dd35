package mdx

// Camera is one CAMS record: inclusive size, name[80], position[3],
// fieldOfView, farClip, nearClip, target position[3], tracks. Not a node.
type Camera struct {
	Name           string
	Position       Vec3
	FieldOfView    float32 // radians, vertical
	FarClip        float32
	NearClip       float32
	TargetPosition Vec3

	Translation       *Track[Vec3]    // KCTR
	TargetTranslation *Track[Vec3]    // KTTR
	Rotation          *Track[float32] // KCRL (roll)
	rec               rec
}
