package batchconfig

import (
	"fmt"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/batch"
	yaml "go.yaml.in/yaml/v3"
)

// Config is a batch as a configuration file writes it: the file form of
// batch.Options, whose values are text where the file writes text (a
// background, a team colour, a time, a shard). Field tags give the key
// names used in the file (YAML, TOML or JSON), in MDXR_ environment
// variables (upper case, dots as underscores: render.size ->
// MDXR_RENDER_SIZE), in flags' settings and in error messages: this
// struct is the one schema of all of them. The field comments say what
// the keys mean where batch.Options does not.
type Config struct {
	Inputs Inputs `yaml:"inputs"`
	// TextureRoots are folders, maps (.w3x, .w3m) and MPQ archives.
	TextureRoots []string `yaml:"texture_roots"`
	GameData     string   `yaml:"game_data"`
	// MapRoot is batch.Options.NoMapRoot's opposite.
	MapRoot bool   `yaml:"map_root"`
	Output  Output `yaml:"output"`
	Jobs    int    `yaml:"jobs"`
	// Shard is "i/n" (0 <= i < n); "" is every input.
	Shard string `yaml:"shard"`
	Force bool   `yaml:"force"`
	Prune bool   `yaml:"prune"`
	// ModelTimeout is in seconds (0: no limit).
	ModelTimeout float64 `yaml:"model_timeout"`
	// TextureCacheMB is in MiB.
	TextureCacheMB int             `yaml:"texture_cache_mb"`
	Render         RenderOptions   `yaml:"render"`
	Views          map[string]View `yaml:"views"`
	Sequences      Sequences       `yaml:"sequences"`
	// TeamColors are player numbers 0-27, colour names such as "red", or
	// "#rrggbb".
	TeamColors []string     `yaml:"team_colors"`
	Sheet      SheetOptions `yaml:"sheet"`
	Check      CheckOptions `yaml:"check"`
	Overrides  []Override   `yaml:"overrides"`
	// Limits has one key per limit of budget.Limits, named as the budget
	// names it.
	Limits Limits `yaml:"limits"`
	Icons  Icons  `yaml:"icons"`
}

// Inputs is the inputs.* section.
type Inputs struct {
	Files      []string `yaml:"files"`
	Dirs       []string `yaml:"dirs"`
	Globs      []string `yaml:"globs"`
	List       string   `yaml:"list"`
	Extensions []string `yaml:"extensions"`
}

// Output is the output.* section.
type Output struct {
	Dir     string   `yaml:"dir"`
	Name    string   `yaml:"name"`
	Formats []string `yaml:"formats"`
	Gallery bool     `yaml:"gallery"`
}

// RenderOptions is the render.* section.
type RenderOptions struct {
	Size Size `yaml:"size"`
	SSAA int  `yaml:"ssaa"`
	// Background is "transparent", "#rrggbb" or "#rrggbbaa".
	Background string  `yaml:"background"`
	Yaw        float64 `yaml:"yaw"`
	Pitch      float64 `yaml:"pitch"`
	Camera     string  `yaml:"camera"`
	// TeamColor is written as TeamColors are.
	TeamColor string  `yaml:"team_color"`
	Particles bool    `yaml:"particles"`
	Seed      int     `yaml:"seed"`
	StepMs    float64 `yaml:"step_ms"`
	PrerollMs float64 `yaml:"preroll_ms"`
	// Time is ms after the sequence start ("500") or a share of it
	// ("50%"); "" is the start.
	Time   string  `yaml:"time"`
	Margin float64 `yaml:"margin"`
	Zoom   float64 `yaml:"zoom"`
	// MissingTextures is "grey" or "white".
	MissingTextures string `yaml:"missing_textures"`
}

// View is a views.NAME section.
type View struct {
	Yaw    *float64 `yaml:"yaw"`
	Pitch  *float64 `yaml:"pitch"`
	Size   Size     `yaml:"size"`
	Camera string   `yaml:"camera"`
}

// Sequences is the sequences.* section.
type Sequences struct {
	Select string `yaml:"select"`
	// Pattern is a comma-separated list of case-blind globs
	// ("Walk*,Attack*").
	Pattern string `yaml:"pattern"`
}

// SheetOptions is the sheet.* section.
type SheetOptions struct {
	Frames   int       `yaml:"frames"`
	FPS      float64   `yaml:"fps"`
	Cols     int       `yaml:"cols"`
	Yaws     []float64 `yaml:"yaws"`
	Trim     bool      `yaml:"trim"`
	MaxSize  int       `yaml:"max_size"`
	Metadata []string  `yaml:"metadata"`
	// Framing is "sequence" or "shared".
	Framing string `yaml:"framing"`
}

// CheckOptions is the check.* section.
type CheckOptions struct {
	Golden      string  `yaml:"golden"`
	Tolerance   int     `yaml:"tolerance"`
	MaxMismatch float64 `yaml:"max_mismatch"`
	Update      bool    `yaml:"update"`
	JUnit       string  `yaml:"junit"`
	Summary     string  `yaml:"summary"`
}

