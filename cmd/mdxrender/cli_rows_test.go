package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender"
)

// The command line's promises (docs/cli.md#shared-options,
// #flags-that-change-nothing, #exit-status), each checked through the
// commands as a user runs them, on models built by the tests.

// allCommands is every command of the tree below the root, by its path
// below the root ("render", "archive extract").
func allCommands() map[string]*cobra.Command {
	out := map[string]*cobra.Command{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.HasParent() && c.Runnable() {
			out[commandName(c)] = c
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRootCmd())
	return out
}

// tableDefault is how pflag shows the default the table gives a flag of
// type typ.
func tableDefault(s sharedFlag, cmd, typ string) string {
	d := s.defaultFor(cmd)
	switch {
	case typ == "stringSlice" || typ == "stringArray":
		return "[" + d + "]"
	case d != "":
		return d
	case typ == "bool":
		return "false"
	case typ == "int" || typ == "float64" || typ == "uint32":
		return "0"
	}
	return d
}

// Every option of the table is registered on each command it names, with
// the table's help and default, and with one value type wherever it
// appears; no command registers an option of the table it is not given.
func TestSharedFlagsAgree(t *testing.T) {
	cmds := allCommands()
	types := map[string]string{}
	for _, s := range sharedFlags() {
		for _, name := range s.on {
			c, ok := cmds[name]
			if !ok {
				t.Errorf("--%s: the table names a command %q the tree does not have", s.name, name)
				continue
			}
			f := c.Flags().Lookup(s.name)
			if f == nil {
				t.Errorf("%s lacks --%s", name, s.name)
				continue
			}
			if f.Usage != s.help {
				t.Errorf("%s --%s: help %q, the table's %q", name, s.name, f.Usage, s.help)
			}
			if want := tableDefault(s, name, f.Value.Type()); f.DefValue != want {
				t.Errorf("%s --%s: default %q, the table's %q", name, s.name, f.DefValue, want)
			}
			if f.Shorthand != s.short {
				t.Errorf("%s --%s: short -%s, the table's -%s", name, s.name, f.Shorthand, s.short)
			}
			if typ, seen := types[s.name]; seen && typ != f.Value.Type() {
				t.Errorf("%s --%s holds a %s, elsewhere a %s", name, s.name, f.Value.Type(), typ)
			}
			types[s.name] = f.Value.Type()
		}
	}
	for name, c := range cmds {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if _, inTable := types[f.Name]; !inTable {
				return
			}
			if _, ok := lookupShared(name, f.Name); !ok {
				t.Errorf("%s registers --%s on its own, outside the table", name, f.Name)
			}
		})
	}
}

// The shared options are the same on render, sheet, batch and check:
// the picture, the sequence selection of sheets, and sheet's layout on
// batch and check too.
func TestRunCommandsShareOptions(t *testing.T) {
	cmds := allCommands()
	for _, name := range []string{"size", "ssaa", "yaw", "pitch", "camera", "bg", "team", "time", "textures", "game-data",
		"map-root", "margin", "zoom", "missing-textures", "particles", "seed", "step-ms", "preroll-ms", "limit", "verbose"} {
		for _, c := range pictureCmds {
			if cmds[c].Flags().Lookup(name) == nil {
				t.Errorf("%s lacks --%s", c, name)
			}
		}
	}
	for _, name := range []string{"sequence", "format", "framing", "frames", "fps", "cols", "yaws", "trim", "max-size", "metadata"} {
		var help, def string
		for i, c := range runCmds {
			f := cmds[c].Flags().Lookup(name)
			if f == nil {
				t.Errorf("%s lacks --%s", c, name)
				continue
			}
			if i > 0 && (f.Usage != help || name != "format" && f.DefValue != def) {
				t.Errorf("%s --%s: %q (default %s), %s has %q (default %s)", c, name, f.Usage, f.DefValue, runCmds[0], help, def)
			}
			help, def = f.Usage, f.DefValue
		}
	}
	if d := cmds["batch"].Flags().Lookup("sequence").DefValue; d != "all" {
		t.Errorf("batch --sequence defaults to %s", d)
	}
}

