package forms

import (
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mdxrender/mdxrender/pkg/icon"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

func TestTeam(t *testing.T) {
	for in, want := range map[string]string{"": "red", "0": "red", "3": "purple", "Blue": "blue", "NEUTRAL": "neutral", "24": "neutral", "23": "peanut", "25": "neutralvictim", "27": "neutralpassive", "NeutralPassive": "neutralpassive", "#0a0B0c": "#0a0b0c"} {
		got, err := Team(in)
		if err != nil || got.String() != want {
			t.Errorf("Team(%q) = %v, %v; want %s", in, got, err, want)
		}
		if back, err := Team(got.String()); err != nil || back != got {
			t.Errorf("%q does not read back: %v %v", got, back, err)
		}
	}
	for _, bad := range []string{"28", "-1", "rouge", "#12345", "#1234567"} {
		if _, err := Team(bad); err == nil {
			t.Errorf("Team(%q) accepted", bad)
		}
	}
}

func TestLimitValue(t *testing.T) {
	for s, want := range map[string]int64{"12": 12, "3k": 3000, "2Mi": 2 << 20, "1G": 1e9, " 5 ": 5} {
		if got, err := LimitValue(s); err != nil || got != want {
			t.Errorf("LimitValue(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "0", "-1", "1.5", "abc", "9999999999Gi"} {
		if _, err := LimitValue(s); err == nil {
			t.Errorf("LimitValue(%q) accepted", s)
		}
	}
}

func TestStillTime(t *testing.T) {
	for in, want := range map[string]render.Time{
		"": {}, "0": render.Ms(0), " 250 ": render.Ms(250), "0.6": render.Ms(0.6), "5000": render.Ms(5000),
		"50%": render.Share(0.5), "100%": render.Share(1), "12.5 %": render.Share(0.125),
	} {
		if got, err := StillTime(in); err != nil || got != want {
			t.Errorf("StillTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"soon", "-1", "101%", "-5%", "NaN", "1e9", "%", "50%%", "Inf"} {
		if _, err := StillTime(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// A value a program sets is held to the same range.
	for _, bad := range []render.Time{render.Ms(-1), render.Ms(1e9), render.Ms(math.NaN()), render.Share(1.01), render.Share(-0.05)} {
		if err := CheckStillTime(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if err := CheckStillTime(render.Ms(MaxStillMs)); err != nil {
		t.Error(err)
	}
}

func TestSizeAndShard(t *testing.T) {
	for in, want := range map[string][2]int{"256": {256, 256}, " 96x64": {96, 64}, "24X16": {24, 16}, "40×24": {40, 24}} {
		if w, h, err := Size(in); err != nil || [2]int{w, h} != want {
			t.Errorf("Size(%q) = %d, %d, %v; want %v", in, w, h, err, want)
		}
	}
	if w, h, err := Size("4"); err == nil || w != 4 || h != 4 || !strings.Contains(err.Error(), "want 8 to 8192 pixels a side, got 4") {
		t.Errorf("Size(4) = %d, %d, %v; want 4, 4 and a range error", w, h, err)
	}
	for _, bad := range []string{"12.5", "big", "x", ""} {
		if _, _, err := Size(bad); err == nil || !strings.Contains(err.Error(), "want N or WxH") {
			t.Errorf("Size(%q): %v", bad, err)
		}
	}
	if i, n, err := Shard(" 1 / 4 "); err != nil || i != 1 || n != 4 {
		t.Errorf("Shard: %d %d %v", i, n, err)
	}
	for _, bad := range []string{"", "1", "2/2", "-1/3", "a/b", "0/0"} {
		if _, _, err := Shard(bad); err == nil {
			t.Errorf("Shard(%q) accepted", bad)
		}
	}
}

func TestSequenceFitBackground(t *testing.T) {
	for in, want := range map[string]render.Sequence{"": {}, "-1": render.BindPose(), "2": render.SequenceAt(2), " Walk ": render.SequenceNamed("Walk")} {
		if got := Sequence(in); got != want {
			t.Errorf("Sequence(%q) = %v, want %v", in, got, want)
		}
	}
	for _, f := range []render.Fit{render.FitVertices, render.FitExtent, render.FitSequence} {
		if got, err := Fit(strings.ToUpper(f.String())); err != nil || got != f {
			t.Errorf("Fit(%v) = %v, %v", f, got, err)
		}
	}
	if _, err := Fit("box"); err == nil {
		t.Error("Fit(box) accepted")
	}
	for in, want := range map[string]color.NRGBA{"": {}, "Transparent": {}, "#102030": {0x10, 0x20, 0x30, 255}, "#10203080": {0x10, 0x20, 0x30, 0x80}, "#10203000": {}} {
		if got, err := Background(in); err != nil || got != want {
			t.Errorf("Background(%q) = %v, %v; want %v", in, got, err, want)
		}
		if got, _ := Background(BackgroundString(want)); got != want {
			t.Errorf("%v does not read back: %v", want, got)
		}
	}
	if _, err := Background("red"); err == nil || !strings.Contains(err.Error(), "#rrggbb") {
		t.Errorf("Background(red): %v", err)
	}
	if BackgroundColor(color.NRGBA{}) != nil || BackgroundColor(color.NRGBA{A: 1}) == nil {
		t.Error("BackgroundColor: a colour of alpha 0 is none")
	}
}

func TestParticleForms(t *testing.T) {
	for in, want := range map[string]float64{"16.5": 16.5, "1000/60": 1000.0 / 60, " 20 ": 20} {
		if got, err := StepMs(in); err != nil || got != want {
			t.Errorf("StepMs(%q) = %g, %v", in, got, err)
		}
	}
	for _, bad := range []string{"0", "1/0", "-3", "60001", "x"} {
		if _, err := StepMs(bad); err == nil {
			t.Errorf("StepMs(%q) accepted", bad)
		}
	}
	for in, want := range map[string]float64{"auto": -1, "AUTO": -1, "-5": -1, "0": 0, "2000": 2000} {
		if got, err := PrerollMs(in); err != nil || got != want {
			t.Errorf("PrerollMs(%q) = %g, %v", in, got, err)
		}
	}
	for _, bad := range []string{"NaN", "1e9", "soon"} {
		if _, err := PrerollMs(bad); err == nil {
			t.Errorf("PrerollMs(%q) accepted", bad)
		}
	}
	if ViewSeed(0) != render.ZeroSeed || ViewSeed(6) != 6 || ViewMargin(0) != render.NoMargin || ViewMargin(0.1) != 0.1 ||
		ViewPreroll(-1) != render.PrerollAuto || ViewPreroll(0) != render.NoPreroll || ViewPreroll(200) != 200 {
		t.Error("the options' zero values do not map onto render.View's")
	}
}

func TestIconForms(t *testing.T) {
	for _, k := range icon.Kinds() {
		got, err := IconKind(" " + strings.ToLower(k.String()) + " ")
		if err != nil || got != k {
			t.Errorf("IconKind(%s) = %v, %v", k, got, err)
		}
	}
	if _, err := IconKind("dis"); err == nil {
		t.Error("IconKind(dis) accepted")
	}
	ks, err := IconKinds("pas,btn,PAS")
	if err != nil || !slices.Equal(ks, []icon.Kind{icon.PAS, icon.BTN}) {
		t.Errorf("IconKinds = %v, %v", ks, err)
	}
	if ks, err := IconKinds("all"); err != nil || len(ks) != len(icon.Kinds()) {
		t.Errorf("IconKinds(all) = %v, %v", ks, err)
	}
	if _, err := IconBackground("#102030:#405060"); err != nil {
		t.Errorf("gradient: %v", err)
	}
	for _, s := range []string{"#12", "#102030:", "red"} {
		if _, err := IconBackground(s); err == nil {
			t.Errorf("IconBackground(%q) accepted", s)
		}
	}
	for _, s := range []string{"portrait", "Head", "whole"} {
		if _, err := Shot(s); err != nil {
			t.Errorf("Shot(%q): %v", s, err)
		}
	}
	if f, err := DDSFormat("DXT5"); err != nil || f != texture.DDSDXT5 {
		t.Errorf("DDSFormat(DXT5) = %v, %v", f, err)
	}
	if _, err := DDSFormat("bc7"); err == nil {
		t.Error("DDSFormat(bc7) accepted")
	}
}
