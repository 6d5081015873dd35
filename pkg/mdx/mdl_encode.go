package mdx

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// EncodeMDL writes m as MDL text.
//
// Floats are printed in the shortest form that reads back to the same
// float32 (strconv 'g', -1, 32), not with the reference writers' six
// decimals, so that MDX -> MDL -> MDX gives back the same model bit for bit.
// Static colours are written B,G,R (reversed from the model's MDX order);
// animated colour keys are written unchanged. A static value that has a
// track is written as well when it differs from the default, so it is not
// lost. Strings containing a double quote cannot be written and give an
// error.
func EncodeMDL(w io.Writer, m *Model) error {
	b, err := encodeMDLBytes(m)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("mdl: writing: %w", err)
	}
	return nil
}

// encodeMDLBytes returns m as MDL text (see EncodeMDL).
func encodeMDLBytes(m *Model) ([]byte, error) {
	e := &mdlWriter{b: make([]byte, 0, 4096)}
	e.model(m)
	if e.err != nil {
		return nil, e.err
	}
	return e.b, nil
}

type mdlWriter struct {
	b     []byte
	depth int
	err   error
}

func (e *mdlWriter) indent() {
	for i := 0; i < e.depth; i++ {
		e.b = append(e.b, '\t')
	}
}

// open writes "name {" or `name "str" {` and indents.
func (e *mdlWriter) open(name string) {
	e.indent()
	e.b = append(e.b, name...)
	e.b = append(e.b, " {\n"...)
	e.depth++
}

func (e *mdlWriter) openCount(name string, n int) {
	e.indent()
	e.b = append(e.b, name...)
	e.b = append(e.b, ' ')
	e.b = strconv.AppendInt(e.b, int64(n), 10)
	e.b = append(e.b, " {\n"...)
	e.depth++
}

func (e *mdlWriter) openNamed(name, s string) {
	e.indent()
	e.b = append(e.b, name...)
	e.b = append(e.b, ' ')
	e.quote(s)
	e.b = append(e.b, " {\n"...)
	e.depth++
}

func (e *mdlWriter) close() {
	e.depth--
	e.indent()
	e.b = append(e.b, "}\n"...)
}

func (e *mdlWriter) quote(s string) {
	if strings.ContainsAny(s, "\"") && e.err == nil {
		e.err = fmt.Errorf("mdl: string %q contains a double quote, which MDL cannot represent", s)
	}
	e.b = append(e.b, '"')
	e.b = append(e.b, s...)
	e.b = append(e.b, '"')
}

func (e *mdlWriter) flag(name string) {
	e.indent()
	e.b = append(e.b, name...)
	e.b = append(e.b, ",\n"...)
}

func (e *mdlWriter) fl(v float32) {
	e.b = strconv.AppendFloat(e.b, float64(v), 'g', -1, 32)
}

func (e *mdlWriter) int(name string, v int64) {
	e.indent()
	e.b = append(e.b, name...)
	e.b = append(e.b, ' ')
	e.b = strconv.AppendInt(e.b, v, 10)
	e.b = append(e.b, ",\n"...)
}

func (e *mdlWriter) float(name string, v float32) {
	e.indent()
	e.b = append(e.b, name...)
	e.b = append(e.b, ' ')
	e.fl(v)
	e.b = append(e.b, ",\n"...)
}

func (e *mdlWriter) str(name, s string) {
	e.indent()
	e.b = append(e.b, name...)
	e.b = append(e.b, ' ')
	e.quote(s)
	e.b = append(e.b, ",\n"...)
}

func (e *mdlWriter) vals(v []float32) {
	e.b = append(e.b, "{ "...)
	for i, f := range v {
		if i > 0 {
			e.b = append(e.b, ", "...)
		}
		e.fl(f)
	}
	e.b = append(e.b, " }"...)
}

func (e *mdlWriter) vec(name string, v []float32) {
	e.indent()
	e.b = append(e.b, name...)
	e.b = append(e.b, ' ')
	e.vals(v)
	e.b = append(e.b, ",\n"...)
}

// color writes a static colour, reversing MDX order to MDL's B,G,R.
func (e *mdlWriter) color(name string, v Vec3) {
	e.vec(name, []float32{v[2], v[1], v[0]})
}

func (e *mdlWriter) ints(name string, v []uint32, signed bool) {
	e.indent()
	e.b = append(e.b, name...)
	e.b = append(e.b, " { "...)
	for i, x := range v {
		if i > 0 {
			e.b = append(e.b, ", "...)
		}
		if signed {
			e.b = strconv.AppendInt(e.b, int64(int32(x)), 10)
		} else {
			e.b = strconv.AppendUint(e.b, uint64(x), 10)
		}
	}
	e.b = append(e.b, " },\n"...)
}

