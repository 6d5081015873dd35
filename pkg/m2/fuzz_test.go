package m2

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

// FuzzDecodeM2 checks that no input panics or allocates without bound, that
// errors are typed, and that whatever decodes converts (every view) into a
// model that passes mdx.Model.Validate (its WoW emitters' references
// included) and encodes as a v1500 MDX that decodes again. The seeds hold
// particle and ribbon emitter blocks of both particle layouts (256-262 and
// 263).
func FuzzDecodeM2(f *testing.F) {
	for _, v := range []uint32{256, 260} {
		f.Add(fixture(v))
	}
	for _, v := range []uint32{256, 263} {
		f.Add(emitterFixture(v))
	}
	dir := testshared.Root()
	for _, p := range []string{"Buttons/UI-BuffOn.m2", "Minimap/Ping/MinimapPing.m2", "Buttons/TalkToMe.m2", "Buttons/UI-AutoCastButton.m2"} {
		if b, err := os.ReadFile(filepath.Join(dir, "corpus", "files", "vanilla-wow-interface-textures", "Interface", p)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Decode(b)
		if err != nil {
			var fe *FormatError
			var ue *UnsupportedVersionError
			if !errors.As(err, &fe) && !errors.As(err, &ue) && !errors.Is(err, ErrNotM2) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			return
		}
		for v := range file.Views {
			m, err := file.Model(v)
			if err != nil {
				var fe *FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("untyped conversion error %T: %v", err, err)
				}
				continue
			}
			if err := m.Validate(); err != nil {
				t.Fatalf("view %d: converted model is invalid: %v", v, err)
			}
			if len(m.WoWParticleEmitters) != len(file.Particles) || len(m.WoWRibbonEmitters) != len(file.Ribbons) {
				t.Fatalf("view %d: %d and %d emitters converted of %d and %d", v,
					len(m.WoWParticleEmitters), len(m.WoWRibbonEmitters), len(file.Particles), len(file.Ribbons))
			}
			out, err := encodeMDX(m)
			if err != nil {
				t.Fatalf("view %d: encode as MDX: %v", v, err)
			}
			if _, err := mdx.Decode(out, budget.Limits{}); err != nil {
				t.Fatalf("view %d: the MDX does not decode: %v", v, err)
			}
		}
	})
}
