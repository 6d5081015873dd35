// Package forms is how the options shared by the commands and the batch
// configuration are written and what values they take: one reader for
// each text form, so that the command line's --time 50% and a
// configuration's time: 50% are read by the same function, one range
// check for each option, whatever wrote its value, and the few places
// where an option's value means something else than the render.View
// field it sets (a seed of 0, a margin of 0).
//
// The library packages take values (render.Ms, render.SequenceNamed,
// texture.Player); only the command line and the configuration loader
// read text, and they read it here.
package forms

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/hexcolor"
	"github.com/mdxrender/mdxrender/pkg/icon"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Size limits: a picture smaller than MinSide shows nothing useful, and
// MaxSide bounds the memory of one picture.
const (
	MinSide = 8
	MaxSide = 8192
)

// Size reads a picture size, "N" (a square) or "WxH" (also "W×H", any
// case of x), in whole pixels, from MinSide to MaxSide a side. A size
// that reads but is out of range is returned with the error.
func Size(s string) (w, h int, err error) {
	t := strings.TrimSpace(s)
	ws, hs, ok := strings.Cut(strings.ReplaceAll(strings.ToLower(t), "×", "x"), "x")
	if !ok {
		hs = ws
	}
	w, err1 := strconv.Atoi(strings.TrimSpace(ws))
	h, err2 := strconv.Atoi(strings.TrimSpace(hs))
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("want N or WxH in whole pixels, got %s", clip.Quote(s))
	}
	return w, h, CheckSize(w, h)
}

// CheckSize refuses a side out of MinSide to MaxSide.
func CheckSize(w, h int) error {
	if w < MinSide || w > MaxSide || h < MinSide || h > MaxSide {
		return fmt.Errorf("want %d to %d pixels a side, got %s", MinSide, MaxSide, SizeString(w, h))
	}
	return nil
}

// SizeString writes a size as Size reads it: "256" for a square.
func SizeString(w, h int) string {
	if w == h {
		return strconv.Itoa(w)
	}
	return fmt.Sprintf("%dx%d", w, h)
}

// Time reads a moment in a sequence: a number of ms ("500") or a share
// of the sequence ("50%").
func Time(s string) (render.Time, error) {
	t := strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(t, "%"); ok {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !(v >= 0 && v <= 100) {
			return render.Time{}, fmt.Errorf("want a share of the sequence from 0%% to 100%%, got %q", s)
		}
		return render.Share(v / 100), nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return render.Time{}, fmt.Errorf("want ms into the sequence or a share like \"50%%\", got %q", s)
	}
	return render.Ms(v), nil
}

// MaxStillMs bounds a still's time in ms (ten minutes, as the pre-roll):
// longer than any sequence, and an offset past the end is clamped anyway.
const MaxStillMs = 600000

// StillTime reads where in its sequence a still is taken (--time,
// render.time): "" (the start), a number of ms ("500", "0.5") from 0 to
// MaxStillMs, or a share of the sequence ("50%").
func StillTime(s string) (render.Time, error) {
	if strings.TrimSpace(s) == "" {
		return render.Time{}, nil
	}
	t, err := Time(s)
	if err != nil && !strings.HasSuffix(strings.TrimSpace(s), "%") || err == nil && CheckStillTime(t) != nil {
		err = stillTimeError(clip.Quote(s))
	}
	return t, err
}

// CheckStillTime refuses a still's time out of range: a share below 0 or
// above 1, ms below 0 or above MaxStillMs.
func CheckStillTime(t render.Time) error {
	v := t.Value()
	if t.IsShare() {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("want a share of the sequence from 0%% to 100%%, got %q", t.String())
		}
		return nil
	}
	if !(v >= 0 && v <= MaxStillMs) {
		return stillTimeError(clip.Quote(t.String()))
	}
	return nil
}

func stillTimeError(quoted string) error {
	return fmt.Errorf("want ms after the sequence start (0 to %d) or a share like \"50%%\", got %s", MaxStillMs, quoted)
}

