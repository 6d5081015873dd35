package mdx

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// This file is the one home of the names of this package's enumerations and
// flag bits. The names are the MDL spellings: the MDL reader and writer use
// these tables for their keywords, and the String and FlagNames methods give
// the same words to programs that describe a model (mdxrender inspect), so a
// flag reads the same in an MDL file and in a report.

// Enumeration names, indexed by value.
var (
	filterModeNames     = [...]string{"None", "Transparent", "Blend", "Additive", "AddAlpha", "Modulate", "Modulate2x"}
	lightTypeNames      = [...]string{"Omnidirectional", "Directional", "Ambient"}
	shapeNames          = [...]string{"Box", "Plane", "Sphere", "Cylinder"}
	emitter2FilterNames = [...]string{"Blend", "Additive", "Modulate", "Modulate2x", "AlphaKey"}
	headTailNames       = [...]string{"Head", "Tail", "Both"}
	// faceTypeNames name the PTYP primitive types (4 = triangles).
	faceTypeNames = [...]string{"Points", "Lines", "LineLoop", "LineStrip", "Triangles", "TriangleStrip", "TriangleFan", "Quads", "QuadStrip", "Polygons"}
	// textureSlotNames name the texture slots of a v1100 layer.
	textureSlotNames = [...]string{"Diffuse", "Normal", "ORM", "Emissive", "TeamColor", "Reflections"}
)

// String returns the MDL spelling of a layer filter mode.
func (f FilterMode) String() string {
	if int(f) < len(filterModeNames) {
		return filterModeNames[f]
	}
	return "FilterMode(" + itoa(int64(f)) + ")"
}

// String returns the MDL spelling of a light type.
func (t LightType) String() string {
	if int(t) < len(lightTypeNames) {
		return lightTypeNames[t]
	}
	return "LightType(" + itoa(int64(t)) + ")"
}

// String returns the MDL spelling of a collision shape type.
func (t ShapeType) String() string {
	if int(t) < len(shapeNames) {
		return shapeNames[t]
	}
	return "ShapeType(" + itoa(int64(t)) + ")"
}

// FilterModeName returns the MDL spelling of the emitter's filter mode.
// Particle emitters number their modes differently from layers (0 is Blend
// here, None there), hence a name of its own rather than FilterMode.String.
func (p *ParticleEmitter2) FilterModeName() string {
	if int(p.FilterMode) < len(emitter2FilterNames) {
		return emitter2FilterNames[p.FilterMode]
	}
	return "FilterMode(" + itoa(int64(p.FilterMode)) + ")"
}

// SlotName returns the name of a v1100 texture slot (Diffuse, Normal, ORM,
// Emissive, TeamColor, Reflections), or "" for a slot number Reforged does
// not use.
func (t *LayerTexture) SlotName() string {
	if int(t.Slot) < len(textureSlotNames) {
		return textureSlotNames[t.Slot]
	}
	return ""
}

// ReplaceableName says what a texture's replaceable id stands for in a model
// of the given version: Warcraft III numbers them one way (1 "team colour",
// 2 "team glow", 11 "cliff", 31 to 37 the trees, ...), the WoW versions
// another (see WoWReplaceableName). ok is false for 0, which means "no
// replaceable texture", and for ids the game does not define.
func ReplaceableName(version, id uint32) (name string, ok bool) {
	if IsWoWVersion(version) {
		if id == 0 || id >= uint32(len(wowReplaceableNames)) {
			return "", false
		}
		return wowReplaceableNames[id], true
	}
	name, ok = replaceableNames[id]
	return name, ok
}

// replaceableNames are the Warcraft III replaceable texture ids.
var replaceableNames = map[uint32]string{
	1:  "team colour",
	2:  "team glow",
	11: "cliff",
	21: "cursor",
	31: "Lordaeron tree",
	32: "Ashenvale tree",
	33: "Barrens tree",
	34: "Northrend tree",
	35: "mushroom tree",
	36: "ruins tree",
	37: "Outland mushroom tree",
}

// flagName is one named bit of a flags field.
type flagName struct {
	bit  uint32
	name string
}

// flagTable lists the named bits of a flags field, in the order names are
// given out (and MDL keywords written, where the writer uses the table).
type flagTable []flagName

