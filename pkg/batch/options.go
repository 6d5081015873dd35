package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image/color"
	"io/fs"
	"time"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/icon"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/sheet"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Options describe a batch: which models, how to draw them, what to
// write and where. Start from DefaultOptions and set what differs;
// Validate says what is wrong with them, naming each option as a
// configuration file does (pkg/batchconfig reads those files into
// Options).
type Options struct {
	// Inputs lists the models to render.
	Inputs Inputs
	// Base is the folder the relative paths of the options (inputs,
	// texture roots, game data, the output and golden folders) are
	// relative to: a configuration file's folder. "" is the working
	// directory.
	Base string
	// TextureRoots are searched, in order, for texture paths the models
	// name, before the model's own folder and map: folders, maps (.w3x,
	// .w3m) and MPQ archives.
	TextureRoots []string
	// GameData is the game's own files, searched after the model's folder
	// and map for the stock textures models name: a classic install's
	// folder (its MPQs, in the game's order) or a folder of extracted
	// game files.
	GameData string
	// NoMapRoot looks for a model's textures in its own folder (after
	// TextureRoots, before GameData) but not at the root of the map it is
	// part of, as the reference viewer's harness looks for them.
	NoMapRoot bool
	// Output says where files go and which kinds are written.
	Output Output
	// Jobs is the number of models rendered at once; 0 means the number
	// of CPUs. The outputs do not depend on it.
	Jobs int
	// Shard is this run's share of the inputs (by the hash of their
	// keys); the zero Shard is all of them.
	Shard Shard
	// Force re-renders models whose cache entry is still valid.
	Force bool
	// Prune removes, after the run, the outputs and cache records this
	// program wrote earlier for models that are no longer in the inputs
	// (or whose outputs changed name); it never removes a file that no
	// cache record or manifest in the output folder lists.
	Prune bool
	// ModelTimeout is the wall time one model may take (0: no limit): a
	// model over it fails with a timeout error and the batch goes on, so
	// one pathological file cannot stall a batch.
	ModelTimeout time.Duration
	// TextureCache bounds the decoded textures NewRenderer keeps between
	// models, in bytes, so memory stays flat over a long batch.
	TextureCache int64
	// Render holds the picture options of every model; views, teams and
	// overrides change them.
	Render RenderOptions
	// Views are named cameras; each model is rendered once per view.
	// Empty means one view named "default" built from Render.
	Views map[string]View
	// Sequences selects the animations to render.
	Sequences Sequences
	// Teams renders each model once per team colour; empty means
	// Render.Team.
	Teams []Team
	// Sheet configures sprite sheets and animated previews.
	Sheet SheetOptions
	// Check configures golden-image comparison (Runner.Check).
	Check CheckOptions
	// Overrides change options for the models whose input-relative path
	// matches a glob; later entries win.
	Overrides []Override
	// Limits bound what each model may cost: its file, its textures and
	// every output of it, together.
	Limits budget.Limits
	// Icons say how the icons of FormatIcons are made.
	Icons IconOptions
}

// Inputs names models as explicit files, folders searched recursively, glob
// patterns ("**" crosses folders), list files with one path per line and
// file systems. A map (.w3x, .w3m) or .mpq among the files stands for
// every model in it, "MAP.w3x:path/inside" for one.
type Inputs struct {
	Files []string
	Dirs  []string
	Globs []string
	// List is a text file with one model path per line; blank lines and
	// lines starting with # are ignored; relative paths are relative to the
	// list file.
	List string
	// Extensions are the file name endings collected from Dirs, Trees and
	// archives, case-blind.
	Extensions []string
	// Trees are file systems a program hands over (an fs.FS: an archive,
	// an embedded folder): every file with one of Extensions is a model.
	// Configuration files cannot name them.
	Trees []Tree
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
	Dir string
	// Name is the file-name stem template. Placeholders: {path} (input path
	// relative to its folder or glob root, without extension; prefixed by
	// the root's name where two roots hold the same relative path), {name}
	// (base name without extension), {dir} (relative folder), {root} (the
	// name of the folder, glob root or tree the input was found in), {ext}
	// (extension without the dot, lower case: mdx or mdl), {view}, {team}.
	// Kind suffixes (.png, -sheet.png, -Walk.gif, ...) are appended.
	Name string
	// Formats are the kinds written: FormatPNG, FormatSheet, FormatGIF,
	// FormatAPNG, FormatIcons.
	Formats []Format
	// Gallery writes index.html into Dir.
	Gallery bool
}

// Format is a kind of output.
type Format string

// The output formats. A manifest's OutputFile.Kind names them so, and
// the files written beside a sheet by kinds of their own.
const (
	FormatPNG   Format = "png"   // the still
	FormatSheet Format = "sheet" // the sprite sheet and its metadata
	FormatGIF   Format = "gif"   // a preview per animation
	FormatAPNG  Format = "apng"  // a preview per animation, full alpha
)