// Patterns reads a comma-separated list of sequence name patterns
// ("Walk*, Attack*"), leaving out empty ones.
func Patterns(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Sequence reads a sequence as render's --sequence takes it: an index,
// -1 for the bind pose, "" for the default (Stand), anything else a name.
func Sequence(s string) render.Sequence {
	s = strings.TrimSpace(s)
	if s == "" {
		return render.Sequence{}
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n == -1 {
			return render.BindPose()
		}
		return render.SequenceAt(n)
	}
	return render.SequenceNamed(s)
}

// Fit reads a render.Fit by name (its String): vertices, extent,
// sequence or head.
func Fit(s string) (render.Fit, error) {
	for _, f := range []render.Fit{render.FitVertices, render.FitExtent, render.FitSequence, render.FitHead} {
		if strings.EqualFold(s, f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("fit %q: want vertices, extent, sequence or head", s)
}

// Background reads a background: "transparent" (or "") for none,
// "#rrggbb", or "#rrggbbaa". None, and an alpha of 00, is the zero
// colour (see BackgroundColor).
func Background(s string) (color.NRGBA, error) {
	if t := strings.TrimSpace(s); t == "" || strings.EqualFold(t, "transparent") {
		return color.NRGBA{}, nil
	}
	c, err := hexcolor.Parse(s, true)
	if err != nil {
		return color.NRGBA{}, fmt.Errorf("background: %w (or transparent)", err)
	}
	if c.A == 0 {
		return color.NRGBA{}, nil
	}
	return c, nil
}

// BackgroundColor is a background as render.View takes it: nil
// (transparent) for a colour of alpha 0.
func BackgroundColor(c color.NRGBA) color.Color {
	if c.A == 0 {
		return nil
	}
	return c
}

// BackgroundString writes a background as Background reads it.
func BackgroundString(c color.NRGBA) string {
	if c.A == 0 {
		return "transparent"
	}
	return hexcolor.Format(c)
}

// Team reads a team colour: a team number (0-23 the players, 24-27 the
// neutral players), a name (red, blue, teal, ..., peanut, neutral,
// neutralvictim, neutralextra, neutralpassive; any case: the names
// texture.Team.String gives) or "#rrggbb". "" is player 0.
func Team(s string) (texture.Team, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return texture.Team{}, nil
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 || n >= texture.Teams {
			return texture.Team{}, fmt.Errorf("team %d: want a team number 0-%d (24-27 neutral)", n, texture.Teams-1)
		}
		return texture.Player(n), nil
	}
	if strings.HasPrefix(s, "#") {
		c, err := hexcolor.Parse(s, false)
		if err != nil {
			return texture.Team{}, fmt.Errorf("team: %w", err)
		}
		return texture.TeamRGB([3]uint8{c.R, c.G, c.B}), nil
	}
	for i := range texture.Teams {
		if t := texture.Player(i); strings.EqualFold(t.String(), s) {
			return t, nil
		}
	}
	return texture.Team{}, fmt.Errorf("team %s: want a team number 0-%d, a colour name (red, blue, ..., peanut, neutral, neutralpassive) or #rrggbb", clip.Quote(s), texture.Teams-1)
}

// LimitValue reads a limit's value (--limit NAME=VALUE): a positive whole
// number, optionally ending in k, M, G (powers of 1000) or Ki, Mi, Gi
// (powers of 1024).
func LimitValue(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("want a positive whole number, optionally ending in k, M, G, Ki, Mi or Gi")
	}
	return n * mult, nil
}

// Shard reads a batch's share "i/n", 0 <= i < n.
func Shard(s string) (index, count int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("want i/n with 0 <= i < n, got %q", s)
	}
	return i, n, nil
}

// StepMs reads the particle simulation's step in ms (--step-ms): "16.5"
// or "1000/60", more than 0 and at most MaxStepMs.
func StepMs(s string) (float64, error) {
	a, b, frac := strings.Cut(strings.TrimSpace(s), "/")
	v, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
	if err == nil && frac {
		var d float64
		d, err = strconv.ParseFloat(strings.TrimSpace(b), 64)
		if err == nil && d == 0 {
			err = fmt.Errorf("division by zero")
		}
		v /= d
	}
	if err != nil || !(v > 0) || math.IsInf(v, 0) || v > MaxStepMs {
		return 0, fmt.Errorf("want a positive number of ms up to %d, or A/B, got %s", MaxStepMs, clip.Quote(s))
	}
	return v, nil
}

