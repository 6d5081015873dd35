package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/clip"

	"github.com/mdxrender/mdxrender/pkg/mpq"
	"github.com/mdxrender/mdxrender/pkg/sheet"
)

// Config is a validated batch description. Field tags give the key names used
// in the file (YAML, TOML or JSON), in MDXR_ environment variables (upper
// case, dots as underscores: render.size -> MDXR_RENDER_SIZE) and in error
// messages.
type Config struct {
	// Inputs lists the models to render.
	Inputs Inputs `yaml:"inputs" mapstructure:"inputs"`
	// TextureRoots are searched, in order, for texture paths the models
	// name: folders, maps (.w3x, .w3m) and MPQ archives.
	TextureRoots []string `yaml:"texture_roots" mapstructure:"texture_roots"`
	// GameData is the game's own files, searched after TextureRoots for
	// the stock textures models name: a classic install's folder (its
	// MPQs, in the game's order) or a folder of extracted game files.
	GameData string `yaml:"game_data" mapstructure:"game_data"`
	// Output says where files go and which kinds are written.
	Output Output `yaml:"output" mapstructure:"output"`
	// Jobs is the number of models rendered at once; 0 means the number of CPUs.
	Jobs int `yaml:"jobs" mapstructure:"jobs"`
	// Shard is "i/n" (0 <= i < n): this run renders only the inputs whose
	// path hash falls into share i of n. Empty means all inputs.
	Shard string `yaml:"shard" mapstructure:"shard"`
	// Force re-renders models whose cache entry is still valid.
	Force bool `yaml:"force" mapstructure:"force"`
	// Prune removes, after the run, the outputs and cache records this
	// program wrote earlier for models that are no longer in the inputs
	// (or whose outputs changed name); it never removes a file that no
	// cache record or manifest in the output folder lists.
	Prune bool `yaml:"prune" mapstructure:"prune"`
	// ModelTimeout is the wall time one model may take, in seconds (0: no
	// limit): a model over it fails with a timeout error and the batch
	// goes on, so one pathological file cannot stall a batch.
	ModelTimeout float64 `yaml:"model_timeout" mapstructure:"model_timeout"`
	// TextureCacheMB bounds the decoded textures kept between models (MiB),
	// so memory stays flat over a long batch.
	TextureCacheMB int `yaml:"texture_cache_mb" mapstructure:"texture_cache_mb"`
	// Render holds the default render options of every model.
	Render RenderOptions `yaml:"render" mapstructure:"render"`
	// Views are named cameras; each model is rendered once per view. Empty
	// means one view named "default" built from Render.
	Views map[string]View `yaml:"views" mapstructure:"views"`
	// Sequences selects the animations to render.
	Sequences Sequences `yaml:"sequences" mapstructure:"sequences"`
	// TeamColors renders each model once per entry (a player index 0-27,
	// a colour name such as "red", or "#rrggbb": texture.ParseTeam). Empty
	// means Render.TeamColor.
	TeamColors []string `yaml:"team_colors" mapstructure:"team_colors"`
	// Sheet configures sprite sheets and animated previews.
	Sheet SheetOptions `yaml:"sheet" mapstructure:"sheet"`
	// Check configures golden-image comparison.
	Check CheckOptions `yaml:"check" mapstructure:"check"`
	// Overrides change options for the models whose input-relative path
	// matches a glob; later entries win.
	Overrides []Override `yaml:"overrides" mapstructure:"overrides"`
	// Limits bound what each model may cost (limits.go).
	Limits LimitsConfig `yaml:"limits" mapstructure:"limits"`

	// File is the configuration file the values came from ("" if none).
	File string `yaml:"-" mapstructure:"-"`
	// pinned holds the keys set by a flag or environment variable (see
	// Pin): those beat per-model overrides from the file, as flags beat
	// the file.
	pinned map[string]bool
	// origins maps keys to where their value came from, for errors (see
	// SetOrigin).
	origins map[string]string
	// archives are the archives opened for the inputs, closed by Run.
	archives []*mpq.Archive
}

// Inputs names models as explicit files, folders searched recursively, glob
// patterns ("**" crosses folders) and list files with one path per line.
type Inputs struct {
	Files []string `yaml:"files" mapstructure:"files"`
	Dirs  []string `yaml:"dirs" mapstructure:"dirs"`
	Globs []string `yaml:"globs" mapstructure:"globs"`
	// List is a text file with one model path per line; blank lines and
	// lines starting with # are ignored; relative paths are relative to the
	// list file.
	List string `yaml:"list" mapstructure:"list"`
	// Extensions are the file name endings collected from Dirs and Trees,
	// case-blind.
	Extensions []string `yaml:"extensions" mapstructure:"extensions"`
	// Trees are file systems a program hands over (an fs.FS: an archive,
	// an embedded folder): every file with one of Extensions is a model.
	// Configuration files cannot name them.
	Trees []Tree `yaml:"-" mapstructure:"-"`
}