func same(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }

func sameVec(a, b Vec3) bool { return same(a[0], b[0]) && same(a[1], b[1]) && same(a[2], b[2]) }

func (e *mdlWriter) extent(x *Extent) {
	var zero Vec3
	if !sameVec(x.Min, zero) {
		e.vec("MinimumExtent", x.Min[:])
	}
	if !sameVec(x.Max, zero) {
		e.vec("MaximumExtent", x.Max[:])
	}
	if !same(x.BoundsRadius, 0) {
		e.float("BoundsRadius", x.BoundsRadius)
	}
}

// track writes "name N { Interp, [GlobalSeqId g,] frame: v, [InTan, OutTan] }".
func mdlWriteTrack[T TrackValue](e *mdlWriter, name string, t *Track[T], suffix string) {
	e.indent()
	e.b = append(e.b, name...)
	e.b = append(e.b, ' ')
	e.b = strconv.AppendInt(e.b, int64(len(t.Keys)), 10)
	e.b = append(e.b, " {\n"...)
	e.depth++
	e.indent()
	switch t.Interpolation {
	case DontInterp, Linear, Hermite, Bezier:
		e.b = append(e.b, t.Interpolation.String()...)
	default:
		e.b = strconv.AppendUint(e.b, uint64(t.Interpolation), 10)
	}
	e.b = append(e.b, ",\n"...)
	if t.GlobalSeqID != -1 {
		e.int("GlobalSeqId", int64(t.GlobalSeqID))
	}
	tan := t.Interpolation.HasTangents()
	for i := range t.Keys {
		k := &t.Keys[i]
		e.indent()
		e.b = strconv.AppendInt(e.b, int64(k.Frame), 10)
		e.b = append(e.b, ": "...)
		mdlValue(e, k.Value)
		e.b = append(e.b, ",\n"...)
		if tan {
			e.depth++
			e.indent()
			e.b = append(e.b, "InTan "...)
			mdlValue(e, k.InTan)
			e.b = append(e.b, ",\n"...)
			e.indent()
			e.b = append(e.b, "OutTan "...)
			mdlValue(e, k.OutTan)
			e.b = append(e.b, ",\n"...)
			e.depth--
		}
	}
	e.depth--
	e.indent()
	e.b = append(e.b, '}')
	e.b = append(e.b, suffix...)
	e.b = append(e.b, '\n')
}

func mdlValue[T TrackValue](e *mdlWriter, v T) {
	switch x := any(v).(type) {
	case float32:
		e.fl(x)
	case uint32:
		e.b = strconv.AppendUint(e.b, uint64(x), 10)
	case Vec3:
		e.vals(x[:])
	case Quat:
		e.vals(x[:])
	}
}

// animF writes a float that may be animated: the static value when there is
// no track or when it differs from def, then the track.
func (e *mdlWriter) animF(name string, v, def float32, t *Track[float32], always bool) {
	if t == nil || always || !same(v, def) {
		e.float("static "+name, v)
	}
	if t != nil {
		mdlWriteTrack(e, name, t, "")
	}
}

func (e *mdlWriter) animV(name string, v, def Vec3, t *Track[Vec3], rev, always bool) {
	if t == nil || always || !sameVec(v, def) {
		if rev {
			e.color("static "+name, v)
		} else {
			e.vec("static "+name, v[:])
		}
	}
	if t != nil {
		mdlWriteTrack(e, name, t, "")
	}
}

func trackF(e *mdlWriter, name string, t *Track[float32]) {
	if t != nil {
		mdlWriteTrack(e, name, t, "")
	}
}

func trackV(e *mdlWriter, name string, t *Track[Vec3]) {
	if t != nil {
		mdlWriteTrack(e, name, t, "")
	}
}

