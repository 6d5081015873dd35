package raster

import (
	"math/rand"
	"testing"

	"github.com/fogleman/fauxgl"
)

// fixedShader is the fixed rule written as a Shader: texel (at the LOD the
// fixed rule would use) × colour, then the SD lighting.
type fixedShader struct {
	tex     Sampler
	lit     bool
	ambient float32
}

func (s fixedShader) Shade(f *Fragment) [4]float32 {
	r, g, b, a := f.Color[0], f.Color[1], f.Color[2], f.Color[3]
	if s.tex != nil {
		tx := s.tex.Sample(f.UV[0], f.UV[1], f.LOD(s.tex.Width(), s.tex.Height()))
		r, g, b, a = r*tx[0], g*tx[1], b*tx[2], a*tx[3]
	}
	if s.lit {
		n, l := f.Normal, f.Light
		k := min(max(float32(n[0]*l[0])+float32(n[1]*l[1])+float32(n[2]*l[2]), 0)+s.ambient, 1)
		r, g, b = r*k, g*k, b*k
	}
	return [4]float32{r, g, b, a}
}

// lodSampler returns its inputs as the colour, so a picture records the
// UV and LOD each fragment sampled with.
type lodSampler struct{ w, h int }

func (s lodSampler) Width() int  { return s.w }
func (s lodSampler) Height() int { return s.h }
func (s lodSampler) Sample(u, v, lod float32) [4]float32 {
	return [4]float32{u, v, float32(lod/16) + 0.5, 1}
}

// TestShaderMatchesFixedRule draws the unit sphere with random states once
// with the fixed rule and once through a Shader that computes the same
// thing from its Fragment: colour and depth buffers must be bit-identical,
// so the Fragment carries exactly the fixed rule's interpolated inputs and
// LOD, and state (alpha test, blend, depth, culling) applies after the
// Shader as before it.
func TestShaderMatchesFixedRule(t *testing.T) {
	m := sphere([3]float32{0, 0, 60}, 60, 12, 18)
	box := fauxgl.Box{Min: fauxgl.V(-60, -60, 0), Max: fauxgl.V(60, 60, 120)}
	vs := m.project(orbitCamera(box, 30, 20, 1.1).ViewProjection(1), nil)
	for i := range vs {
		vs[i].Color = [4]float32{float32(i%7) / 6, 0.5, 1, float32(i%5) / 4}
	}
	rng := rand.New(rand.NewSource(3))
	// The *Texture ones take the fragment loop's direct path; the Shader
	// reaches them through Sample: both must give the same bits, repeated
	// over a power of two, over another size, and clamped.
	odd := mipChecker(48, 6, [4]float32{0.2, 0.9, 0.1, 0.8}, [4]float32{1, 0.4, 0.7, 0.2})
	clamped := *odd
	clamped.RepeatU, clamped.RepeatV = false, false
	texs := []Sampler{nil, checker(64, 8, [4]float32{0.9, 0.8, 0.6, 1}, [4]float32{0.3, 0.4, 0.7, 0.3}), lodSampler{128, 32},
		mipChecker(64, 8, [4]float32{0.9, 0.8, 0.6, 1}, [4]float32{0.3, 0.4, 0.7, 0.3}), odd, &clamped}
	for round := 0; round < 80; round++ {
		var fixed, shaded []Batch
		for k := 0; k < 3; k++ {
			st := randomState(rng.Intn(8), rng.Intn(2) == 0, rng.Intn(2) == 0)
			b := Batch{
				State:       st,
				Texture:     texs[rng.Intn(len(texs))],
				Color:       [4]float32{rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()},
				VertexColor: rng.Intn(2) == 0,
				Vertices:    vs,
				Indices:     m.idx,
			}
			fixed = append(fixed, b)
			b.Shader = fixedShader{tex: b.Texture, lit: st.Lit, ambient: st.Ambient}
			b.Texture = nil
			shaded = append(shaded, b)
		}
		a, b := newTarget(t, 64, 64), newTarget(t, 64, 64)
		opt := DrawOptions{LODBias: float32(round%3) * 0.5}
		if err := a.Draw(fixed, opt); err != nil {
			t.Fatal(err)
		}
		if err := b.Draw(shaded, opt); err != nil {
			t.Fatal(err)
		}
		for i := range a.Color {
			if a.Color[i] != b.Color[i] {
				t.Fatalf("round %d: colour[%d] = %v through the Shader, %v with the fixed rule", round, i, b.Color[i], a.Color[i])
			}
		}
		for i := range a.Depth {
			if a.Depth[i] != b.Depth[i] {
				t.Fatalf("round %d: depth[%d] = %v through the Shader, %v with the fixed rule", round, i, b.Depth[i], a.Depth[i])
			}
		}
	}
}

// TestFragmentLOD checks Fragment.LOD against the fixed rule's formula on a
// hand-made fragment: UV changing by 1/64 per pixel in x on a 256² texture
// is a footprint of 4 texels, λ = 2; a non-square texture takes the larger
// axis; no change is −32.
func TestFragmentLOD(t *testing.T) {
	f := Fragment{dudx: 1.0 / 64}
	if got := f.LOD(256, 256); got < 1.9999 || got > 2.0001 {
		t.Errorf("LOD(256, 256) = %v, want 2", got)
	}
	f.lodBias = 1
	if got := f.LOD(512, 16); got < 3.9999 || got > 4.0001 {
		t.Errorf("LOD(512, 16) with bias 1 = %v, want 4", got)
	}
	if got := (&Fragment{}).LOD(64, 64); got != -32 {
		t.Errorf("LOD of a constant UV = %v, want -32", got)
	}
}