// Tree is a file system whose models a batch renders. Name tells its
// models apart from those of other inputs: it prefixes their input keys
// ("Name:path/in/tree"), which decide shards and caches, and it names them
// in messages.
type Tree struct {
	Name string
	FS   fs.FS
}

// Output configures the output folder and file names.
type Output struct {
	Dir string `yaml:"dir" mapstructure:"dir"`
	// Name is the file-name stem template. Placeholders: {path} (input path
	// relative to its folder or glob root, without extension; prefixed by
	// the root's name where two roots hold the same relative path), {name}
	// (base name without extension), {dir} (relative folder), {root} (the
	// name of the folder, glob root or tree the input was found in), {ext}
	// (extension without the dot, lower case: mdx or mdl), {view}, {team}.
	// Kind suffixes (.png, -sheet.png, -Walk.gif, ...) are appended.
	Name string `yaml:"name" mapstructure:"name"`
	// Formats are the kinds written: png (still thumbnail), sheet, gif, apng.
	Formats []string `yaml:"formats" mapstructure:"formats"`
	// Gallery writes index.html into Dir.
	Gallery bool `yaml:"gallery" mapstructure:"gallery"`
}

// RenderOptions are the renderer settings that a view or override can change.
type RenderOptions struct {
	// Size is the picture size: N or WxH.
	Size Size `yaml:"size" mapstructure:"size"`
	// SSAA is the supersampling factor per axis (1 = off).
	SSAA int `yaml:"ssaa" mapstructure:"ssaa"`
	// Background is "transparent" or #rrggbb / #rrggbbaa.
	Background string `yaml:"background" mapstructure:"background"`
	// Yaw and Pitch orient the camera in degrees; Camera, when set, names a
	// camera stored in the model instead.
	Yaw    float64 `yaml:"yaw" mapstructure:"yaw"`
	Pitch  float64 `yaml:"pitch" mapstructure:"pitch"`
	Camera string  `yaml:"camera" mapstructure:"camera"`
	// TeamColor is the default team colour (see Config.TeamColors).
	TeamColor string `yaml:"team_color" mapstructure:"team_color"`
	// Particles simulates and draws particle emitters and ribbons from the
	// sequence start (the reference viewer's update loop, pkg/particles);
	// false draws geometry only.
	Particles bool `yaml:"particles" mapstructure:"particles"`
	// Seed seeds the particle generator (0 to 2³¹−1; default 6, the
	// reference harness's).
	Seed int `yaml:"seed" mapstructure:"seed"`
	// StepMs is the fixed simulation step in ms (default 1000/60).
	StepMs float64 `yaml:"step_ms" mapstructure:"step_ms"`
	// PrerollMs is simulated before the sequence start: ≥ 0 that many ms
	// for any sequence (the harness's --preroll-ms); negative (default −1)
	// one longest particle lifetime for looping sequences only.
	PrerollMs float64 `yaml:"preroll_ms" mapstructure:"preroll_ms"`
	// Time is where in its sequence the still thumbnail is taken: a number
	// of ms after the sequence start or a share of its length ("50%");
	// "" or "0" is the start. Spell effects whose sequence does not loop
	// have nothing emitted yet at their start. Sheets and animations
	// always sample the whole sequence. (omitempty keeps the cache keys of
	// runs that leave it at the start.)
	Time string `yaml:"time" mapstructure:"time" json:",omitempty"`
	// Margin is the share of a picture's width and height the automatic
	// camera leaves free on each side of the model (0 to below 0.5;
	// default 0.05, which fills 90% of the limiting side); Zoom scales the
	// model after that (default 1; 2 doubles it and crops). Neither
	// applies to a model's own camera.
	Margin float64 `yaml:"margin" mapstructure:"margin"`
	Zoom   float64 `yaml:"zoom" mapstructure:"zoom"`
}

// View is a named camera. Zero fields take the value from RenderOptions.
type View struct {
	Yaw    *float64 `yaml:"yaw" mapstructure:"yaw"`
	Pitch  *float64 `yaml:"pitch" mapstructure:"pitch"`
	Size   Size     `yaml:"size" mapstructure:"size"`
	Camera string   `yaml:"camera" mapstructure:"camera"`
}

// Sequence selection modes.
const (
	SelectStand = "stand" // the first sequence named Stand (or the first one)
	SelectAll   = "all"
	SelectMatch = "match" // sequences whose name matches Pattern
)

