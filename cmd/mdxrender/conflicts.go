package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/archivepath"
	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// Flags that would change nothing (docs/cli.md#flags-that-change-nothing):
// a flag given on the command line that no output of the command uses is
// a usage error that says what would make it count, so that nobody waits
// for a picture that ignores what they asked for. Whether a model camera
// makes --yaw and --pitch idle is known only once the model is read:
// that is a warning (IgnoredFlag).

// IgnoredFlag is the code of the warning that a flag given has no effect
// on the model's pictures.
const IgnoredFlag render.WarningCode = "ignored-flag"

// flagText is how a message quotes the flag name as given: "--time 50%".
func flagText(f *pflag.FlagSet, name string) string {
	v := f.Lookup(name).Value.String()
	if sv, ok := f.Lookup(name).Value.(pflag.SliceValue); ok {
		v = strings.Join(sv.GetSlice(), ",")
	}
	return "--" + name + " " + quoteIfNeeded(v)
}

// quoteIfNeeded quotes a value that is not a plain word, number or list
// of them.
func quoteIfNeeded(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".,-+%#/_", r))
	}) {
		return clip.Quote(s)
	}
	return s
}

// runOnly are the flags only sheets and previews use, and the outputs
// each needs (a still shows the stand sequence whatever --sequence
// selects).
var runOnly = []struct {
	flag  string
	needs []batch.Format
}{
	{"sequence", []batch.Format{batch.FormatSheet, batch.FormatGIF, batch.FormatAPNG}},
	{"frames", []batch.Format{batch.FormatSheet, batch.FormatGIF, batch.FormatAPNG}},
	{"fps", []batch.Format{batch.FormatSheet, batch.FormatGIF, batch.FormatAPNG}},
	{"yaws", []batch.Format{batch.FormatSheet, batch.FormatGIF, batch.FormatAPNG}},
	{"framing", []batch.Format{batch.FormatSheet, batch.FormatGIF, batch.FormatAPNG}},
	{"cols", []batch.Format{batch.FormatSheet}},
	{"trim", []batch.Format{batch.FormatSheet}},
	{"max-size", []batch.Format{batch.FormatSheet}},
	{"metadata", []batch.Format{batch.FormatSheet}},
}

// checkRunFlags refuses, on sheet, batch and check, the flags given that
// the outputs (formats) would not use: --time without a still (sheets and
// previews cover whole sequences), --yaw beside a list of yaws without a
// still, a sheet's layout without a sheet, and --frames with --fps.
func checkRunFlags(f *pflag.FlagSet, formats []batch.Format, yaws bool) error {
	given := func(name string) bool { fl := f.Lookup(name); return fl != nil && fl.Changed }
	still := slices.Contains(formats, batch.FormatPNG)
	var errs []error
	if given("time") && !still {
		errs = append(errs, fmt.Errorf("%s: sheets and previews cover whole sequences; --time says when a still is taken (--format png)", flagText(f, "time")))
	}
	if given("yaw") && yaws && !still {
		errs = append(errs, fmt.Errorf("%s with %s: the sheet's angles are --yaws; put %s among them, or add --format png for a still at --yaw",
			flagText(f, "yaw"), flagText(f, "yaws"), f.Lookup("yaw").Value))
	}
	for _, r := range runOnly {
		if !given(r.flag) || slices.ContainsFunc(r.needs, func(x batch.Format) bool { return slices.Contains(formats, x) }) {
			continue
		}
		need := "sheet"
		if len(r.needs) > 1 {
			need = "sheet, gif or apng"
		}
		errs = append(errs, fmt.Errorf("%s: only a sheet%s uses it; add --format %s", flagText(f, r.flag),
			map[bool]string{true: " or a preview", false: ""}[len(r.needs) > 1], need))
	}
	if given("shot") && !slices.Contains(formats, batch.FormatIcons) {
		errs = append(errs, fmt.Errorf("%s: only icons use it; add --icons", flagText(f, "shot")))
	}
	if given("frames") && given("fps") {
		errs = append(errs, fmt.Errorf("%s with %s: --fps samples at a fixed rate instead of --frames; give one", flagText(f, "frames"), flagText(f, "fps")))
	}
	if err := checkCameraAngles(f); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return usageError{errors.Join(errs...)}
	}
	return nil
}