func (e *mdlWriter) model(m *Model) {
	// The version is written as the model holds it, even 0 (which the MDX
	// encoder treats as 800), so that reading the text back gives the same
	// model.
	v := m.Version
	e.b = append(e.b, "// Written by mdxrender\n"...)
	e.open("Version")
	e.int("FormatVersion", int64(v))
	e.close()

	e.openNamed("Model", m.Name)
	counts := []struct {
		name string
		n    int
	}{
		{"NumGeosets", len(m.Geosets)}, {"NumGeosetAnims", len(m.GeosetAnims)}, {"NumHelpers", len(m.Helpers)},
		{"NumLights", len(m.Lights)}, {"NumBones", len(m.Bones)}, {"NumAttachments", len(m.Attachments)},
		{"NumParticleEmitters", len(m.ParticleEmitters)}, {"NumParticleEmitters2", len(m.ParticleEmitters2)},
		{"NumParticleEmittersPopcorn", len(m.PopcornEmitters)}, {"NumRibbonEmitters", len(m.RibbonEmitters)},
		{"NumEvents", len(m.EventObjects)}, {"NumFaceFX", len(m.FaceEffects)},
	}
	for _, c := range counts {
		if c.n > 0 {
			e.int(c.name, int64(c.n))
		}
	}
	e.int("BlendTime", int64(m.BlendTime))
	e.extent(&m.Extent)
	if m.AnimationFile != "" {
		e.str("AnimationFile", m.AnimationFile)
	}
	e.close()

	if len(m.Sequences) > 0 {
		e.openCount("Sequences", len(m.Sequences))
		for i := range m.Sequences {
			s := &m.Sequences[i]
			e.openNamed("Anim", s.Name)
			e.ints("Interval", s.Interval[:], false)
			e.flags("Flags", s.Flags, sequenceFlags)
			if !same(s.MoveSpeed, 0) {
				e.float("MoveSpeed", s.MoveSpeed)
			}
			if !same(s.Rarity, 0) {
				e.float("Rarity", s.Rarity)
			}
			if s.SyncPoint != 0 {
				e.int("SyncPoint", int64(s.SyncPoint))
			}
			// WoW (v1300+) sequence fields, only when set.
			if !same(s.Frequency, 0) {
				e.float("Frequency", s.Frequency)
			}
			if s.Replay != [2]uint32{} {
				e.ints("Replay", s.Replay[:], false)
			}
			if s.BlendTime != 0 {
				e.int("BlendTime", int64(s.BlendTime))
			}
			e.extent(&s.Extent)
			e.close()
		}
		e.close()
	}
	if len(m.GlobalSequences) > 0 {
		e.openCount("GlobalSequences", len(m.GlobalSequences))
		for _, d := range m.GlobalSequences {
			e.int("Duration", int64(d))
		}
		e.close()
	}
	if len(m.Textures) > 0 {
		e.openCount("Textures", len(m.Textures))
		for i := range m.Textures {
			t := &m.Textures[i]
			e.open("Bitmap")
			e.str("Image", t.Path)
			if t.ReplaceableID != 0 {
				e.int("ReplaceableId", int64(t.ReplaceableID))
			}
			e.flags("Flags", t.Flags, textureFlags)
			e.close()
		}
		e.close()
	}
	if len(m.Materials) > 0 {
		e.openCount("Materials", len(m.Materials))
		for i := range m.Materials {
			e.material(&m.Materials[i], v)
		}
		e.close()
	}
	if len(m.TextureAnims) > 0 {
		e.openCount("TextureAnims", len(m.TextureAnims))
		for i := range m.TextureAnims {
			t := &m.TextureAnims[i]
			e.open("TVertexAnim")
			trackV(e, "Translation", t.Translation)
			if t.Rotation != nil {
				mdlWriteTrack(e, "Rotation", t.Rotation, "")
			}
			trackV(e, "Scaling", t.Scaling)
			e.close()
		}
		e.close()
	}
	for i := range m.Geosets {
		e.geoset(&m.Geosets[i])
	}
	for i := range m.GeosetAnims {
		a := &m.GeosetAnims[i]
		e.open("GeosetAnim")
		// The UseColor flag is implied by a Color line (as mdx-m3-viewer
		// reads it); other flag combinations are written as Flags.
		colorShown := a.Flags&GeoaUseColor != 0
		if a.Flags&^(GeoaDropShadow|GeoaUseColor) != 0 || (!colorShown && (a.ColorTrack != nil || !sameVec(a.Color, Vec3{1, 1, 1}))) {
			e.int("Flags", int64(a.Flags))
			colorShown = true
		} else if a.Flags&GeoaDropShadow != 0 {
			e.flag("DropShadow")
		}
		e.animF("Alpha", a.Alpha, 1, a.AlphaTrack, false)
		if colorShown {
			e.animV("Color", a.Color, Vec3{1, 1, 1}, a.ColorTrack, true, false)
		}
		e.int("GeosetId", int64(a.GeosetID))
		e.close()
	}
	for i := range m.Bones {
		b := &m.Bones[i]
		e.nodeOpen("Bone", &b.Node, NodeBone)
		if b.GeosetID == -1 {
			e.flag("GeosetId Multiple")
		} else {
			e.int("GeosetId", int64(b.GeosetID))
		}
		if b.GeosetAnimID == -1 {
			e.flag("GeosetAnimId None")
		} else {
			e.int("GeosetAnimId", int64(b.GeosetAnimID))
		}
		e.nodeClose(&b.Node)
	}
	for i := range m.Lights {
		l := &m.Lights[i]
		e.nodeOpen("Light", &l.Node, NodeLight)
		e.enum("LightType", uint32(l.Type), lightTypeNames[:])
		e.animF("AttenuationStart", l.AttenuationStart, 0, l.AttenuationStartTrack, true)
		e.animF("AttenuationEnd", l.AttenuationEnd, 0, l.AttenuationEndTrack, true)
		e.animF("Intensity", l.Intensity, 0, l.IntensityTrack, true)
		e.animV("Color", l.Color, Vec3{}, l.ColorTrack, true, true)
		e.animF("AmbIntensity", l.AmbIntensity, 0, l.AmbIntensityTrack, true)
		e.animV("AmbColor", l.AmbColor, Vec3{}, l.AmbColorTrack, true, true)
		if ver(m.Version).since(1200) || l.ShadowIntensity != 0 {
			// Version 1200 files always have it; an earlier version's
			// text keeps a value it was given.
			e.float("static ShadowIntensity", l.ShadowIntensity)
		}
		trackF(e, "Visibility", l.Visibility)
		e.nodeClose(&l.Node)
	}
	for i := range m.Helpers {
		h := &m.Helpers[i]
		e.nodeOpen("Helper", &h.Node, 0)
		e.nodeClose(&h.Node)
	}
	for i := range m.Attachments {
		a := &m.Attachments[i]
		e.nodeOpen("Attachment", &a.Node, NodeAttachment)
		e.int("AttachmentID", int64(a.AttachmentID))
		if a.Path != "" {
			e.str("Path", a.Path)
		}
		trackF(e, "Visibility", a.Visibility)
		e.nodeClose(&a.Node)
	}
	if len(m.PivotPoints) > 0 {
		e.openCount("PivotPoints", len(m.PivotPoints))
		for i := range m.PivotPoints {
			e.indent()
			e.vals(m.PivotPoints[i][:])
			e.b = append(e.b, ",\n"...)
		}
		e.close()
	}
	for i := range m.ParticleEmitters {
		p := &m.ParticleEmitters[i]
		e.nodeOpen("ParticleEmitter", &p.Node, NodeParticleEmitter)
		e.flagWords(p.Flags, emitterFlags)
		e.animF("EmissionRate", p.EmissionRate, 0, p.EmissionRateTrack, true)
		e.animF("Gravity", p.Gravity, 0, p.GravityTrack, true)
		e.animF("Longitude", p.Longitude, 0, p.LongitudeTrack, true)
		e.animF("Latitude", p.Latitude, 0, p.LatitudeTrack, true)
		trackF(e, "Visibility", p.Visibility)
		e.open("Particle")
		e.animF("LifeSpan", p.LifeSpan, 0, p.LifeSpanTrack, true)
		e.animF("InitVelocity", p.Speed, 0, p.SpeedTrack, true)
		e.str("Path", p.Path)
		e.close()
		e.nodeClose(&p.Node)
	}
	for i := range m.ParticleEmitters2 {
		e.pre2(&m.ParticleEmitters2[i])
	}
	for i := range m.PopcornEmitters {
		p := &m.PopcornEmitters[i]
		e.nodeOpen("ParticleEmitterPopcorn", &p.Node, NodeParticleEmitter)
		e.animF("LifeSpan", p.LifeSpan, 0, p.LifeSpanTrack, true)
		e.animF("EmissionRate", p.EmissionRate, 0, p.EmissionRateTrack, true)
		e.animF("Speed", p.Speed, 0, p.SpeedTrack, true)
		e.animV("Color", p.Color, Vec3{}, p.ColorTrack, true, true)
		e.animF("Alpha", p.Alpha, 0, p.AlphaTrack, true)
		trackF(e, "Visibility", p.Visibility)
		e.int("ReplaceableId", int64(p.ReplaceableID))
		e.str("Path", p.Path)
		e.str("AnimVisibilityGuide", p.AnimVisibilityGuide)
		e.nodeClose(&p.Node)
	}
	for i := range m.RibbonEmitters {
		r := &m.RibbonEmitters[i]
		e.nodeOpen("RibbonEmitter", &r.Node, NodeRibbonEmitter)
		e.animF("HeightAbove", r.HeightAbove, 0, r.HeightAboveTrack, true)
		e.animF("HeightBelow", r.HeightBelow, 0, r.HeightBelowTrack, true)
		e.animF("Alpha", r.Alpha, 0, r.AlphaTrack, true)
		e.animV("Color", r.Color, Vec3{}, r.ColorTrack, true, true)
		e.int("static TextureSlot", int64(r.TextureSlot))
		if r.TextureSlotTrack != nil {
			mdlWriteTrack(e, "TextureSlot", r.TextureSlotTrack, "")
		}
		trackF(e, "Visibility", r.Visibility)
		e.int("EmissionRate", int64(r.EmissionRate))
		e.float("LifeSpan", r.LifeSpan)
		e.float("Gravity", r.Gravity)
		e.int("Rows", int64(r.Rows))
		e.int("Columns", int64(r.Columns))
		e.int("MaterialID", int64(r.MaterialID))
		e.nodeClose(&r.Node)
	}
	for i := range m.Cameras {
		c := &m.Cameras[i]
		e.openNamed("Camera", c.Name)
		e.vec("Position", c.Position[:])
		trackV(e, "Translation", c.Translation)
		trackF(e, "Rotation", c.Rotation)
		e.float("FieldOfView", c.FieldOfView)
		e.float("FarClip", c.FarClip)
		e.float("NearClip", c.NearClip)
		e.open("Target")
		e.vec("Position", c.TargetPosition[:])
		trackV(e, "Translation", c.TargetTranslation)
		e.close()
		e.close()
	}
	for i := range m.EventObjects {
		ev := &m.EventObjects[i]
		e.nodeOpen("EventObject", &ev.Node, NodeEventObject)
		e.openCount("EventTrack", len(ev.Frames))
		if ev.GlobalSeqID != -1 {
			e.int("GlobalSeqId", int64(ev.GlobalSeqID))
		}
		for _, f := range ev.Frames {
			e.indent()
			e.b = strconv.AppendUint(e.b, uint64(f), 10)
			e.b = append(e.b, ",\n"...)
		}
		e.close()
		e.nodeClose(&ev.Node)
	}
	for i := range m.CollisionShapes {
		c := &m.CollisionShapes[i]
		e.nodeOpen("CollisionShape", &c.Node, NodeCollisionShape)
		e.enum("ShapeType", uint32(c.Type), shapeNames[:])
		n := c.NumVertices()
		if n == 1 && !sameVec(c.Vertices[1], Vec3{}) {
			n = 2 // not stored in MDX for this type, but keep the model's value
		}
		e.openCount("Vertices", n)
		for j := 0; j < n; j++ {
			e.indent()
			e.vals(c.Vertices[j][:])
			e.b = append(e.b, ",\n"...)
		}
		e.close()
		if c.HasRadius() || !same(c.BoundsRadius, 0) {
			e.float("BoundsRadius", c.BoundsRadius)
		}
		e.nodeClose(&c.Node)
	}
	for i := range m.FaceEffects {
		f := &m.FaceEffects[i]
		e.openNamed("FaceFX", f.Type)
		e.str("Path", f.Path)
		e.close()
	}
	if m.BindPose != nil {
		e.open("BindPose")
		e.openCount("Matrices", len(m.BindPose))
		for i := range m.BindPose {
			e.indent()
			e.vals(m.BindPose[i][:])
			e.b = append(e.b, ",\n"...)
		}
		e.close()
		e.close()
	}
	for i := range m.SoundTracks {
		s := &m.SoundTracks[i]
		e.openNamed("SoundTrack", s.Path)
		e.float("Volume", s.Volume)
		e.float("Pitch", s.Pitch)
		e.int("Flags", int64(s.Flags))
		e.close()
	}
	if len(m.Unknown) > 0 && e.err == nil {
		e.err = fmt.Errorf("mdl: the model has %d chunk(s) of unknown type (first %q), which MDL cannot represent", len(m.Unknown), m.Unknown[0].Tag)
	}
}