// No help line repeats a default pflag already prints ("(default --yaw)
// (default [])").
func TestHelpSaysDefaultOnce(t *testing.T) {
	for name, c := range allCommands() {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			line := pflag.NewFlagSet("", pflag.ContinueOnError)
			line.AddFlag(f)
			if u := line.FlagUsages(); strings.Count(u, "(default") > 1 {
				t.Errorf("%s: %s", name, strings.TrimSpace(u))
			}
		})
	}
}

// A mistake on the command line exits 2, says what was wrong in the
// command's words and is followed by the usage line.
func TestUsageMistakes(t *testing.T) {
	dir := t.TempDir()
	m := standSecond(t, dir)
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"render"}, "mdxrender: render: missing MODEL\nUsage: mdxrender render MODEL"},
		{[]string{"render", m, "x"}, "render: want MODEL, got 2 arguments"},
		{[]string{"render", m}, "render: -o OUT.png is required"},
		{[]string{"archive", "extract"}, "mdxrender: archive extract: missing ARCHIVE\nUsage: mdxrender archive extract ARCHIVE"},
		{[]string{"archive", "extract", m}, "archive extract: -o DIR is required"},
		{[]string{"convert", m}, "convert: want IN OUT, got one argument"},
		{[]string{"batch"}, "batch: no models: give a model, folder or map"},
		{[]string{"sheet", m, "-o", dir, "--yaws", "0,abc"}, `sheet: --yaws: "abc" is not a number`},
		{[]string{"render", m, "-o", filepath.Join(dir, "r.png"), "--ssaa", "x"}, `render: --ssaa: "x" is not a whole number`},
		{[]string{"sheet", m, "-o", dir, "--format", "webp"}, `sheet: --format: unknown format "webp"`},
		{[]string{"batch", m, "-o", dir, "--format", "webp"}, `batch: --format: unknown format "webp"`},
		{[]string{"render", m, "-o", filepath.Join(dir, "r.png"), "--frob"}, "render: unknown flag: --frob"},
	} {
		_, se, code := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(se, tc.says) || !strings.Contains(se, "Usage: mdxrender ") {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", tc.args[:min(len(tc.args), 2)], code, tc.says, se)
		}
		for _, raw := range []string{"strconv", "output.formats", "accepts ", "arg(s)", "flag --"} {
			if strings.Contains(se, raw) {
				t.Errorf("%v: says %q:\n%s", tc.args[:min(len(tc.args), 2)], raw, se)
			}
		}
	}
	// A configuration file's problem is not the command line's: exit 2,
	// no usage line.
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte("inputs: {files: [a.mdx]}\nrender: {size: 4}\n"), 0o644)
	if _, se, code := run(t, "batch", "-c", cfg); code != exitUsage || !strings.Contains(se, "c.yaml:2: render.size") || strings.Contains(se, "Usage:") {
		t.Errorf("config: exit %d\n%s", code, se)
	}
}

// A model that is not there, or whose sequences do not match, is named
// in sheet's words, not the batch configuration's.
func TestSheetErrorsNameTheModel(t *testing.T) {
	dir := t.TempDir()
	m := standSecond(t, dir)
	_, se, code := run(t, "sheet", filepath.Join(dir, "missing.mdx"), "-o", dir)
	if code != exitFailed || !strings.Contains(se, "sheet: "+filepath.Join(dir, "missing.mdx")+": no such file") || strings.Contains(se, "inputs.files") {
		t.Errorf("missing model: exit %d\n%s", code, se)
	}
	_, se, code = run(t, "sheet", m, "-o", dir, "--sequence", "Walk")
	if code != exitFailed || !strings.Contains(se, `no sequence matches "Walk" (the model has: Attack, Stand)`) {
		t.Errorf("--sequence Walk: exit %d\n%s", code, se)
	}
}