// checkCameraAngles refuses --yaw or --pitch beside --camera naming a
// model camera, which has its own direction.
func checkCameraAngles(f *pflag.FlagSet) error {
	cam := f.Lookup("camera")
	if cam == nil || !cam.Changed || cam.Value.String() == render.OrbitCamera {
		return nil
	}
	var given []string
	for _, n := range []string{"yaw", "pitch"} {
		if f.Lookup(n).Changed {
			given = append(given, flagText(f, n))
		}
	}
	if len(given) == 0 {
		return nil
	}
	return usageError{fmt.Errorf("%s with %s: a model camera has its own direction; leave out %s, or use --camera orbit",
		strings.Join(given, " and "), flagText(f, "camera"), strings.Join(given, " and "))}
}

// ignoredAngles is the warning that --yaw or --pitch, given, do nothing
// because the picture of model (file name) with v is seen through a model
// camera the rule chose (a portrait model's portrait camera).
func ignoredAngles(f *pflag.FlagSet, m *mdx.Model, name string, v render.View) (render.Warning, bool) {
	cam := render.ModelCamera(m, name, &v)
	if cam == "" {
		return render.Warning{}, false
	}
	if i, err := strconv.Atoi(cam); err == nil && i >= 0 && i < len(m.Cameras) {
		cam = m.Cameras[i].Name
	}
	return idleAngles(f, "a portrait model is seen through its camera "+clip.Quote(cam)+" (--camera orbit: the orbit camera)")
}

// idleAngles is the warning that --yaw and --pitch, those of them given,
// have no effect, for the reason why; none given, no warning.
func idleAngles(f *pflag.FlagSet, why string) (render.Warning, bool) {
	var given []string
	for _, n := range []string{"yaw", "pitch"} {
		if fl := f.Lookup(n); fl != nil && fl.Changed {
			given = append(given, flagText(f, n))
		}
	}
	if len(given) == 0 {
		return render.Warning{}, false
	}
	verb := "has"
	if len(given) > 1 {
		verb = "have"
	}
	return render.Warning{Code: IgnoredFlag, Message: fmt.Sprintf("%s %s no effect: %s", strings.Join(given, " and "), verb, why)}, true
}

// warnIgnoredAngles prints, for sheet, the warning of ignoredAngles
// about the model at path: read only when it could apply (--yaw or
// --pitch given, no --camera, a portrait model's name).
func warnIgnoredAngles(w io.Writer, f *pflag.FlagSet, path string, lim mdxrender.Limits) {
	if !f.Changed("yaw") && !f.Changed("pitch") || f.Changed("camera") || !render.IsPortraitModel(path) {
		return
	}
	m, err := mdxrender.Open(path, &mdxrender.Options{Limits: lim, Within: within(path)})
	if err != nil {
		return // the sheet will say what is wrong with it
	}
	defer m.Close()
	if warn, ok := ignoredAngles(f, m.File.Model, m.Name, render.View{}); ok {
		printWarning(w, path, warn, false)
	}
}

// checkModelArg refuses a model argument that names no file, or a
// folder, before any work: "missing.mdx: no such file".
func checkModelArg(path string) error {
	name := path
	if arch, _, ok := archivepath.Split(path); ok {
		name = arch
	}
	st, err := os.Stat(name)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return fmt.Errorf("%s: a folder, not a model (batch takes folders)", path)
	}
	return nil
}

// yawsValues reads a comma-separated list of angles in degrees, as
// --yaws and sheet.yaws take it.
func yawsValues(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []float64
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		v, err := strconv.ParseFloat(p, 64)
		if err != nil {
			if p == "" {
				return nil, errors.New("an angle is missing between commas")
			}
			return nil, fmt.Errorf("%s is not a number", clip.Quote(p))
		}
		out = append(out, v)
	}
	return out, nil
}

// parseYaws reads --yaws, its error naming the flag and value.
func parseYaws(s string) ([]float64, error) {
	v, err := yawsValues(s)
	if err != nil {
		return nil, flagError("yaws", err)
	}
	return v, nil
}

// checkPNGName refuses an output file name render and texture would
// write PNG bytes under without saying so (x.jpg, a name without an
// extension): they write PNG only.
func checkPNGName(name string) error {
	if strings.EqualFold(filepath.Ext(name), ".png") {
		return nil
	}
	return usageErrorf("-o %s: the picture is written as PNG; give a name ending in .png", quoteIfNeeded(name))
}