func (e *mdlWriter) material(mt *Material, version uint32) {
	e.open("Material")
	e.flags("Flags", mt.Flags, mdlMaterialFlags)
	if mt.PriorityPlane != 0 {
		e.int("PriorityPlane", int64(mt.PriorityPlane))
	}
	if mt.Shader != "" {
		e.str("Shader", mt.Shader)
	}
	for i := range mt.Layers {
		e.layer(&mt.Layers[i], version)
	}
	e.close()
}

// flags writes v as the keywords t names, or as "key v" when v has a bit t
// does not name.
func (e *mdlWriter) flags(key string, v uint32, t flagTable) {
	if v&^t.mask() != 0 {
		e.int(key, int64(v))
		return
	}
	e.flagWords(v, t)
}

// enum writes v as its keyword in names, or as "key v" past their end.
func (e *mdlWriter) enum(key string, v uint32, names []string) {
	if int(v) < len(names) {
		e.flag(names[v])
	} else {
		e.int(key, int64(v))
	}
}

// flagWords writes the keywords of the bits of v that t names, in t's order.
func (e *mdlWriter) flagWords(v uint32, t flagTable) {
	for _, f := range t {
		if v&f.bit != 0 {
			e.flag(f.name)
		}
	}
}

func (e *mdlWriter) layer(l *Layer, version uint32) {
	e.open("Layer")
	e.indent()
	e.b = append(e.b, "FilterMode "...)
	if int(l.FilterMode) < len(filterModeNames) {
		e.b = append(e.b, filterModeNames[l.FilterMode]...)
	} else {
		e.b = strconv.AppendUint(e.b, uint64(l.FilterMode), 10)
	}
	e.b = append(e.b, ",\n"...)
	// The Warcraft III names, whatever the version: a WoW bit that
	// differs is written as a number.
	e.flags("Flags", l.Flags, layerFlags)
	switch l.ShaderTypeID {
	case 0:
	case 1:
		e.str("Shader", shaderHD)
	default:
		e.int("ShaderTypeId", int64(l.ShaderTypeID))
	}
	e.int("static TextureID", int64(l.TextureID))
	if l.TextureIDTrack != nil {
		mdlWriteTrack(e, "TextureID", l.TextureIDTrack, "")
	}
	for i := range l.Textures {
		t := &l.Textures[i]
		e.indent()
		e.b = append(e.b, "static TextureID "...)
		e.b = strconv.AppendUint(e.b, uint64(t.TextureID), 10)
		e.b = append(e.b, " <= "...)
		e.b = strconv.AppendUint(e.b, uint64(t.Slot), 10)
		e.b = append(e.b, ",\n"...)
		if t.TextureIDTrack != nil {
			mdlWriteTrack(e, "TextureID", t.TextureIDTrack, " <= "+strconv.FormatUint(uint64(t.Slot), 10))
		}
	}
	if l.TextureAnimID != -1 {
		e.int("TVertexAnimId", int64(l.TextureAnimID))
	}
	if l.CoordID != 0 {
		e.int("CoordId", int64(l.CoordID))
	}
	e.animF("Alpha", l.Alpha, 1, l.AlphaTrack, false)
	e.animF("EmissiveGain", l.EmissiveGain, layerEmissiveDefault(version), l.EmissiveGainTrack, false)
	e.animV("FresnelColor", l.FresnelColor, Vec3{}, l.FresnelColorTrack, false, false)
	e.animF("FresnelOpacity", l.FresnelOpacity, 0, l.FresnelOpacityTrack, false)
	e.animF("FresnelTeamColor", l.FresnelTeamColor, 0, l.FresnelTeamColorTrack, false)
	e.close()
}