// Sequences selects which animations are rendered.
type Sequences struct {
	// Select is stand, all or match.
	Select string `yaml:"select" mapstructure:"select"`
	// Pattern is a comma-separated list of case-blind globs ("Walk*,Attack*")
	// used with Select=match.
	Pattern string `yaml:"pattern" mapstructure:"pattern"`
}

// SheetOptions configures sprite sheets and animated previews.
type SheetOptions struct {
	// Frames per sequence, sampled evenly over the interval (ignored if FPS > 0).
	Frames int `yaml:"frames" mapstructure:"frames"`
	// FPS samples at a fixed rate instead.
	FPS float64 `yaml:"fps" mapstructure:"fps"`
	// Cols wraps a sequence's frames after this many columns; 0 = no wrap.
	Cols int `yaml:"cols" mapstructure:"cols"`
	// Yaws renders each sequence at these yaw angles (degrees), one block of
	// rows per yaw (8 directions for isometric games). Empty = the view's yaw.
	Yaws []float64 `yaml:"yaws" mapstructure:"yaws"`
	// Trim crops every frame of a sheet to its pixels and packs them
	// tightly; the metadata puts each frame back in its place.
	Trim bool `yaml:"trim" mapstructure:"trim"`
	// MaxSize bounds a sheet image's width and height in pixels; a larger
	// sheet is split into pages (TexturePacker's multipack), and one whose
	// single animation does not fit fails.
	MaxSize int `yaml:"max_size" mapstructure:"max_size"`
	// Metadata are the descriptions written beside a sheet: texturepacker
	// (JSON hash, Phaser and PixiJS), aseprite (Phaser's load.aseprite),
	// godot (Godot 4 SpriteFrames .tres) and plain.
	Metadata []string `yaml:"metadata" mapstructure:"metadata"`
}

// Sheet metadata formats accepted in SheetOptions.Metadata.
const (
	MetaTexturePacker = "texturepacker"
	MetaAseprite      = "aseprite"
	MetaGodot         = "godot"
	MetaPlain         = "plain"
)

// CheckOptions configures golden comparison.
type CheckOptions struct {
	// Golden is the folder of stored images, laid out like the output folder.
	Golden string `yaml:"golden" mapstructure:"golden"`
	// Tolerance is the largest per-channel difference (0-255) still equal.
	Tolerance int `yaml:"tolerance" mapstructure:"tolerance"`
	// MaxMismatch is the share (0-1) of differing pixels still accepted.
	MaxMismatch float64 `yaml:"max_mismatch" mapstructure:"max_mismatch"`
	// Update rewrites the goldens instead of comparing.
	Update bool `yaml:"update" mapstructure:"update"`
	// JUnit and Summary name the report files (relative to Output.Dir).
	JUnit   string `yaml:"junit" mapstructure:"junit"`
	Summary string `yaml:"summary" mapstructure:"summary"`
}

// Override changes options for models whose path matches Match.
type Override struct {
	Match        string      `yaml:"match" mapstructure:"match"`
	Render       RenderPatch `yaml:"render" mapstructure:"render"`
	Sequences    *Sequences  `yaml:"sequences" mapstructure:"sequences"`
	TeamColors   []string    `yaml:"team_colors" mapstructure:"team_colors"`
	Views        []string    `yaml:"views" mapstructure:"views"`
	TextureRoots []string    `yaml:"texture_roots" mapstructure:"texture_roots"`
	// Skip leaves matching models out of the batch.
	Skip bool `yaml:"skip" mapstructure:"skip"`
}

// RenderPatch is a partial RenderOptions: nil fields are left alone.
type RenderPatch struct {
	Size       *Size    `yaml:"size" mapstructure:"size"`
	SSAA       *int     `yaml:"ssaa" mapstructure:"ssaa"`
	Background *string  `yaml:"background" mapstructure:"background"`
	Yaw        *float64 `yaml:"yaw" mapstructure:"yaw"`
	Pitch      *float64 `yaml:"pitch" mapstructure:"pitch"`
	Camera     *string  `yaml:"camera" mapstructure:"camera"`
	TeamColor  *string  `yaml:"team_color" mapstructure:"team_color"`
	Time       *string  `yaml:"time" mapstructure:"time"`
	Particles  *bool    `yaml:"particles" mapstructure:"particles"`
	Seed       *int     `yaml:"seed" mapstructure:"seed"`
	StepMs     *float64 `yaml:"step_ms" mapstructure:"step_ms"`
	PrerollMs  *float64 `yaml:"preroll_ms" mapstructure:"preroll_ms"`
	Margin     *float64 `yaml:"margin" mapstructure:"margin"`
	Zoom       *float64 `yaml:"zoom" mapstructure:"zoom"`
}

