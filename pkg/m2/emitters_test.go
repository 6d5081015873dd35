package m2

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/m2build"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

func TestEmitterRecordSizes(t *testing.T) {
	for _, v := range []uint32{256, 263} {
		if n := len(particleRecord(m2build.New(v), v, particleSpec{})); n != particleSize {
			t.Errorf("v%d: particle record %d bytes, want %d", v, n, particleSize)
		}
	}
}

func TestEmitterDecode(t *testing.T) {
	for _, v := range []uint32{256, 260, 263} {
		f, err := Decode(emitterFixture(v))
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		if len(f.Particles) != 3 || len(f.Ribbons) != 1 {
			t.Fatalf("v%d: %d particle and %d ribbon emitters", v, len(f.Particles), len(f.Ribbons))
		}
		p := f.Particles[0]
		if p.ID != -1 || p.Flags != 0x10 || p.Position != (mdx.Vec3{0.5, 0, 1}) || p.Bone != 0 || p.Texture != 0 ||
			p.GeometryModel != "Spawn.mdx" || p.RecursionModel != "" {
			t.Errorf("v%d particle 0 header: %+v", v, p)
		}
		// The blending and emitter types are u16s before version 263 and
		// bytes followed by the ParticleColor index from it.
		wantColor := uint16(0)
		if v >= 263 {
			wantColor = 11
		}
		if p.Blend != BlendAddAlpha || p.EmitterType != 1 || p.ColorIndex != wantColor || p.ParticleType != 2 ||
			p.TileRotation != 1 || p.Rows != 2 || p.Columns != 4 {
			t.Errorf("v%d particle 0 types: %+v", v, p)
		}
		if p.Speed.Values[0] != 2 || p.Variation.Values[0] != 0.1 || p.VerticalRange.Values[0] != 0.5 ||
			p.HorizontalRange.Values[0] != 3.14 || p.Gravity.Values[0] != 9.8 || p.LifeSpan.Values[0] != 1.5 ||
			p.AreaLength.Values[0] != 1 || p.AreaWidth.Values[0] != 2 || p.ZSource.Values[0] != 0 {
			t.Errorf("v%d particle 0 tracks", v)
		}
		if r := p.EmissionRate; r.Interpolation != 1 || len(r.Ranges) != 1 || len(r.Times) != 2 || r.Times[1] != 500 || r.Values[1] != 20 {
			t.Errorf("v%d emission rate: %+v", v, r)
		}
		if p.MidPoint != 0.25 || p.Colors[1] != [4]uint8{0, 255, 255, 128} || p.Scales != [3]float32{0.1, 0.2, 0.05} ||
			p.HeadCells != [2][3]uint16{{0, 3, 1}, {4, 7, 2}} || p.TailCells != [2][2]int16{{1, 2}, {-1, 5}} {
			t.Errorf("v%d particle 0 ramps: %+v %+v %+v %+v %+v", v, p.MidPoint, p.Colors, p.Scales, p.HeadCells, p.TailCells)
		}
		if p.TailLength != 0.5 || p.TwinkleSpeed != 10 || p.TwinklePercent != 1 || p.TwinkleScale != [2]float32{1, 1.5} ||
			p.BurstMultiplier != 1 || p.Drag != 0.5 || p.Spin != 0.25 || p.Wind != (mdx.Vec3{0, 0, -1}) || p.WindTime != 2 ||
			p.FollowSpeed1 != 2.5 || p.FollowScale2 != 0.9 {
			t.Errorf("v%d particle 0 tail fields: %+v", v, p)
		}
		if len(p.EnabledIn.Values) != 1 || p.EnabledIn.Values[0] != 1 {
			t.Errorf("v%d enabled: %+v", v, p.EnabledIn)
		}
		s := f.Particles[2]
		if s.EmitterType != 3 || len(s.SplinePoints) != 4 || s.SplinePoints[3] != (mdx.Vec3{3, 1, 1}) {
			t.Errorf("v%d spline emitter: %+v", v, s.SplinePoints)
		}
		r := f.Ribbons[0]
		if r.ID != -1 || r.Bone != 1 || r.Position != (mdx.Vec3{0, 0.5, 1}) || len(r.Textures) != 1 || r.Materials[0] != 1 ||
			r.EdgesPerSecond != 30 || r.EdgeLifetime != 0.5 || r.Gravity != -1 || r.Rows != 1 || r.Columns != 2 {
			t.Errorf("v%d ribbon: %+v", v, r)
		}
		if len(r.Color.Values) != 2 || r.Color.Values[1] != (mdx.Vec3{0, 0, 1}) || r.Alpha.Values[0] != 16384 ||
			r.HeightAbove.Values[0] != 0.75 || r.HeightBelow.Values[0] != 0.25 || r.TextureSlot.Values[0] != 1 ||
			len(r.Visibility.Values) != 2 || r.Visibility.Values[1] != 0 {
			t.Errorf("v%d ribbon tracks: %+v", v, r)
		}
	}
}

