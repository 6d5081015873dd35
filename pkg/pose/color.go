package pose

import (
	"math"

	"github.com/fogleman/fauxgl"

	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// GeosetColor returns geoset gi's colour (RGB) and alpha at the last
// Update's clock (docs/rendering.md#geoset-colour-and-alpha): the last GEOA naming the geoset
// applies; the static colour is RGB in file order, animated KGAC keys are
// BGR; an animated colour with no key in the sequence is white (deliberate
// deviation from MV's black). No GEOA gives opaque white.
func (p *Pose) GeosetColor(gi int) [4]float32 {
	c := p.clock
	var ga *mdx.GeosetAnim
	for i := range p.m.GeosetAnims {
		if int(p.m.GeosetAnims[i].GeosetID) == gi {
			ga = &p.m.GeosetAnims[i]
		}
	}
	if ga == nil {
		return [4]float32{1, 1, 1, 1}
	}
	a := Float(p.m, ga.AlphaTrack, c, ga.Alpha, 1, false)
	rgb := [3]float32{ga.Color[0], ga.Color[1], ga.Color[2]}
	if ga.ColorTrack != nil {
		bgr := Vec3(p.m, ga.ColorTrack, c, mdx.Vec3{ga.Color[2], ga.Color[1], ga.Color[0]}, mdx.Vec3{1, 1, 1})
		rgb = [3]float32{bgr[2], bgr[1], bgr[0]}
	}
	return [4]float32{rgb[0], rgb[1], rgb[2], a}
}

// LayerAlpha returns the layer's alpha (KMTA, static value 1 by default).
func (p *Pose) LayerAlpha(l *mdx.Layer) float32 {
	return Float(p.m, l.AlphaTrack, p.clock, l.Alpha, 1, false)
}

// EmissiveGain returns the layer's emissive gain (KMTE, static
// Layer.EmissiveGain), which scales a Reforged HD material's emissive map.
func (p *Pose) EmissiveGain(l *mdx.Layer) float32 {
	return Float(p.m, l.EmissiveGainTrack, p.clock, l.EmissiveGain, 1, false)
}

// LayerTexture returns the TEXS index the layer shows now: the KMTF
// flipbook key in force (step), else the static id; −1 becomes 0.
func (p *Pose) LayerTexture(l *mdx.Layer) int {
	static := l.TextureID
	if static < 0 {
		static = 0
	}
	return int(Uint(p.m, l.TextureIDTrack, p.clock, uint32(static), 0))
}

// TexTransform is a layer's texture animation at one clock (docs/rendering.md#texture-animation):
// translate, rotate about (0.5, 0.5) by the Z part of the quaternion, then
// scale about (0.5, 0.5) by the X scale.
type TexTransform struct {
	T    [2]float32
	Q    [2]float32 // z and w of the rotation quaternion
	S    float32
	None bool // identity: Apply may be skipped
}

// Apply maps an original texture coordinate to the animated one.
func (t *TexTransform) Apply(uv mdx.Vec2) mdx.Vec2 {
	if t.None {
		return uv
	}
	u, v := uv[0]+t.T[0], uv[1]+t.T[1]
	// v' = v + 2(w·(k×v) + k×(k×v)), k = (0, 0, z), in 2D about (0.5, 0.5).
	x, y := u-0.5, v-0.5
	z, w := t.Q[0], t.Q[1]
	kx, ky := -z*y, z*x     // k × v
	kkx, kky := -z*ky, z*kx // k × (k × v)
	x, y = x+2*(w*kx+kkx), y+2*(w*ky+kky)
	return mdx.Vec2{t.S*x + 0.5, t.S*y + 0.5}
}

// TextureTransform returns texture animation ai's transform; an index out
// of range (−1: none) gives the identity.
func (p *Pose) TextureTransform(ai int32) TexTransform {
	if ai < 0 || int(ai) >= len(p.m.TextureAnims) {
		return TexTransform{S: 1, Q: [2]float32{0, 1}, None: true}
	}
	ta := &p.m.TextureAnims[ai]
	tr := Vec3(p.m, ta.Translation, p.clock, defT, defT)
	q := Quat(p.m, ta.Rotation, p.clock, defR, defR)
	s := Vec3(p.m, ta.Scaling, p.clock, defS, defS)
	t := TexTransform{T: [2]float32{tr[0], tr[1]}, Q: [2]float32{q[2], q[3]}, S: s[0]}
	t.None = t.T == [2]float32{} && t.Q[0] == 0 && t.S == 1
	return t
}

// NodeVisibility returns the visibility track value of node i (attachments
// KATV, lights KLAV, emitters KPEV/KP2V/KPPV, ribbons KRVS; sampled as step
// tracks, docs/rendering.md#interpolation), or 1 for nodes without one.
func (p *Pose) NodeVisibility(i int) float32 {
	nd := p.nodes[i]
	m := p.m
	var tr *mdx.Track[float32]
	for k := range m.Attachments {
		if &m.Attachments[k].Node == nd {
			tr = m.Attachments[k].Visibility
		}
	}
	for k := range m.Lights {
		if &m.Lights[k].Node == nd {
			tr = m.Lights[k].Visibility
		}
	}
	for k := range m.ParticleEmitters {
		if &m.ParticleEmitters[k].Node == nd {
			tr = m.ParticleEmitters[k].Visibility
		}
	}
	for k := range m.ParticleEmitters2 {
		if &m.ParticleEmitters2[k].Node == nd {
			tr = m.ParticleEmitters2[k].Visibility
		}
	}
	for k := range m.PopcornEmitters {
		if &m.PopcornEmitters[k].Node == nd {
			tr = m.PopcornEmitters[k].Visibility
		}
	}
	for k := range m.RibbonEmitters {
		if &m.RibbonEmitters[k].Node == nd {
			tr = m.RibbonEmitters[k].Visibility
		}
	}
	return Float(m, tr, p.clock, 1, 1, true)
}

// CameraPose is a portrait camera (CAMS) at one clock.
type CameraPose struct {
	Eye, Target fauxgl.Vector
	Up          fauxgl.Vector // (0, 0, 1) turned about the view axis by Roll
	Roll        float64       // radians, KCRL
	// FieldOfView is the CAMS value in radians, used as the vertical field
	// of view as the reference viewer does (docs/rendering.md#portrait-cameras).
	FieldOfView float64
	Near, Far   float64
}

// Camera returns camera ci at the last Update's clock: eye = Position +
// KCTR, target = TargetPosition + KTTR, roll = KCRL (docs/rendering.md#portrait-cameras).
func (p *Pose) Camera(ci int) CameraPose {
	cam := &p.m.Cameras[ci]
	c := p.clock
	zero := mdx.Vec3{}
	t := Vec3(p.m, cam.Translation, c, zero, zero)
	tt := Vec3(p.m, cam.TargetTranslation, c, zero, zero)
	roll := float64(Float(p.m, cam.Rotation, c, 0, 0, false))
	cp := CameraPose{
		Eye:         fauxgl.Vector{X: float64(cam.Position[0] + t[0]), Y: float64(cam.Position[1] + t[1]), Z: float64(cam.Position[2] + t[2])},
		Target:      fauxgl.Vector{X: float64(cam.TargetPosition[0] + tt[0]), Y: float64(cam.TargetPosition[1] + tt[1]), Z: float64(cam.TargetPosition[2] + tt[2])},
		Roll:        roll,
		FieldOfView: float64(cam.FieldOfView),
		Near:        float64(cam.NearClip),
		Far:         float64(cam.FarClip),
	}
	up := [3]float64{0, 0, 1}
	if roll != 0 {
		fwd := norm3(sub3(vec3(cp.Target), vec3(cp.Eye)))
		up = qrot(axisAngle(fwd, roll), up)
	}
	if math.IsNaN(up[0]) {
		up = [3]float64{0, 0, 1}
	}
	cp.Up = vector(up)
	return cp
}
