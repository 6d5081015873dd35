package render

import (
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/internal/golden"
	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// TestHDCorpusJobs prepares scripts/fidelity-hd.sh: when HD_CORPUS_OUT
// names a folder it renders the shared corpus' Reforged HD models (notes
// "HD (Reforged)" in the corpus manifest, see sharedRoot) at three views
// each and writes our PNGs and a --list file for the reference harness with
// the exact cameras. The references are renders of third-party models:
// they are made into that folder, never committed.
//
// Both renderers get the same textures: the model's folder, its map's
// root, and a folder of aliases in which every texture our resolver finds
// under another extension (a Reforged .tif found as .dds) is linked under
// the name the model uses (the harness knows no .tif), plus
// Textures\Black32, the game's plain black 32×32 emissive map, which no
// corpus map ships, and a stand-in of our neutral value for every other
// missing texture of an HD slot (writeHDStandIns). Environment maps stay
// missing: neither renderer draws them.
func TestHDCorpusJobs(t *testing.T) {
	out := os.Getenv("HD_CORPUS_OUT")
	if out == "" {
		t.Skip("HD_CORPUS_OUT not set")
	}
	corpus := testshared.CorpusFiles(t)
	out, err := filepath.Abs(out)
	if err != nil {
		t.Fatal(err)
	}
	alias := filepath.Join(out, "tex")
	black := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for i := 3; i < len(black.Pix); i += 4 {
		black.Pix[i] = 255
	}
	if err := os.MkdirAll(filepath.Join(alias, "Textures"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeTGA(filepath.Join(alias, "Textures", "Black32.tga"), black); err != nil {
		t.Fatal(err)
	}
	// HD_CORPUS_VIEWER_BC5=1 shows what the viewer's BC5 (ATI2) upload
	// does to normal maps: see emulateViewerBC5.
	emulate := os.Getenv("HD_CORPUS_VIEWER_BC5") != ""
	emu := filepath.Join(out, "viewer-bc5")
	views := []View{
		{Width: 256, Yaw: 30, Pitch: 20, Sequence: SequenceAt(0)},
		{Width: 256, Yaw: -120, Pitch: 35, Sequence: SequenceAt(0), Time: Ms(333)},
		{Width: 256, Yaw: 75, Pitch: 5, Sequence: SequenceAt(0), Time: Ms(1000)},
	}
	var list strings.Builder
	for _, e := range corpus {
		if !strings.Contains(e.Note, "HD (Reforged)") {
			continue
		}
		mpath, err := filepath.Abs(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		root := filepath.Dir(mpath)
		if i := strings.Index(mpath, ".w3x"+string(filepath.Separator)); i >= 0 {
			root = mpath[:i+len(".w3x")]
		}
		m := loadFixture(t, mpath)
		local := []texture.Source{texture.Folder(filepath.Dir(mpath))}
		sources := []texture.Source{texture.Folder(root), texture.Folder(alias)}
		writeHDStandIns(t, m, &texture.Resolver{Sources: sources}, local, alias)
		res := &texture.Resolver{Sources: sources, Cache: texture.NewCache(0)}
		if emulate {
			// Our renders only: the model's BC5 textures as the viewer
			// reads them, found before the originals (a new Resolver: it
			// remembers folder listings).
			for _, tx := range m.Textures {
				if tx.Path != "" {
					emulateViewerBC5(t, res, local, tx.Path, emu)
				}
			}
			res = &texture.Resolver{Sources: append([]texture.Source{texture.Folder(emu)}, res.Sources...), Cache: res.Cache}
		}
		for _, tx := range m.Textures {
			if tx.Path == "" {
				continue
			}
			file, _, err := res.Find(local, tx.Path)
			if err != nil || strings.EqualFold(filepath.Ext(file.Name), filepath.Ext(strings.ReplaceAll(tx.Path, `\`, "/"))) ||
				strings.HasPrefix(file.String(), alias) {
				continue
			}
			dst := filepath.Join(alias, filepath.FromSlash(strings.ReplaceAll(tx.Path, `\`, "/")))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				t.Fatal(err)
			}
			os.Remove(dst)
			if err := os.Symlink(file.String(), dst); err != nil {
				t.Fatal(err)
			}
		}
		name := strings.NewReplacer("/", "_", ".", "_", " ", "_").Replace(strings.TrimPrefix(e.Rel, "files/"))
		for i, v := range views {
			v.Background = color.NRGBA{0, 0, 0, 255}
			v.Particles.Off = true
			// The harness's orbit camera, also for a portrait model, and
			// its white stand-in for a missing SD texture.
			v.Camera, v.MissingTextures = OrbitCamera, MissingWhite
			a := NewAnimator(m, mpath, Textures{Local: local, Resolver: res})
			r, err := a.newFrame(context.Background(), &v)
			if err != nil {
				t.Fatal(err)
			}
			img, err := r.draw()
			if err != nil {
				t.Fatalf("%s: %v", mpath, err)
			}
			img2 := fmt.Sprintf("%s.%c.png", name, 'a'+i)
			golden.WritePNG(t, filepath.Join(out, strings.TrimSuffix(img2, ".png")+".ours.png"), img)
			for _, w := range r.warns {
				t.Logf("%s: %v", img2, w)
			}
			c := r.cam
			fmt.Fprintf(&list, "%q --out %s --textures %q --textures %q --sequence 0 --time %g --team 0 --yaw %g --pitch %g --fov %.6g --distance %.6g --target %.6g,%.6g,%.6g --near %.6g --far %.6g --bg #000000\n",
				mpath, img2, root, alias, v.Time.Value(), v.Yaw, v.Pitch, c.Fov, c.Eye.Sub(c.Target).Length(),
				c.Target.X, c.Target.Y, c.Target.Z, c.Near, c.Far)
		}
	}
	if err := os.WriteFile(filepath.Join(out, "jobs.txt"), []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hdStandIn is the texel of the stand-in written for a missing texture of
// each HD slot: our neutral value (hdNeutral), so that both renderers
// sample the same thing where the viewer would sample its white.
var hdStandIn = [NumSlots]color.NRGBA{
	SlotDiffuse:  {255, 255, 255, 255},
	SlotNormal:   {128, 128, 255, 255},
	SlotORM:      {255, 255, 0, 0},
	SlotEmissive: {0, 0, 0, 255},
}

// writeHDStandIns writes, for every texture of an HD slot (diffuse,
// normal, ORM, emissive) of m that res cannot find, an 8×8 TGA of that
// slot's neutral value under the model's own name for it in dir (the
// harness and our reader both know a TGA by its contents, whatever the
// name says). The viewer would draw its white stand-in there, which
// lights a model by NaN and tints it with the team colour everywhere;
// with the same neutral texture in both renderers the comparison measures
// the shading rules on the model's real geometry instead.
func writeHDStandIns(t *testing.T, m *mdx.Model, res *texture.Resolver, local []texture.Source, dir string) {
	done := map[string]bool{}
	for mi := range m.Materials {
		for _, hp := range HDPasses(m, mi) {
			for s := SlotDiffuse; s <= SlotEmissive; s++ {
				id := hp.Textures[s]
				if id < 0 || id >= len(m.Textures) || m.Textures[id].Path == "" {
					continue
				}
				p := m.Textures[id].Path
				if done[p] {
					continue
				}
				done[p] = true
				if _, _, err := res.Find(local, p); err == nil {
					continue
				}
				img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
				for i := 0; i < len(img.Pix); i += 4 {
					c := hdStandIn[s]
					copy(img.Pix[i:i+4], []uint8{c.R, c.G, c.B, c.A})
				}
				dst := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(p, `\`, "/")))
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := writeTGA(dst, img); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: stand-in %s for %s", m.Name, s, p)
			}
		}
	}
}

// emulateViewerBC5 writes, for a model texture that is a BC5 (ATI2) DDS,
// the texture as mdx-m3-viewer 5.12.0 samples it, under the same name in
// dir: the viewer uploads BC5 as luminance-alpha from a decoder that
// stores each texel's green in the next texel's luminance byte and its red
// in alpha, so a normal map reads (g', g') for (x, y), g' the green of the
// texel before it in row order. Rendering with these shows how much of a
// difference from the viewer is that misread (and not our shading).
func emulateViewerBC5(t *testing.T, res *texture.Resolver, local []texture.Source, p, dir string) {
	file, _, err := res.Find(local, p)
	if err != nil {
		return
	}
	b, err := file.Read(nil)
	if err != nil || len(b) < 128 || string(b[84:88]) != "ATI2" {
		return
	}
	tex, err := texture.Decode(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, h := tex.Width(), tex.Height()
	le := binary.LittleEndian
	hdr := make([]byte, 128)
	copy(hdr, "DDS ")
	le.PutUint32(hdr[4:], 124)
	le.PutUint32(hdr[8:], 0x1|0x2|0x4|0x1000|0x20000)
	le.PutUint32(hdr[12:], uint32(h))
	le.PutUint32(hdr[16:], uint32(w))
	le.PutUint32(hdr[28:], uint32(len(tex.Levels)))
	le.PutUint32(hdr[76:], 32)
	le.PutUint32(hdr[80:], 0x40|0x1) // RGB with alpha
	le.PutUint32(hdr[88:], 32)
	le.PutUint32(hdr[92:], 0xff)
	le.PutUint32(hdr[96:], 0xff00)
	le.PutUint32(hdr[100:], 0xff0000)
	le.PutUint32(hdr[104:], 0xff000000)
	out := append([]byte(nil), hdr...)
	for _, lv := range tex.Levels {
		pix := lv.Pix
		var prevG byte
		for i := 0; i < len(pix); i += 4 {
			out = append(out, prevG, prevG, prevG, pix[i])
			prevG = pix[i+1]
		}
	}
	dst := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(p, `\`, "/")))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