// Flag names of each flags field.
var (
	textureFlags  = flagTable{{TexWrapWidth, "WrapWidth"}, {TexWrapHeight, "WrapHeight"}}
	materialFlags = flagTable{{MatConstantColor, "ConstantColor"}, {MatSortPrimsNearZ, "SortPrimsNearZ"},
		{MatSortPrimsFarZ, "SortPrimsFarZ"}, {MatFullResolution, "FullResolution"}}
	layerFlags = flagTable{{LayerUnshaded, "Unshaded"}, {LayerSphereEnvMap, "SphereEnvMap"},
		{LayerTwoSided, "TwoSided"}, {LayerUnfogged, "Unfogged"}, {LayerNoDepthTest, "NoDepthTest"},
		{LayerNoDepthSet, "NoDepthSet"}, {LayerUnlit, "Unlit"}}
	// The WoW versions give 0x4 and 0x8 meanings and reuse 0x100.
	wowLayerFlags = layerFlags.with(flagName{WoWLayerWrapWidth, "WrapWidth"},
		flagName{WoWLayerWrapHeight, "WrapHeight"}, flagName{WoWLayerNoFallback, "NoFallback"})
	sequenceFlags = flagTable{{SeqNonLooping, "NonLooping"}}
	geosetFlags   = flagTable{{GeosetUnselectable, "Unselectable"}}
	// nodeFlags are the bits every node type shares, then the type bits.
	nodeFlags = flagTable{{NodeDontInheritTranslation, "DontInheritTranslation"},
		{NodeDontInheritScaling, "DontInheritScaling"}, {NodeDontInheritRotation, "DontInheritRotation"},
		{NodeBillboarded, "Billboarded"}, {NodeBillboardedLockX, "BillboardedLockX"},
		{NodeBillboardedLockY, "BillboardedLockY"}, {NodeBillboardedLockZ, "BillboardedLockZ"},
		{NodeCameraAnchored, "CameraAnchored"},
		{NodeBone, "Bone"}, {NodeLight, "Light"}, {NodeEventObject, "EventObject"}, {NodeAttachment, "Attachment"},
		{NodeParticleEmitter, "ParticleEmitter"}, {NodeCollisionShape, "CollisionShape"},
		{NodeRibbonEmitter, "RibbonEmitter"}}
	emitterFlags  = flagTable{{NodeEmitterUsesMDL, "EmitterUsesMDL"}, {NodeEmitterUsesTGA, "EmitterUsesTGA"}}
	emitter2Flags = flagTable{{NodeUnshaded, "Unshaded"}, {NodeSortPrimsFarZ, "SortPrimsFarZ"},
		{NodeLineEmitter, "LineEmitter"}, {NodeUnfogged, "Unfogged"}, {NodeModelSpace, "ModelSpace"},
		{NodeXYQuad, "XYQuad"}}
)

// MDL keyword tables that differ from the tables above in content or order.
var (
	// mdlMaterialFlags adds bit 0x2, which MDL spells TwoSided
	// (mdx-m3-viewer's reading). The binary format's documentation names
	// only the four bits of materialFlags, so Material.FlagNames shows 0x2
	// as a number.
	mdlMaterialFlags = materialFlags.with(flagName{matTwoSided, "TwoSided"})
	// mdlNodeFlags are the node bits MDL writes as keywords, in the order
	// the writer emits them.
	mdlNodeFlags = nodeFlags.subset(NodeBillboardedLockZ, NodeBillboardedLockY, NodeBillboardedLockX,
		NodeBillboarded, NodeCameraAnchored)
	// mdlDontInherit are the words of an MDL "DontInherit { ... }" list:
	// the DontInherit* flags without their prefix.
	mdlDontInherit = nodeFlags.subset(NodeDontInheritTranslation, NodeDontInheritRotation, NodeDontInheritScaling).trimPrefix("DontInherit")
	// mdlEmitter2Flags are emitter2Flags in the order the writer emits them.
	mdlEmitter2Flags = emitter2Flags.subset(NodeSortPrimsFarZ, NodeUnshaded, NodeLineEmitter, NodeUnfogged,
		NodeModelSpace, NodeXYQuad)
)

// matTwoSided is the material bit MDL spells TwoSided.
const matTwoSided = 0x2

// names names the set bits of v from the tables in order; bits no table
// names are given as one hex number at the end. It returns nil when v is 0.
func names(v uint32, tables ...flagTable) []string {
	var out []string
	for _, t := range tables {
		for _, f := range t {
			if v&f.bit != 0 {
				out = append(out, f.name)
				v &^= f.bit
			}
		}
	}
	if v != 0 {
		out = append(out, "0x"+strconv.FormatUint(uint64(v), 16))
	}
	return out
}

// mask returns the bits the table names.
func (t flagTable) mask() uint32 {
	var m uint32
	for _, f := range t {
		m |= f.bit
	}
	return m
}

// bit returns the bit named name.
func (t flagTable) bit(name []byte) (uint32, bool) {
	for _, f := range t {
		if string(name) == f.name {
			return f.bit, true
		}
	}
	return 0, false
}