func TestEmitterModel(t *testing.T) {
	for _, v := range []uint32{256, 263} {
		m := validModel(t, v, emitterFixture(v))
		if len(m.WoWParticleEmitters) != 3 || len(m.WoWRibbonEmitters) != 1 {
			t.Fatalf("v%d: %d and %d WoW emitters", v, len(m.WoWParticleEmitters), len(m.WoWRibbonEmitters))
		}
		p := m.WoWParticleEmitters[0]
		if p.Bone != 0 || p.EmitterType != mdx.WoWEmitterPlane || p.FilterMode != mdx.FilterAddAlpha || p.ParticleType != 2 ||
			p.PriorityPlane != 1 || p.Rows != 2 || p.Columns != 4 || p.TextureID != 0 {
			t.Errorf("v%d emitter 0: %+v", v, p)
		}
		// One-key blocks are static values; blocks of several keys tracks.
		if p.Speed != 2 || p.SpeedTrack != nil || p.LifeSpan != 1.5 || p.EmissionRate != 10 || p.EmissionRateTrack == nil ||
			len(p.EmissionRateTrack.Keys) != 2 || p.EmissionRateTrack.Keys[1].Value != 20 || p.EmissionRateTrack.Interpolation != mdx.Linear {
			t.Errorf("v%d emitter 0 parameters: %+v", v, p)
		}
		if p.Gravity != (mdx.Vec3{0, 0, -9.8}) || p.Visibility != 1 || p.VisibilityTrack != nil {
			t.Errorf("v%d gravity %v, visibility %v", v, p.Gravity, p.Visibility)
		}
		if p.SegmentColors[1] != (mdx.Vec3{0, 1, 1}) || p.SegmentAlphas != [3]uint8{0, 128, 0} || p.MiddleTime != 0.25 {
			t.Errorf("v%d ramps: %+v %+v", v, p.SegmentColors, p.SegmentAlphas)
		}
		if p.HeadIntervals != [3]uint32{0, 3, 1} || p.HeadDecayIntervals != [3]uint32{4, 7, 2} ||
			p.TailIntervals != [3]uint32{1, 2, 1} || p.TailDecayIntervals != [3]uint32{0, 5, 1} {
			t.Errorf("v%d cells: %v %v %v %v", v, p.HeadIntervals, p.HeadDecayIntervals, p.TailIntervals, p.TailDecayIntervals)
		}
		g := m.WoWParticleEmitters[1].Gravity
		if !near(g[0], 2.1193) || g[1] != 0 || !near(g[2], -3.6708) {
			t.Errorf("v%d compressed gravity %v", v, g)
		}
		if s := m.WoWParticleEmitters[2]; s.EmitterType != mdx.WoWEmitterSpline || len(s.SplinePoints) != 4 || s.FilterMode != mdx.FilterBlend {
			t.Errorf("v%d spline emitter: %+v", v, s)
		}
		r := m.WoWRibbonEmitters[0]
		if len(r.Layers) != 1 || r.Layers[0].TextureID != 1 || r.Layers[0].FilterMode != mdx.FilterAdditive ||
			r.Layers[0].Flags != mdx.LayerUnshaded|mdx.LayerNoDepthSet {
			t.Errorf("v%d ribbon layers: %+v", v, r.Layers)
		}
		// Colours in MDX order (blue, green, red).
		if r.Color != (mdx.Vec3{0, 0, 1}) || r.ColorTrack == nil || r.ColorTrack.Keys[1].Value != (mdx.Vec3{1, 0, 0}) ||
			!near(r.Alpha, 0.5) || r.HeightAbove != 0.75 || r.HeightBelow != 0.25 || r.TextureSlot != 1 ||
			r.VisibilityTrack == nil || r.VisibilityTrack.Keys[1].Value != 0 || r.LifeSpan != 0.5 || r.EdgesPerSecond != 30 {
			t.Errorf("v%d ribbon: %+v", v, r)
		}
	}
}

