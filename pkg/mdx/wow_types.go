package mdx

import "math"

// This file holds what the early World of Warcraft MDX dialect (versions
// 1300, 1400 and 1500, the alpha and beta clients; docs/formats.md#early-wow-mdx) adds to
// the Warcraft III model: enums whose numbering differs from Warcraft III and
// the 64-bit compressed quaternion. Decoding maps the WoW records onto the
// same Model types (see dialect.go for the differences).

// IsWoWVersion reports whether v is an MDX version of the WoW alpha/beta
// clients (1300, 1400, 1500), which Decode reads too.
func IsWoWVersion(v uint32) bool { return v == 1300 || v == 1400 || v == 1500 }

// WoW replaceable texture ids (Texture.ReplaceableID in v1300+ files). They
// are not the Warcraft III ids (1 team colour, 2 team glow, 11 cliff...): a
// renderer must look at Model.Version before resolving them.
const (
	WoWTexSkin           = 1
	WoWTexObjectSkin     = 2
	WoWTexWeaponBlade    = 3
	WoWTexWeaponHandle   = 4
	WoWTexEnvironment    = 5
	WoWTexCharHair       = 6
	WoWTexCharFacialHair = 7
	WoWTexSkinExtra      = 8
	WoWTexUISkin         = 9
	WoWTexTaurenMane     = 10
	WoWTexMonster1       = 11
	WoWTexMonster2       = 12
	WoWTexMonster3       = 13
	WoWTexItemIcon       = 14
	NumWoWReplaceableIDs = 15
)

// WoW flag bits that differ from Warcraft III.
const (
	WoWLayerNoFallback      = 0x100 // Layer.Flags bit added in v1500 (Warcraft III's 0x100 is Unlit)
	WoWLayerWrapWidth       = 0x4   // Layer.Flags, used from v1500
	WoWLayerWrapHeight      = 0x8   // Layer.Flags, used from v1500
	WoWGeosetUnselectable   = 0x1   // Geoset.SelectionFlags in v1300+
	WoWGeosetProject2D      = 0x10  // Geoset.SelectionFlags, v1500
	WoWGeosetShaderSkin     = 0x20  // Geoset.SelectionFlags, v1500
	WoWSequenceNonLooping   = 0x1   // Sequence.Flags, as in Warcraft III
	WoWGeosetAnimColorInMDX = 0x1   // the file's GEOA flag bit for "use colour" (decoded as GeoaUseColor)
)

// wowReplaceableNames are the WoW replaceable texture ids (0 is none).
var wowReplaceableNames = [NumWoWReplaceableIDs]string{"", "Skin", "ObjectSkin", "WeaponBlade", "WeaponHandle", "Environment",
	"CharHair", "CharFacialHair", "SkinExtra", "UISkin", "TaurenMane", "Monster1", "Monster2",
	"Monster3", "ItemIcon"}

// WoWReplaceableName returns the name of a WoW replaceable texture id: ""
// for 0, "Replaceable(n)" for an id the client does not define.
// ReplaceableName is the version-aware form.
func WoWReplaceableName(id uint32) string {
	if id < uint32(len(wowReplaceableNames)) {
		return wowReplaceableNames[id]
	}
	return "Replaceable(" + itoa(int64(id)) + ")"
}

// WoWAttachmentName returns the name of a WoW attachment id
// (Attachment.AttachmentID in v1300+ files, GEOCOMPONENTLINKS).
func WoWAttachmentName(id int32) string {
	names := [...]string{"Shield", "HandRight", "HandLeft", "ElbowRight", "ElbowLeft", "ShoulderRight",
		"ShoulderLeft", "KneeRight", "KneeLeft", "HipRight", "HipLeft", "Helm", "Back", "ShoulderFlapRight",
		"ShoulderFlapLeft", "TorsoBloodFront", "TorsoBloodBack", "Breath", "PlayerName", "UnitEffectBase",
		"UnitEffectHead", "SpellLeftHand", "SpellRightHand", "Special1", "Special2", "Special3",
		"SheathMainHand", "SheathOffHand", "SheathShield", "PlayerNameMounted", "LargeWeaponLeft",
		"LargeWeaponRight", "HipWeaponLeft", "HipWeaponRight", "TorsoSpell", "HandArrow"}
	if id == -1 {
		return "None"
	}
	if id >= 0 && int(id) < len(names) {
		return names[id]
	}
	return "Attachment(" + itoa(int64(id)) + ")"
}

// WoWCharGeosetSection returns the character geoset section a WoW geoset's
// SelectionGroup belongs to (the first two of its four decimal digits:
// 0 hair, 1 beard, ... 14 loincloth) and the sub-group (the last two).
func WoWCharGeosetSection(selectionGroup uint32) (section, sub uint32) {
	return selectionGroup / 100, selectionGroup % 100
}

// WoWCharGeosetSectionName names a character geoset section
// (CHARACTER_GEOSET_SECTIONS).
func WoWCharGeosetSectionName(section uint32) string {
	names := [...]string{"Hair", "Beard", "Sideburn", "Moustache", "Glove", "Boot", "Obsolete", "Ear",
		"Sleeves", "Pants", "Doublet", "PantDoublet", "Tabard", "Robe", "Loincloth"}
	if section < uint32(len(names)) {
		return names[section]
	}
	return "Section(" + itoa(int64(section)) + ")"
}

// Compressed quaternion scales: X has 22 bits and a step of 2^-21, Y and Z
// have 21 bits and a step of 2^-20.
const (
	quatScaleX  = 1.0 / (1 << 21)
	quatScaleYZ = 1.0 / (1 << 20)
)

// DecompressQuat unpacks a WoW MDX 64-bit quaternion: X is the top 22 bits,
// Y the next 21, Z the low 21 (all signed), and W is rebuilt as
// sqrt(1-x²-y²-z²), or 0 when that is below 2^-20. The Z decode is the
// corrected one of docs/formats.md#early-wow-mdx (sign-extend the low 21 bits).
func DecompressQuat(d int64) Quat {
	x := float64(d>>42) * quatScaleX
	y := float64((d<<22)>>43) * quatScaleYZ
	z := float64(int32(uint32(d)<<11)>>11) * quatScaleYZ
	fx, fy, fz := float32(x), float32(y), float32(z)
	l := 1.0 - float64(fx*fx+fy*fy+fz*fz)
	w := 0.0
	if l >= quatScaleYZ {
		w = math.Sqrt(l)
	}
	return Quat{fx, fy, fz, float32(w)}
}

// CompressQuat packs q the way the WoW client does: q is negated when W is
// negative (q and -q are the same rotation), then each component is scaled
// and truncated toward zero. For a quaternion from DecompressQuat it gives
// back the original 64 bits.
func CompressQuat(q Quat) int64 {
	s := 1.0
	if q[3] < 0 {
		s = -1
	}
	x := int64(s*float64(q[0])*(1<<21)) << 21
	y := int64(s*float64(q[1])*(1<<20)) & 0x1FFFFF
	z := int64(s*float64(q[2])*(1<<20)) & 0x1FFFFF
	return z | (y|x)<<21
}