// RenderOptions are the picture options that a view or an override can
// change. Each field holds its value, not a default's stand-in: a Margin
// of 0 is no margin, a Seed of 0 the seed 0 (DefaultOptions has the
// defaults).
type RenderOptions struct {
	// Size is the picture size.
	Size Size
	// SSAA is the supersampling factor per axis (1 = off, up to 8).
	SSAA int
	// Background is composited under the model; alpha 0 (the zero
	// colour) is transparent.
	Background color.NRGBA
	// Yaw and Pitch orient the camera in degrees; Camera, when set, names a
	// camera stored in the model instead.
	Yaw, Pitch float64
	Camera     string
	// Team is the team colour when Options.Teams is empty.
	Team Team
	// Particles simulates and draws particle emitters and ribbons from the
	// sequence start (the reference viewer's update loop, pkg/particles);
	// false draws geometry only.
	Particles bool
	// Seed seeds the particle generator (0 to 2³¹−1; default 6, the
	// reference harness's).
	Seed int
	// StepMs is the fixed simulation step in ms (default 1000/60).
	StepMs float64
	// PrerollMs is simulated before the sequence start: ≥ 0 that many ms
	// for any sequence (the harness's --preroll-ms); negative (default −1)
	// one longest particle lifetime for looping sequences only.
	PrerollMs float64
	// Time is where in its sequence the still (png) is taken: render.Ms
	// after the sequence start (0 to 600000) or render.Share of its
	// length. Spell effects whose sequence does not loop have nothing
	// emitted yet at their start. Sheets and animations always sample the
	// whole sequence.
	Time render.Time
	// Margin is the share of a picture's width and height the automatic
	// camera leaves free on each side of the model (0 to below 0.5;
	// default 0.05, which fills 90% of the limiting side); Zoom scales the
	// model after that (default 1; 2 doubles it and crops). Neither
	// applies to a model's own camera.
	Margin, Zoom float64
	// MissingTextures says how what a texture the sources do not hold
	// covers is drawn: render.MissingGrey (the default) or
	// render.MissingWhite, the reference viewer's stand-in.
	MissingTextures render.MissingTextures
}

// Team is a team colour to render: as it is drawn, and the name output
// names ({team}) and the manifest give it.
type Team struct {
	Name  string
	Color texture.Team
}

// View is a named camera. Zero fields take the value from RenderOptions.
type View struct {
	Yaw, Pitch *float64
	Size       Size
	Camera     string
}

// Sequences selects which animations sheets and previews show (a still
// shows the stand sequence); the default is all of them, as the sheet
// command makes.
type Sequences struct {
	Select Select
	// Patterns are case-blind globs ("Walk*", "Attack*"): with SelectMatch
	// the sequences whose name matches one are rendered.
	Patterns []string
}

// Select is a way of choosing sequences.
type Select string

// The ways of choosing sequences.
const (
	SelectStand Select = "stand" // the first sequence named Stand, by render.StandSequence
	SelectAll   Select = "all"
	SelectMatch Select = "match" // the sequences whose name matches one of Patterns
)

// SheetOptions configures sprite sheets and animated previews.
type SheetOptions struct {
	// Frames per sequence, sampled evenly over the interval (ignored if FPS > 0).
	Frames int
	// FPS samples at a fixed rate instead.
	FPS float64
	// Cols wraps a sequence's frames after this many columns; 0 = no wrap.
	Cols int
	// Yaws renders each sequence at these yaw angles (degrees), one block of
	// rows per yaw (8 directions for isometric games). Empty = the view's yaw.
	Yaws []float64
	// Trim crops every frame of a sheet to its pixels and packs them
	// tightly; the metadata puts each frame back in its place.
	Trim bool
	// MaxSize bounds a sheet image's width and height in pixels; a larger
	// sheet is split into pages (TexturePacker's multipack), and one whose
	// single animation does not fit fails.
	MaxSize int
	// Metadata are the descriptions written beside a sheet.
	Metadata []Metadata
	// Framing says which frames of a sheet and its previews share a
	// camera: each sequence's (render.FramePerSequence, the default) or
	// all of them (render.FrameShared).
	Framing render.RunFraming
}

// Metadata is a description of a sprite sheet for game engines.
type Metadata string

// The sheet metadata formats.
const (
	MetaTexturePacker Metadata = "texturepacker" // JSON hash: Phaser, PixiJS
	MetaAseprite      Metadata = "aseprite"      // Phaser's load.aseprite
	MetaGodot         Metadata = "godot"         // Godot 4 SpriteFrames .tres
	MetaPlain         Metadata = "plain"         // plain JSON
)