func (e *mdlWriter) geoset(g *Geoset) {
	e.open("Geoset")
	e.vec3s("Vertices", g.Vertices)
	e.vec3s("Normals", g.Normals)
	for _, uv := range g.UVSets {
		e.openCount("TVertices", len(uv))
		for i := range uv {
			e.indent()
			e.vals(uv[i][:])
			e.b = append(e.b, ",\n"...)
		}
		e.close()
	}
	if len(g.VertexGroups) > 0 {
		e.open("VertexGroup")
		for _, v := range g.VertexGroups {
			e.indent()
			e.b = strconv.AppendUint(e.b, uint64(v), 10)
			e.b = append(e.b, ",\n"...)
		}
		e.close()
	}
	if g.Tangents != nil {
		e.openCount("Tangents", len(g.Tangents))
		for i := range g.Tangents {
			e.indent()
			e.vals(g.Tangents[i][:])
			e.b = append(e.b, ",\n"...)
		}
		e.close()
	}
	if g.Skin != nil {
		e.openCount("SkinWeights", (len(g.Skin)+7)/8)
		for i := 0; i < len(g.Skin); i += 8 {
			e.indent()
			for j := i; j < i+8 && j < len(g.Skin); j++ {
				e.b = strconv.AppendUint(e.b, uint64(g.Skin[j]), 10)
				e.b = append(e.b, ", "...)
			}
			e.b[len(e.b)-1] = '\n'
		}
		e.close()
	}
	if len(g.FaceTypes) > 0 || len(g.Faces) > 0 || len(g.FaceGroups) > 0 {
		e.faces(g)
	}
	if len(g.MatrixGroups) > 0 || len(g.MatrixIndices) > 0 {
		e.indent()
		e.b = append(e.b, "Groups "...)
		e.b = strconv.AppendInt(e.b, int64(len(g.MatrixGroups)), 10)
		e.b = append(e.b, ' ')
		e.b = strconv.AppendInt(e.b, int64(len(g.MatrixIndices)), 10)
		e.b = append(e.b, " {\n"...)
		e.depth++
		at := 0
		for _, n := range g.MatrixGroups {
			end := at + int(n)
			if int(n) < 0 || end > len(g.MatrixIndices) {
				end = len(g.MatrixIndices)
				if e.err == nil {
					e.err = fmt.Errorf("mdl: geoset matrix groups need %d indices but the model has %d", sumU32(g.MatrixGroups), len(g.MatrixIndices))
				}
			}
			e.ints("Matrices", g.MatrixIndices[at:end], false)
			at = end
		}
		if at != len(g.MatrixIndices) && e.err == nil {
			e.err = fmt.Errorf("mdl: geoset has %d matrix indices that belong to no matrix group", len(g.MatrixIndices)-at)
		}
		e.close()
	}
	e.u32List("BoneIndices", g.BoneIndices)
	e.u32List("BoneWeights", g.BoneWeights)
	e.extent(&g.Extent)
	for i := range g.SequenceExtents {
		e.open("Anim")
		e.extent(&g.SequenceExtents[i])
		e.close()
	}
	e.int("MaterialID", int64(g.MaterialID))
	e.int("SelectionGroup", int64(g.SelectionGroup))
	e.flags("SelectionFlags", g.SelectionFlags, geosetFlags)
	if g.LOD != 0 {
		e.int("LevelOfDetail", int64(g.LOD))
	}
	if g.LODName != "" {
		e.str("Name", g.LODName)
	}
	e.close()
}