// An output name the command cannot write in its format is refused
// before any work, and nothing is written.
func TestOutputExtensionRefused(t *testing.T) {
	dir := t.TempDir()
	m := standSecond(t, dir)
	tex := filepath.Join(dir, "t.png")
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(tex, b.Bytes(), 0o644)
	for _, args := range [][]string{
		{"render", m, "-o", filepath.Join(dir, "x.jpg")},
		{"render", m, "-o", filepath.Join(dir, "x")},
		{"texture", tex, "-o", filepath.Join(dir, "x.bmp")},
	} {
		_, se, code := run(t, args...)
		if code != exitUsage || !strings.Contains(se, "give a name ending in .png") {
			t.Errorf("%v: exit %d\n%s", args, code, se)
		}
	}
	_, se, code := run(t, "convert", m, filepath.Join(dir, "out.txt"))
	if code != exitUsage || !strings.Contains(se, `unknown output extension ".txt"; the output must end in .mdx or .mdl`) {
		t.Errorf("convert out.txt: exit %d\n%s", code, se)
	}
	if n := listDir(t, dir); len(n) != 2 {
		t.Errorf("wrote %v", n)
	}
	if _, se, code := run(t, "render", m, "-o", filepath.Join(dir, "X.PNG"), "--size", "16"); code != 0 {
		t.Errorf("X.PNG: exit %d\n%s", code, se)
	}
}

// A flag given that changes nothing is a usage error that says what would
// make it count; one a model's camera overrides is a warning.
func TestConflictingFlags(t *testing.T) {
	dir := t.TempDir()
	m := standSecond(t, dir)
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"sheet", m, "-o", out, "--time", "50%"}, "sheet: --time 50%: sheets and previews cover whole sequences"},
		{[]string{"sheet", m, "-o", out, "--yaw", "30", "--yaws", "90"}, "--yaw 30 with --yaws 90"},
		{[]string{"sheet", m, "-o", out, "--format", "png", "--frames", "4"}, "--frames 4: only a sheet or a preview uses it"},
		{[]string{"sheet", m, "-o", out, "--frames", "4", "--fps", "10"}, "--frames 4 with --fps 10"},
		{[]string{"sheet", m, "-o", out, "--format", "gif", "--cols", "2"}, "--cols 2: only a sheet uses it"},
		{[]string{"batch", m, "-o", out, "--sequence", "Walk"}, "batch: --sequence Walk: only a sheet or a preview uses it"},
		{[]string{"batch", m, "-o", out, "--yaws", "0,90"}, "--yaws 0,90: only a sheet or a preview uses it"},
		{[]string{"render", m, "-o", filepath.Join(out, "r.png"), "--camera", "0", "--yaw", "30"}, "--yaw 30 with --camera 0: a model camera has its own direction"},
		{[]string{"icon", m, "-o", out, "--camera", "Cam", "--pitch", "10"}, "--pitch 10 with --camera Cam"},
	} {
		_, se, code := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(se, tc.says) {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", tc.args[2:], code, tc.says, se)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused command wrote %s", out)
	}
	// The same flags where they count are fine.
	if _, se, code := run(t, "sheet", m, "-o", out, "--format", "sheet,png", "--time", "50%", "--yaw", "30", "--yaws", "90", "--size", "16", "--frames", "2"); code != 0 {
		t.Errorf("sheet with a still: exit %d\n%s", code, se)
	}
	// A portrait model's camera makes --yaw idle: a warning, the picture
	// still drawn.
	p := writeModel(t, dir, "Hero_Portrait.mdx", portraitModel())
	_, se, code := run(t, "render", p, "-o", filepath.Join(dir, "p.png"), "--yaw", "30", "--size", "16")
	if code != 0 || !strings.Contains(se, "ignored-flag: --yaw 30 has no effect: a portrait model is seen through its camera") {
		t.Errorf("portrait --yaw: exit %d\n%s", code, se)
	}
}