// CheckOptions configures golden comparison.
type CheckOptions struct {
	// Golden is the folder of stored images, laid out like the output folder.
	Golden string
	// Tolerance is the largest per-channel difference (0-255) still equal.
	Tolerance int
	// MaxMismatch is the share (0-1) of differing pixels still accepted.
	MaxMismatch float64
	// Update rewrites the goldens instead of comparing.
	Update bool
	// JUnit and Summary name the report files (relative to Output.Dir).
	JUnit, Summary string
}

// Override changes options for models whose path matches Match.
type Override struct {
	// Match is a glob ("**" crosses folders) matched against an input's
	// relative path, or its key.
	Match  string
	Render RenderPatch
	// Sequences, Teams and Views, when set, replace the batch's (Views
	// chooses among its views by name).
	Sequences *Sequences
	Teams     []Team
	Views     []string
	// TextureRoots are searched before the batch's.
	TextureRoots []string
	// Skip leaves matching models out of the batch.
	Skip bool
}

// RenderPatch is a partial RenderOptions: nil fields are left alone.
type RenderPatch struct {
	Size       *Size
	SSAA       *int
	Background *color.NRGBA
	Yaw        *float64
	Pitch      *float64
	Camera     *string
	Team       *Team
	Time       *render.Time
	Particles  *bool
	Seed       *int
	StepMs     *float64
	PrerollMs  *float64
	Margin     *float64
	Zoom       *float64
}

// DefaultOptions returns the defaults: what mdxrender batch does with a
// configuration that names only its inputs.
func DefaultOptions() Options {
	return Options{
		Inputs:       Inputs{Extensions: mdxrender.ModelExts()},
		TextureCache: 64 << 20,
		Output:       Output{Dir: "out", Name: "{path}-{view}", Formats: []Format{FormatPNG}, Gallery: true},
		ModelTimeout: DefaultModelTimeout,
		Render: RenderOptions{Size: Square(256), SSAA: 1, Particles: true, Seed: 6, StepMs: 1000.0 / 60, PrerollMs: -1,
			Margin: 0.05, Zoom: 1},
		Sequences: Sequences{Select: SelectAll},
		Sheet: SheetOptions{Frames: 8, Trim: true, MaxSize: sheet.DefaultMaxSize,
			Metadata: []Metadata{MetaTexturePacker, MetaAseprite, MetaGodot, MetaPlain}},
		Check: CheckOptions{Tolerance: 2, MaxMismatch: 0.001, JUnit: "junit.xml", Summary: "summary.md"},
		Icons: IconOptions{Kinds: []icon.Kind{icon.BTN, icon.DISBTN}, Files: mdxrender.IconFiles{BLP: texture.BLPOptions{Quality: texture.DefaultBLPQuality}}},
	}
}

// DefaultModelTimeout is ModelTimeout's default: some sixty times what
// the slowest model of the test corpus takes at the default size with
// particles (under 5 s on a loaded two-core machine), so that only a
// pathological file reaches it.
const DefaultModelTimeout = 300 * time.Second

// OptionError is a problem with one option. Key names the option as
// configuration files do ("render.size", "overrides[0].match"), so that
// a loader can say where its value came from.
type OptionError struct {
	Key, Msg string
}

// Error bounds what it repeats of the key and message, and escapes their
// control characters (clip.Display): an option's value can come from a
// stranger's file.
func (e *OptionError) Error() string {
	return clip.Display(e.Key, 2*clip.MaxQuote) + ": " + clip.Display(e.Msg, 10*clip.MaxQuote)
}

// optionsHash hashes the options that decide what a batch renders: the
// inputs as given, output names and formats, render options, views,
// sequences, teams, sheet and check options and overrides. The folders'
// locations (output, goldens, texture roots) are left out, so that
// machines that mount them elsewhere still agree; shards of one batch
// must agree on it (Merge checks).
func (o *Options) optionsHash() string {
	b, _ := json.Marshal(struct {
		Files, Dirs, Globs, Extensions []string
		List                           string
		Name                           string
		Formats                        []Format
		Render                         RenderOptions
		Views                          map[string]View
		Sequences                      Sequences
		Teams                          []Team
		Sheet                          SheetOptions
		Tolerance                      int
		MaxMismatch                    float64
		Overrides                      []Override
		NoMapRoot                      bool
		Icons                          IconOptions
	}{o.Inputs.Files, o.Inputs.Dirs, o.Inputs.Globs, o.Inputs.Extensions, o.Inputs.List, o.Output.Name, o.Output.Formats,
		o.Render, o.Views, o.Sequences, o.Teams, o.Sheet, o.Check.Tolerance, o.Check.MaxMismatch, o.Overrides, o.NoMapRoot, o.Icons})
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