// PrerollMs reads the ms simulated before a sequence starts
// (--preroll-ms): "auto" or a negative number (-1: one particle lifetime,
// for looping sequences), or a number of ms from 0 to MaxPrerollMs.
func PrerollMs(s string) (float64, error) {
	if strings.EqualFold(strings.TrimSpace(s), "auto") {
		return -1, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err == nil && v < 0 {
		return -1, nil
	}
	if err != nil || math.IsNaN(v) || v > MaxPrerollMs {
		return 0, fmt.Errorf("want auto or a number of ms from 0 to %d, got %s", MaxPrerollMs, clip.Quote(s))
	}
	return v, nil
}

// Vec3 reads a point "x,y,z" of finite numbers.
func Vec3(s string) ([3]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return [3]float64{}, fmt.Errorf("want x,y,z, got %s", clip.Quote(s))
	}
	var v [3]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return v, fmt.Errorf("want x,y,z with finite numbers, got %s", clip.Quote(s))
		}
		v[i] = f
	}
	return v, nil
}

// IconKind reads an icon kind by name, ignoring case: btn, disbtn, pas,
// dispas or atc.
func IconKind(s string) (icon.Kind, error) {
	for _, k := range icon.Kinds() {
		if strings.EqualFold(strings.TrimSpace(s), k.String()) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("icon kind %q: want btn, disbtn, pas, dispas or atc", s)
}

// IconKinds reads a comma-separated list of icon kinds, or "all"; a kind
// named twice is kept once, where first named.
func IconKinds(s string) ([]icon.Kind, error) {
	if strings.EqualFold(strings.TrimSpace(s), "all") {
		return icon.Kinds(), nil
	}
	var ks []icon.Kind
	for _, part := range strings.Split(s, ",") {
		k, err := IconKind(part)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	return ks, nil
}

// IconBackground reads an icon background colour: "#rrggbb" for one
// colour, "#rrggbb:#rrggbb" for a gradient from top to bottom, "" for
// icon.DefaultBackground(). (A picture comes from a file, which the caller
// reads.)
func IconBackground(s string) (icon.Background, error) {
	cs, err := IconColors(s)
	switch {
	case err != nil:
		return icon.Background{}, err
	case len(cs) == 1:
		return icon.Solid(cs[0]), nil
	case len(cs) == 2:
		return icon.Gradient(cs[0], cs[1]), nil
	}
	return icon.DefaultBackground(), nil
}

// IconColors reads the colours of an icon background as IconBackground
// does: none for "", one, or two for a gradient from top to bottom.
func IconColors(s string) ([]color.NRGBA, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	a, b, grad := strings.Cut(s, ":")
	top, err := hexcolor.Parse(a, false)
	if err != nil {
		return nil, fmt.Errorf("icon background: %w (or #top:#bottom)", err)
	}
	if !grad {
		return []color.NRGBA{top}, nil
	}
	bottom, err := hexcolor.Parse(b, false)
	if err != nil {
		return nil, fmt.Errorf("icon background: %w (or #top:#bottom)", err)
	}
	return []color.NRGBA{top, bottom}, nil
}

// IconColorsString writes colours as IconColors reads them.
func IconColorsString(cs []color.NRGBA) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B))
	}
	return strings.Join(parts, ":")
}

// Shot reads an icon's Shot by name: portrait, head or whole.
func Shot(s string) (mdxrender.Shot, error) {
	for _, f := range []mdxrender.Shot{mdxrender.ShotPortrait, mdxrender.ShotHead, mdxrender.ShotWhole} {
		if strings.EqualFold(strings.TrimSpace(s), f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("want portrait, head or whole, got %q", s)
}

// DDSFormat reads a texture.DDSFormat by name, ignoring case: dxt1, dxt5
// or bgra.
func DDSFormat(s string) (texture.DDSFormat, error) {
	for _, f := range []texture.DDSFormat{texture.DDSDXT1, texture.DDSDXT5, texture.DDSBGRA} {
		if strings.EqualFold(strings.TrimSpace(s), f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("DDS format %q: want dxt1, dxt5 or bgra", s)
}