// DefaultConfig returns the built-in defaults, the lowest precedence layer.
func DefaultConfig() Config {
	return Config{
		Inputs:         Inputs{Extensions: mdxrender.ModelExts()},
		TextureCacheMB: 64,
		Output:         Output{Dir: "out", Name: "{path}-{view}", Formats: []string{"png"}, Gallery: true},
		ModelTimeout:   DefaultModelTimeout,
		Render: RenderOptions{Size: Square(256), SSAA: 1, Background: "transparent", Yaw: 0, Pitch: 0,
			Particles: true, Seed: 6, StepMs: 1000.0 / 60, PrerollMs: -1, Margin: 0.05, Zoom: 1},
		Sequences: Sequences{Select: SelectStand},
		Sheet: SheetOptions{Frames: 8, Trim: true, MaxSize: sheet.DefaultMaxSize,
			Metadata: []string{MetaTexturePacker, MetaAseprite, MetaGodot, MetaPlain}},
		Check: CheckOptions{Tolerance: 2, MaxMismatch: 0.001, JUnit: "junit.xml", Summary: "summary.md"},
	}
}

// DefaultModelTimeout is model_timeout's default in seconds: some sixty
// times what the slowest model of the test corpus takes at the default
// size with particles (under 5 s on a loaded two-core machine), so that
// only a pathological file reaches it.
const DefaultModelTimeout = 300

// EnvPrefix is the prefix of environment variables that set configuration keys.
const EnvPrefix = "MDXR"

// EnvName returns the environment variable for a key: render.size -> MDXR_RENDER_SIZE.
func EnvName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(key))
}

// ConfigError is one problem with a key; Where is "file:line", "file",
// "env NAME", "flag --name", or "" for a value not set anywhere.
type ConfigError struct {
	Where string
	Key   string
	Msg   string
}

// Error bounds what it repeats of the key and message, and escapes their
// control characters (clip.Display): a file can name a key of megabytes,
// or one that clears the terminal it is printed on.
func (e *ConfigError) Error() string {
	key, msg := clip.Display(e.Key, 2*clip.MaxQuote), clip.Display(e.Msg, 10*clip.MaxQuote)
	if e.Where == "" {
		return fmt.Sprintf("config: %s: %s", key, msg)
	}
	where := clip.Display(e.Where, 2*clip.MaxQuote)
	if e.Key == "" {
		return fmt.Sprintf("%s: %s", where, msg)
	}
	return fmt.Sprintf("%s: %s: %s", where, key, msg)
}

// SetOrigin records where the value of key (dotted, as in the file:
// "render.size", "overrides[0].match") came from: "file:line", "file",
// "env NAME" or "flag --name". Validate names it in its errors; a key with
// no origin of its own takes its parent's, then the file's.
func (c *Config) SetOrigin(key, where string) {
	if c.origins == nil {
		c.origins = map[string]string{}
	}
	c.origins[key] = where
}

// Pin records that key was set above the configuration file, by an
// environment variable or a flag that where names ("env MDXR_RENDER_SIZE",
// "flag --size"): the file's per-model overrides then leave the key alone,
// as the command line beats the file everywhere.
func (c *Config) Pin(key, where string) {
	if c.pinned == nil {
		c.pinned = map[string]bool{}
	}
	c.pinned[key] = true
	c.SetOrigin(key, where)
}

// where returns the origin of a key's value for error messages.
func (c *Config) where(key string) string {
	for k := key; k != ""; {
		if w, ok := c.origins[k]; ok {
			return w
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return c.File // "" when there is no file: the message then says "config:"
}

// optionsHash hashes the settings that decide what a batch renders: the
// inputs as configured, output names and formats, render options, views,
// sequences, teams, sheet and check options and overrides. The folders'
// locations (output, goldens, texture roots) are left out, so that
// machines that mount them elsewhere still agree; shards of one batch
// must agree on it (Merge checks).
func (c *Config) optionsHash() string {
	b, _ := json.Marshal(struct {
		Files, Dirs, Globs, Extensions []string
		List                           string
		Name                           string
		Formats                        []string
		Render                         RenderOptions
		Views                          map[string]View
		Sequences                      Sequences
		TeamColors                     []string
		Sheet                          SheetOptions
		Tolerance                      int
		MaxMismatch                    float64
		Overrides                      []Override
	}{c.Inputs.Files, c.Inputs.Dirs, c.Inputs.Globs, c.Inputs.Extensions, c.Inputs.List, c.Output.Name, c.Output.Formats,
		c.Render, c.Views, c.Sequences, c.TeamColors, c.Sheet, c.Check.Tolerance, c.Check.MaxMismatch, c.Overrides})
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