// Override is an element of overrides.
type Override struct {
	Match        string      `yaml:"match"`
	Render       RenderPatch `yaml:"render"`
	Sequences    *Sequences  `yaml:"sequences"`
	TeamColors   []string    `yaml:"team_colors"`
	Views        []string    `yaml:"views"`
	TextureRoots []string    `yaml:"texture_roots"`
	Skip         bool        `yaml:"skip"`
}

// RenderPatch is an override's render section: the keys of render.*, nil
// where it leaves them alone.
type RenderPatch struct {
	Size       *Size    `yaml:"size"`
	SSAA       *int     `yaml:"ssaa"`
	Background *string  `yaml:"background"`
	Yaw        *float64 `yaml:"yaw"`
	Pitch      *float64 `yaml:"pitch"`
	Camera     *string  `yaml:"camera"`
	TeamColor  *string  `yaml:"team_color"`
	Time       *string  `yaml:"time"`
	Particles  *bool    `yaml:"particles"`
	Seed       *int     `yaml:"seed"`
	StepMs     *float64 `yaml:"step_ms"`
	PrerollMs  *float64 `yaml:"preroll_ms"`
	Margin     *float64 `yaml:"margin"`
	Zoom       *float64 `yaml:"zoom"`
}

// Size is a picture's size as files, variables and flags write it: N (a
// square, a whole number) or WxH ("96x64"). It reads itself from text,
// so that a size that does not read is reported with the file's line; its
// range is batch.Options.Validate's.
type Size batch.Size

// String writes s as UnmarshalText reads it: "256" for a square.
func (s Size) String() string { return forms.SizeString(s.W, s.H) }

// MarshalText writes s as String does.
func (s Size) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a size as forms.Size does, without the range check.
func (s *Size) UnmarshalText(b []byte) error {
	w, h, err := forms.Size(string(b))
	if err != nil && w == 0 && h == 0 {
		return err
	}
	*s = Size{w, h}
	return nil
}

// UnmarshalYAML takes a whole number or a "WxH" string; a fraction such as
// 12.5 is an error, not 12.
func (s *Size) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!float" || n.ShortTag() == "!!bool" {
		return fmt.Errorf("want N or WxH in whole pixels, got %s", clip.Quote(n.Value))
	}
	return s.UnmarshalText([]byte(n.Value))
}

// EnvPrefix is the prefix of environment variables that set configuration keys.
const EnvPrefix = "MDXR"

// EnvName returns the environment variable for a key: render.size -> MDXR_RENDER_SIZE.
func EnvName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(key))
}

// Default returns the built-in defaults, the lowest layer: the file form
// of batch.DefaultOptions.
func Default() Config {
	d := batch.DefaultOptions()
	c := Config{
		Inputs:         Inputs{Extensions: d.Inputs.Extensions},
		MapRoot:        !d.NoMapRoot,
		Output:         Output{Dir: d.Output.Dir, Name: d.Output.Name, Gallery: d.Output.Gallery},
		Jobs:           d.Jobs,
		Force:          d.Force,
		Prune:          d.Prune,
		ModelTimeout:   d.ModelTimeout.Seconds(),
		TextureCacheMB: int(d.TextureCache >> 20),
		Sequences:      Sequences{Select: string(d.Sequences.Select), Pattern: strings.Join(d.Sequences.Patterns, ",")},
		Sheet: SheetOptions{Frames: d.Sheet.Frames, FPS: d.Sheet.FPS, Cols: d.Sheet.Cols, Yaws: d.Sheet.Yaws,
			Trim: d.Sheet.Trim, MaxSize: d.Sheet.MaxSize, Framing: d.Sheet.Framing.String()},
		Check: CheckOptions{Golden: d.Check.Golden, Tolerance: d.Check.Tolerance, MaxMismatch: d.Check.MaxMismatch,
			Update: d.Check.Update, JUnit: d.Check.JUnit, Summary: d.Check.Summary},
	}
	c.Icons = defaultIcons(d.Icons)
	for _, f := range d.Output.Formats {
		c.Output.Formats = append(c.Output.Formats, string(f))
	}
	for _, m := range d.Sheet.Metadata {
		c.Sheet.Metadata = append(c.Sheet.Metadata, string(m))
	}
	r := d.Render
	c.Render = RenderOptions{Size: Size(r.Size), SSAA: r.SSAA, Background: forms.BackgroundString(r.Background),
		Yaw: r.Yaw, Pitch: r.Pitch, Camera: r.Camera, TeamColor: r.Team.Name, Particles: r.Particles, Seed: r.Seed,
		StepMs: r.StepMs, PrerollMs: r.PrerollMs, Time: r.Time.String(), Margin: r.Margin, Zoom: r.Zoom,
		MissingTextures: r.MissingTextures.String()}
	return c
}