// subset returns the entries for bits, in that order (TestMDLFlagTables
// checks that none is missing).
func (t flagTable) subset(bits ...uint32) flagTable {
	out := make(flagTable, 0, len(bits))
	for _, b := range bits {
		if i := slices.IndexFunc(t, func(f flagName) bool { return f.bit == b }); i >= 0 {
			out = append(out, t[i])
		}
	}
	return out
}

// with returns the table with the extra entries, each replacing the entry
// of the same bit if there is one, in ascending bit order (the order of
// every table here).
func (t flagTable) with(extra ...flagName) flagTable {
	out := slices.DeleteFunc(slices.Clone(t), func(f flagName) bool {
		return slices.ContainsFunc(extra, func(e flagName) bool { return e.bit == f.bit })
	})
	out = append(out, extra...)
	slices.SortFunc(out, func(a, b flagName) int { return cmp.Compare(a.bit, b.bit) })
	return out
}

// trimPrefix returns the table with prefix cut from every name.
func (t flagTable) trimPrefix(prefix string) flagTable {
	out := slices.Clone(t)
	for i := range out {
		out[i].name = strings.TrimPrefix(out[i].name, prefix)
	}
	return out
}

// FlagNames names the set bits of Texture.Flags (WrapWidth, WrapHeight);
// bits without a name come last as one hex number. It returns nil when no
// bit is set. The other FlagNames methods work the same way.
func (t *Texture) FlagNames() []string { return names(t.Flags, textureFlags) }

// FlagNames names the set bits of Material.Flags: ConstantColor,
// SortPrimsNearZ, SortPrimsFarZ, FullResolution.
func (m *Material) FlagNames() []string { return names(m.Flags, materialFlags) }

// FlagNames names the set bits of Layer.Flags (Unshaded, TwoSided, ...).
// The WoW versions (see IsWoWVersion) read some bits differently, so the
// model's version selects the names.
func (l *Layer) FlagNames(version uint32) []string {
	if IsWoWVersion(version) {
		return names(l.Flags, wowLayerFlags)
	}
	return names(l.Flags, layerFlags)
}

// FlagNames names the set bits of Sequence.Flags (NonLooping).
func (s *Sequence) FlagNames() []string { return names(s.Flags, sequenceFlags) }

// SelectionFlagNames names the set bits of Geoset.SelectionFlags
// (Unselectable).
func (g *Geoset) SelectionFlagNames() []string { return names(g.SelectionFlags, geosetFlags) }

// FlagNames names the set bits of Node.Flags: the DontInherit*,
// Billboarded* and CameraAnchored bits and the type bits (Bone, Light, ...).
// The node types' own FlagNames methods leave out the type bit their record
// implies and add the emitter bits; Helper and PopcornEmitter use this one.
func (n *Node) FlagNames() []string { return names(n.Flags, nodeFlags) }

// nodeNames names a node's flags without the type bit its record implies.
func nodeNames(n *Node, typeBit uint32, extra ...flagTable) []string {
	return names(n.Flags&^typeBit, append([]flagTable{nodeFlags}, extra...)...)
}

// FlagNames names the node flags, leaving out the Bone type bit.
func (b *Bone) FlagNames() []string { return nodeNames(&b.Node, NodeBone) }

// FlagNames names the node flags, leaving out the Light type bit.
func (l *Light) FlagNames() []string { return nodeNames(&l.Node, NodeLight) }

// FlagNames names the node flags, leaving out the Attachment type bit.
func (a *Attachment) FlagNames() []string { return nodeNames(&a.Node, NodeAttachment) }

// FlagNames names the node flags, leaving out the ParticleEmitter type bit
// and adding EmitterUsesMDL and EmitterUsesTGA.
func (p *ParticleEmitter) FlagNames() []string {
	return nodeNames(&p.Node, NodeParticleEmitter, emitterFlags)
}

// FlagNames names the node flags, leaving out the ParticleEmitter type bit
// and adding the emitter's own (Unshaded, SortPrimsFarZ, LineEmitter,
// Unfogged, ModelSpace, XYQuad).
func (p *ParticleEmitter2) FlagNames() []string {
	return nodeNames(&p.Node, NodeParticleEmitter, emitter2Flags)
}

// FlagNames names the node flags, leaving out the RibbonEmitter type bit.
func (r *RibbonEmitter) FlagNames() []string { return nodeNames(&r.Node, NodeRibbonEmitter) }

// FlagNames names the node flags, leaving out the EventObject type bit.
func (e *EventObject) FlagNames() []string { return nodeNames(&e.Node, NodeEventObject) }

// FlagNames names the node flags, leaving out the CollisionShape type bit.
func (c *CollisionShape) FlagNames() []string { return nodeNames(&c.Node, NodeCollisionShape) }