// u32List writes a WoW word list; nil (absent) writes nothing.
func (e *mdlWriter) u32List(name string, v []uint32) {
	if v == nil {
		return
	}
	e.openCount(name, len(v))
	for i := 0; i < len(v); i += 8 {
		e.indent()
		for j := i; j < i+8 && j < len(v); j++ {
			e.b = strconv.AppendUint(e.b, uint64(v[j]), 10)
			e.b = append(e.b, ", "...)
		}
		e.b[len(e.b)-1] = '\n'
	}
	e.close()
}

func sumU32(s []uint32) (n uint64) {
	for _, v := range s {
		n += uint64(v)
	}
	return
}

func (e *mdlWriter) vec3s(name string, v []Vec3) {
	if len(v) == 0 {
		return
	}
	e.openCount(name, len(v))
	for i := range v {
		e.indent()
		e.vals(v[i][:])
		e.b = append(e.b, ",\n"...)
	}
	e.close()
}

func (e *mdlWriter) faces(g *Geoset) {
	if len(g.FaceTypes) != len(g.FaceGroups) || sumU32(g.FaceGroups) != uint64(len(g.Faces)) {
		if e.err == nil {
			e.err = fmt.Errorf("mdl: geoset face groups (%d types, %d counts summing to %d) do not match its %d face indices",
				len(g.FaceTypes), len(g.FaceGroups), sumU32(g.FaceGroups), len(g.Faces))
		}
		return
	}
	e.indent()
	e.b = append(e.b, "Faces "...)
	e.b = strconv.AppendInt(e.b, int64(len(g.FaceGroups)), 10)
	e.b = append(e.b, ' ')
	e.b = strconv.AppendInt(e.b, int64(len(g.Faces)), 10)
	e.b = append(e.b, " {\n"...)
	e.depth++
	at := 0
	for i, typ := range g.FaceTypes {
		n := int(g.FaceGroups[i])
		if int(typ) < len(faceTypeNames) {
			e.open(faceTypeNames[typ])
		} else {
			e.open(strconv.FormatUint(uint64(typ), 10))
		}
		e.indent()
		e.b = append(e.b, "{ "...)
		for j, f := range g.Faces[at : at+n] {
			if j > 0 {
				e.b = append(e.b, ", "...)
			}
			e.b = strconv.AppendUint(e.b, uint64(f), 10)
		}
		e.b = append(e.b, " },\n"...)
		at += n
		e.close()
	}
	e.close()
}