func TestDecompressGravity(t *testing.T) {
	for _, c := range []struct {
		x, y int8
		z    int16
		want mdx.Vec3
	}{
		{0, 0, 100, mdx.Vec3{0, 0, 4.238648}},
		{0, 0, -100, mdx.Vec3{0, 0, -4.238648}},
		{64, 0, -100, mdx.Vec3{2.119324, 0, -3.670777}},
		{0, -128, 10, mdx.Vec3{0, -0.4238648, 0}},
	} {
		g := DecompressGravity(math.Float32frombits(compressedGravity(c.x, c.y, c.z)))
		for k := range 3 {
			if !near(g[k], c.want[k]) {
				t.Errorf("(%d, %d, %d) = %v, want %v", c.x, c.y, c.z, g, c.want)
				break
			}
		}
	}
}

// Every broken reference or span of the emitter blocks is a FormatError
// naming the block and the offset.
func TestEmitterErrors(t *testing.T) {
	good := emitterFixture(263)
	po := binary.LittleEndian.Uint32(good[0x140:])
	ro := binary.LittleEndian.Uint32(good[0x138:])
	for _, c := range []struct {
		name  string
		edit  func(b []byte)
		block string
		at    int64
	}{
		{"particle bone", func(b []byte) { binary.LittleEndian.PutUint16(b[po+20:], 7) }, "particle emitter 0", int64(po) + 20},
		{"particle texture", func(b []byte) { binary.LittleEndian.PutUint16(b[po+particleSize+22:], 2) }, "particle emitter 1", int64(po) + particleSize + 22},
		{"particle count", func(b []byte) { binary.LittleEndian.PutUint32(b[0x13C:], 1000) }, "particle emitters", int64(po)},
		{"spline points", func(b []byte) { binary.LittleEndian.PutUint32(b[po+2*particleSize+468:], 1<<20) }, "particle emitter 2 spline points", -1},
		{"model name", func(b []byte) { binary.LittleEndian.PutUint32(b[po+28:], 0xFFFFFF00) }, "particle emitter 0 model name", 0xFFFFFF00},
		{"particle track", func(b []byte) { binary.LittleEndian.PutUint32(b[po+52+28*6+12:], 1<<24) }, "particle emitter 0 emission rate timestamps", -1},
		{"ribbon bone", func(b []byte) { binary.LittleEndian.PutUint32(b[ro+4:], 2) }, "ribbon emitter 0", int64(ro) + 4},
		{"ribbon material", func(b []byte) {
			at := binary.LittleEndian.Uint32(b[ro+32:])
			binary.LittleEndian.PutUint16(b[at:], 3)
		}, "ribbon emitter 0 materials", -2},
		{"ribbon visibility", func(b []byte) { binary.LittleEndian.PutUint32(b[ro+192+20:], 3) }, "ribbon emitter 0 visibility", -1},
	} {
		b := append([]byte(nil), good...)
		c.edit(b)
		_, err := Decode(b)
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: %v, want a FormatError", c.name, err)
			continue
		}
		if !strings.HasPrefix(fe.Block, c.block) || (c.at >= 0 && fe.Offset != c.at) {
			t.Errorf("%s: %v (block %q, offset %#x), want %q at %#x", c.name, err, fe.Block, fe.Offset, c.block, c.at)
		}
	}
}