// A file the system refuses is named by the name the user gave, never a
// temporary file's.
func TestNoTemporaryNameInMessages(t *testing.T) {
	dir := t.TempDir()
	m := standSecond(t, dir)
	out := filepath.Join(dir, "missing", "x.png")
	_, se, code := run(t, "render", m, "-o", out, "--size", "16")
	if code != exitFailed || !strings.HasSuffix(se, "\nmdxrender: render: cannot write "+out+": no such folder\n") || strings.Contains(se, "mdxr-tmp") {
		t.Errorf("exit %d\n%s", code, se)
	}
	if err := os.MkdirAll(filepath.Join(dir, "busy.png", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, se, code = run(t, "render", m, "-o", filepath.Join(dir, "busy.png"), "--size", "16")
	if code != exitFailed || strings.Contains(se, "mdxr-tmp") || !strings.Contains(se, "cannot write "+filepath.Join(dir, "busy.png")) {
		t.Errorf("a folder in the way: exit %d\n%s", code, se)
	}
}

// Every warning of every command is one line: file, code, message.
func TestWarningsOneLine(t *testing.T) {
	dir := t.TempDir()
	m := standSecond(t, dir) // names a texture that is not beside it
	line := regexp.MustCompile(`^mdxrender: warning: [^:]+unit\.mdl: [a-z]+(-[a-z]+)*: \S.*$`)
	for _, args := range [][]string{
		{"render", m, "-o", filepath.Join(dir, "r.png"), "--size", "16"},
		{"sheet", m, "-o", filepath.Join(dir, "s"), "--size", "16", "--frames", "1"},
		{"batch", m, "-o", filepath.Join(dir, "b"), "--size", "16"},
		{"icon", m, "-o", filepath.Join(dir, "i"), "--no-png"},
	} {
		_, se, code := run(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", args[0], code, se)
		}
		n := 0
		for _, l := range strings.Split(strings.TrimSuffix(se, "\n"), "\n") {
			if !strings.HasPrefix(l, "mdxrender:") || !strings.Contains(l, "warning") {
				continue
			}
			n++
			if !line.MatchString(l) {
				t.Errorf("%s: %q", args[0], l)
			}
		}
		if n == 0 {
			t.Errorf("%s: no warning:\n%s", args[0], se)
		}
	}
}

// The library's defaults are the command's: Open and Render with a zero
// View give render's bytes with no options.
func TestLibraryDefaultsAreTheCommands(t *testing.T) {
	dir := t.TempDir()
	m := standSecond(t, dir)
	out := filepath.Join(dir, "r.png")
	if _, se, code := run(t, "render", m, "-o", out); code != 0 {
		t.Fatalf("exit %d\n%s", code, se)
	}
	model, err := mdxrender.Open(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	img, _, err := model.Render(mdxrender.View{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := mdxrender.EncodePNG(&b, img); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Error("render with no options and the library's View{} differ")
	}
}

// --map-root=false leaves the root of the model's map out of the texture
// search on every command that draws, as render's always did.
func TestMapRootOnEveryCommand(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "map.w3x")
	m := standSecond(t, filepath.Join(mkdir(t, root, "units"))) // names Textures\fixture_checker.tga
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(mkdir(t, root, "Textures"), "fixture_checker.png"), b.Bytes(), 0o644)
	t.Chdir(dir) // a map root is looked for no higher than the working folder
	for _, args := range [][]string{
		{"render", m, "-o", filepath.Join(dir, "r.png")},
		{"sheet", m, "-o", filepath.Join(dir, "s"), "--frames", "1"},
		{"batch", m, "-o", filepath.Join(dir, "b")},
		{"icon", m, "-o", filepath.Join(dir, "i"), "--no-png"},
	} {
		args = append(args, "--size", "16")
		if args[0] == "icon" {
			args = args[:len(args)-2]
		}
		for _, mapRoot := range []bool{true, false} {
			_, se, code := run(t, append(args, "--map-root="+map[bool]string{true: "true", false: "false"}[mapRoot])...)
			missing := strings.Contains(se, "missing-texture: texture \"Textures\\\\fixture_checker.tga\"")
			if code != 0 || missing == mapRoot {
				t.Errorf("%s --map-root=%v: exit %d\n%s", args[0], mapRoot, code, se)
			}
		}
	}
}

func mkdir(t *testing.T, parts ...string) string {
	t.Helper()
	p := filepath.Join(parts...)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// A mistake on the command line is told before a model that is not
// there: fixing the one should not reveal the other.
func TestUsageBeforeMissingModel(t *testing.T) {
	dir := t.TempDir()
	_, se, code := run(t, "sheet", filepath.Join(dir, "missing.mdx"), "-o", dir, "--format", "webp")
	if code != exitUsage || !strings.Contains(se, `--format: unknown format "webp"`) || strings.Contains(se, "no such file") {
		t.Errorf("exit %d\n%s", code, se)
	}
}
