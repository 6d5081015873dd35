package mdx

import (
	"errors"
	"fmt"
)

// ErrUnknownFormat is returned by DecodeAny for input that is neither MDX
// (no "MDLX" magic) nor MDL text.
var ErrUnknownFormat = errors.New("mdx: unknown model format: neither MDX (\"MDLX\" magic) nor MDL text (\"FormatVersion\" or a Version/Model block)")

// DecodeAny decodes an MDX or MDL model within the default limits, telling them
// apart by content (Detect), never by file name. MDL text that Detect
// misses because it lacks "FormatVersion" near the start (a fragment
// without a Version block) is still read when its first word is a known
// top-level MDL block.
func DecodeAny(b []byte) (*Model, error) {
	return (&Decoder{}).DecodeAny(b)
}

// DecodeAny is the package's DecodeAny within d's limits, for either format.
func (d *Decoder) DecodeAny(b []byte) (*Model, error) {
	switch Detect(b) {
	case FormatMDX:
		return d.DecodeBytes(b)
	case FormatMDL:
		return d.DecodeMDL(b)
	}
	if looksLikeMDL(b) {
		return d.DecodeMDL(b)
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("%w (empty input)", ErrUnknownFormat)
	}
	return nil, ErrUnknownFormat
}

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
