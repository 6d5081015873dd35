package render

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/cputime"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// writeRGBADDS writes img as an uncompressed 32-bit DDS with its mip
// chain down to 1×1, as game textures carry one.
func writeRGBADDS(tb testing.TB, path string, img *image.NRGBA) {
	tb.Helper()
	var b bytes.Buffer
	if err := texture.EncodeDDS(&b, img, &texture.DDSOptions{Format: texture.DDSBGRA}); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// hdBenchUnit is a stand-in for a Reforged unit: a 6,016-triangle sphere
// skinned by SKIN weights to four bones that turn over Stand, its HD
// material's diffuse, normal and ORM maps 256² DDS files with mip chains,
// a Black32 emissive map and the team colour. sd gives the same geometry
// one SD layer with the diffuse map instead.
func hdBenchUnit(tb testing.TB, dir string, sd bool) *mdx.Model {
	m := hdBase("hd_bench", 1000)
	m.Textures = []mdx.Texture{
		{Path: "diffuse.dds", Flags: mdx.TexWrapWidth | mdx.TexWrapHeight},
		{Path: "normal.dds", Flags: mdx.TexWrapWidth | mdx.TexWrapHeight},
		{Path: "orm.dds", Flags: mdx.TexWrapWidth | mdx.TexWrapHeight},
		{Path: "Black32.dds"},
		{ReplaceableID: 1},
		{Path: "EnvironmentMap.dds"},
	}
	if sd {
		addMaterial(m, 0, layer(mdx.FilterNone, 0, 0))
	} else {
		addHDMaterial(m, ShaderHD, mdx.FilterNone, 0, [NumSlots]int32{0, 1, 2, 3, 4, 5})
	}
	g := hdSphere(mdx.Vec3{0, 0, 60}, 60, 48, 64, 0)
	for i := 1; i <= 3; i++ {
		bn := addBone(m, "B", -1, mdx.Vec3{0, 0, float32(40 * i)}, 0)
		bn.Rotation = lin(k(0, qaxis(mdx.Vec3{1, 0, 0}, 0)), k(1000, qaxis(mdx.Vec3{1, 0, 0}, float64(20*i))))
	}
	for _, p := range g.Vertices {
		// Weights spread between the two bones nearest in height.
		f := min(max(p[2]/40, 0), 3)
		lo := min(int(f), 2)
		w := uint8(math.Round(float64(f-float32(lo)) * 255))
		g.Skin = append(g.Skin, uint8(lo), uint8(lo+1), 0, 0, 255-w, w, 0, 0)
	}
	m.Geosets = []mdx.Geoset{g}
	for name, img := range map[string]*image.NRGBA{
		"diffuse.dds": hdTextureImages()["hd_checker.dds"],
		"normal.dds":  hdTextureImages()["hd_bumps.tga"],
		"orm.dds":     hdTextureImages()["hd_orm_team.tga"],
	} {
		big := image.NewNRGBA(image.Rect(0, 0, 256, 256))
		for y := range 256 {
			for x := range 256 {
				big.SetNRGBA(x, y, img.NRGBAAt(x*img.Rect.Dx()/256, y*img.Rect.Dy()/256))
			}
		}
		writeRGBADDS(tb, filepath.Join(dir, name), big)
	}
	black := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for i := 3; i < len(black.Pix); i += 4 {
		black.Pix[i] = 255
	}
	writeRGBADDS(tb, filepath.Join(dir, "Black32.dds"), black)
	return finish(m)
}

// BenchmarkHDUnit renders the HD unit stand-in and the same geometry drawn
// SD (one layer, the same diffuse map) at 256², ssaa 1, one worker, with
// one Resolver (warm cache and folder listings) and a new Animator per
// frame, as a batch does per model: the budget is HD ≤ 1.5× SD
// (docs/performance.md).
func BenchmarkHDUnit(b *testing.B) {
	for _, c := range []struct {
		name string
		sd   bool
	}{{"hd", false}, {"sd", true}} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			m := hdBenchUnit(b, dir, c.sd)
			path := filepath.Join(dir, "unit.mdx")
			res := &texture.Resolver{Cache: texture.NewCache(0)}
			opt := View{Width: 256, Yaw: 30, Pitch: 20, Time: Ms(500), Workers: 1, Background: color.NRGBA{0, 0, 0, 255}, Particles: Particles{Off: true}}
			img, warns, err := NewAnimator(m, path, besideModel(path, res)).Render(opt)
			if err != nil || len(warns) != 0 || Blank(img) {
				b.Fatalf("%v %v blank=%v", err, warns, Blank(img))
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cputime.Process()
			for i := 0; i < b.N; i++ {
				if _, _, err := NewAnimator(m, path, besideModel(path, res)).Render(opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