// nodeOpen writes a node's header and flags. The type bit is implied by the
// block name; flags the MDL names cannot express are written as NodeFlags.
func (e *mdlWriter) nodeOpen(kind string, n *Node, typeBit uint32) {
	e.openNamed(kind, n.Name)
	e.int("ObjectId", int64(n.ObjectID))
	if n.ParentID != -1 {
		e.int("Parent", int64(n.ParentID))
	}
	named := mdlNodeFlags.mask() | mdlDontInherit.mask()
	if typeBit == NodeParticleEmitter {
		switch kind {
		case "ParticleEmitter":
			named |= emitterFlags.mask()
		case "ParticleEmitter2":
			named |= mdlEmitter2Flags.mask()
		}
	}
	if n.Flags&typeBit != typeBit || n.Flags&^(named|typeBit) != 0 {
		e.int("NodeFlags", int64(n.Flags))
		return
	}
	f := n.Flags
	e.flagWords(f, mdlNodeFlags)
	if f&mdlDontInherit.mask() != 0 {
		e.indent()
		e.b = append(e.b, "DontInherit {"...)
		sep := " "
		for _, d := range mdlDontInherit {
			if f&d.bit != 0 {
				e.b = append(e.b, sep...)
				e.b = append(e.b, d.name...)
				sep = ", "
			}
		}
		e.b = append(e.b, " },\n"...)
	}
	if kind == "ParticleEmitter2" {
		e.flagWords(f, mdlEmitter2Flags)
	}
}

