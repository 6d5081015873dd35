package mdx

import (
	"errors"
)

// ErrUnknownFormat is what a loader that tells the formats apart by
// content (Detect) reports for input that is neither MDX (no "MDLX" magic)
// nor MDL text.
var ErrUnknownFormat = errors.New("mdx: unknown model format: neither MDX (\"MDLX\" magic) nor MDL text (\"FormatVersion\" or a Version/Model block)")

// looksLikeMDL reports whether the first word of b, after blanks and
// comments, names a top-level MDL block.
func looksLikeMDL(b []byte) bool {
	p := &mdlParser{b: b, line: 1}
	ok := false
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, isMDL := r.(*MDLError); !isMDL {
					panic(r)
				}
			}
		}()
		p.next()
		if p.tok != tokWord {
			return
		}
		switch string(p.val) {
		case "Version", "Model", "Sequences", "GlobalSequences", "Textures", "Materials", "TextureAnims",
			"Geoset", "GeosetAnim", "Bone", "Light", "Helper", "Attachment", "PivotPoints", "ParticleEmitter",
			"ParticleEmitter2", "ParticleEmitterPopcorn", "RibbonEmitter", "Camera", "EventObject",
			"CollisionShape", "FaceFX", "BindPose":
			ok = true
		}
	}()
	return ok
}