// nodeClose writes the node's transform tracks and closes the block.
func (e *mdlWriter) nodeClose(n *Node) {
	trackV(e, "Translation", n.Translation)
	if n.Rotation != nil {
		mdlWriteTrack(e, "Rotation", n.Rotation, "")
	}
	trackV(e, "Scaling", n.Scaling)
	e.close()
}

func (e *mdlWriter) pre2(p *ParticleEmitter2) {
	e.nodeOpen("ParticleEmitter2", &p.Node, NodeParticleEmitter)
	e.animF("Speed", p.Speed, 0, p.SpeedTrack, true)
	e.animF("Variation", p.Variation, 0, p.VariationTrack, true)
	e.animF("Latitude", p.Latitude, 0, p.LatitudeTrack, true)
	e.animF("Gravity", p.Gravity, 0, p.GravityTrack, true)
	trackF(e, "Visibility", p.Visibility)
	switch p.Squirt {
	case 0:
	case 1:
		e.flag("Squirt")
	default:
		if e.err == nil {
			e.err = fmt.Errorf("mdl: particle emitter %q has Squirt %d; MDL can only say 0 or 1", p.Name, p.Squirt)
		}
	}
	e.float("LifeSpan", p.LifeSpan)
	e.animF("EmissionRate", p.EmissionRate, 0, p.EmissionRateTrack, true)
	e.animF("Width", p.Width, 0, p.WidthTrack, true)
	e.animF("Length", p.Length, 0, p.LengthTrack, true)
	e.enum("FilterMode", p.FilterMode, emitter2FilterNames[:])
	e.int("Rows", int64(p.Rows))
	e.int("Columns", int64(p.Columns))
	e.enum("HeadOrTail", p.HeadOrTail, headTailNames[:])
	e.float("TailLength", p.TailLength)
	e.float("Time", p.Time)
	e.open("SegmentColor")
	for i := range p.SegmentColors {
		e.color("Color", p.SegmentColors[i])
	}
	e.close()
	e.ints("Alpha", []uint32{uint32(p.SegmentAlphas[0]), uint32(p.SegmentAlphas[1]), uint32(p.SegmentAlphas[2])}, false)
	e.vec("ParticleScaling", p.SegmentScaling[:])
	e.ints("LifeSpanUVAnim", p.HeadIntervals[:], false)
	e.ints("DecayUVAnim", p.HeadDecayIntervals[:], false)
	e.ints("TailUVAnim", p.TailIntervals[:], false)
	e.ints("TailDecayUVAnim", p.TailDecayIntervals[:], false)
	e.int("TextureID", int64(p.TextureID))
	if p.ReplaceableID != 0 {
		e.int("ReplaceableId", int64(p.ReplaceableID))
	}
	if p.PriorityPlane != 0 {
		e.int("PriorityPlane", int64(p.PriorityPlane))
	}
	e.nodeClose(&p.Node)
}
