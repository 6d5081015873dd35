package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/batchconfig"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/particles"
)

// The options several commands take are declared here, once: name, value
// form (the Go type the flag holds), default and help text. Every command
// registers them from this table (addShared), so that an option cannot
// mean one thing on render and another on sheet; TestSharedFlagsAgree
// walks every command's flags and holds them to it. Where a default must
// differ because the commands make different things (an icon's camera
// looks a little from the side, sheet makes a sheet where batch makes a
// still), the help text says so in the same words on every command, and
// docs/cli.md's table of shared options lists it.

// sharedFlag is one option of the table.
type sharedFlag struct {
	name, short string
	// on lists the commands that take the option, by their path below
	// the root ("render", "archive extract").
	on []string
	// help is the same on every command of on.
	help string
	// def is the default as it is typed on the command line ("" for
	// none, the rule the help text names); defFor overrides it for a
	// command.
	def    string
	defFor map[string]string
	// repeat makes a list option repeatable (--textures A --textures B)
	// instead of comma-separated.
	repeat bool
}

// The command groups of the table.
var (
	pictureCmds = []string{"render", "sheet", "batch", "check"}
	runCmds     = []string{"sheet", "batch", "check"}
	modelCmds   = []string{"render", "sheet", "batch", "check", "icon"}
	batchCmds   = []string{"batch", "check"}
	readingCmds = []string{"render", "sheet", "batch", "check", "icon", "texture", "convert", "inspect", "archive ls", "archive extract"}
)

// Help texts used beyond the table.
const (
	teamHelp     = "team colour: player number 0-27 (24-27 neutral), a colour name (red, blue, teal, ..., peanut, neutral) or #rrggbb (default: player 0, red)"
	texturesHelp = "texture folder, map (.w3x/.w3m) or MPQ, searched before the model's own folder and map so a reskin there wins (repeatable)"
	gameDataHelp = "the game's files, searched last: a classic install's folder (its MPQs) or a folder of extracted game files"
	verboseHelp  = "also list, under each missing texture, every file looked for"
)

// sharedFlags is the table.
var sharedFlags = sync.OnceValue(func() []sharedFlag {
	def := batchconfig.Default()
	iv := mdxrender.DefaultIconView()
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	icon := func(v string) map[string]string { return map[string]string{"icon": v} }
	return []sharedFlag{
		// Where the output goes.
		{name: "output", short: "o", on: []string{"render", "texture"},
			help: "the PNG file to write (its name ends in .png)"},
		{name: "output", short: "o", on: []string{"sheet", "batch", "check", "icon", "demo", "archive extract"},
			help:   "the folder to write into, created if missing (batch and check: output.dir)",
			defFor: map[string]string{"batch": def.Output.Dir, "check": def.Output.Dir, "demo": "demo-out"}},
		{name: "output", short: "o", on: []string{"merge"},
			help: "the merged manifest file; the reports go beside it"},

		// The picture.
		{name: "size", on: pictureCmds, def: def.Render.Size.String(),
			help: "picture size in pixels: N (square) or WxH, 8 to 8192 a side"},
		{name: "ssaa", on: pictureCmds, def: strconv.Itoa(def.Render.SSAA),
			help: "supersampling factor per axis, 1 to 8"},
		{name: "bg", on: pictureCmds, def: def.Render.Background,
			help: "background: transparent, #rrggbb or #rrggbbaa"},
		// An icon is opaque: its background takes other values.
		{name: "bg", on: []string{"icon"},
			help: "background: #rrggbb, or #rrggbb:#rrggbb for a gradient from top to bottom (default: a dark slate gradient); an icon is opaque"},
		{name: "yaw", on: modelCmds, def: num(def.Render.Yaw), defFor: icon(num(iv.Yaw)),
			help: "orbit camera yaw in degrees, 0 looking at the model's front from +X; a model camera has its own"},
		{name: "pitch", on: modelCmds, def: num(def.Render.Pitch), defFor: icon(num(iv.Pitch)),
			help: "orbit camera elevation in degrees, -90 to 90; a model camera has its own"},
		{name: "camera", on: modelCmds,
			help: "look through the model's camera of this name or index, or orbit for the orbit camera (default: a portrait model's portrait camera, else the orbit camera)"},
		{name: "team", on: modelCmds, help: teamHelp},
		{name: "time", on: modelCmds, def: "0",
			help: "when a still is taken: ms after its sequence's start (0 to 600000) or a share of it like 50%; sheets and previews cover whole sequences"},
		{name: "sequence", on: []string{"render", "icon"},
			help: "the sequence a still shows: a name (exact, else the first starting so; case-blind) or index, -1 for the bind pose (default: Stand, else the first)"},
		{name: "sequence", on: runCmds, def: def.Sequences.Select,
			help: "the sequences sheets and previews show: all, stand (Stand, else the first), or comma-separated names or globs like Walk,Attack* (case-blind); a still shows Stand"},
		{name: "margin", on: pictureCmds, def: num(def.Render.Margin),
			help: "share of the picture's width and height left free on each side of the model, 0 to below 0.5; a model camera has its own view"},
		{name: "zoom", on: pictureCmds, def: num(def.Render.Zoom),
			help: "scale the framed model (2 = twice as large, cropped)"},
		{name: "missing-textures", on: modelCmds, def: def.Render.MissingTextures,
			help: "how what a missing texture covers is drawn: grey (lit grey geometry; particles and ribbons left out) or white (the reference viewer's white stand-in, for comparisons with it)"},

		// Particles.
		{name: "particles", on: modelCmds, def: strconv.FormatBool(def.Render.Particles),
			help: "simulate and draw particle emitters and ribbons (--particles=false: geometry only)"},
		{name: "seed", on: pictureCmds, def: strconv.Itoa(int(particles.DefaultSeed)),
			help: "seed of the particle random generator, 0 to 2147483647"},
		{name: "step-ms", on: pictureCmds, def: "1000/60",
			help: "fixed simulation step in ms: a number or A/B, up to 60000"},
		{name: "preroll-ms", on: pictureCmds, def: "auto",
			help: "ms simulated before the sequence start: a number (any sequence), or auto/negative (one particle lifetime, looping sequences only)"},

		// Where textures are looked for.
		{name: "textures", on: modelCmds, repeat: true, help: texturesHelp},
		{name: "game-data", on: modelCmds, help: gameDataHelp},
		{name: "map-root", on: modelCmds, def: "true",
			help: "also look for textures at the root of the map the model is in, as the game does, found no higher than the current folder (false: the model's folder only, as the reference viewer's harness does)"},
		{name: "verbose", on: modelCmds, def: "false", help: verboseHelp},
		{name: "limit", on: readingCmds, repeat: true,
			help: "raise (or lower) a limit of the model's budget, NAME=VALUE (repeatable): " + strings.Join(budget.Names(), ", ") +
				"; VALUE may end in k, M, G (×1000) or Ki, Mi, Gi (×1024)"},

		// Sheets and previews.
		{name: "format", on: runCmds, def: "png", defFor: map[string]string{"sheet": "sheet"},
			help: "outputs, comma-separated: png (a still), sheet (a sprite sheet), gif, apng (animated previews), icons (the command-card icons of unit models); sheet makes a sheet unless told otherwise, batch and check a still"},
		{name: "framing", on: runCmds, def: def.Sheet.Framing,
			help: "which frames of a sheet and its previews share a camera: sequence (each animation framed on its own) or shared (one camera for all, one size across animations)"},
		{name: "shot", on: []string{"icon", "batch", "check"}, def: "portrait",
			help: "what an icon shows: portrait (the portrait camera, else head and shoulders), head (head and shoulders), whole (the whole model)"},
		{name: "frames", on: runCmds, def: strconv.Itoa(def.Sheet.Frames),
			help: "frames per sequence of a sheet or preview, evenly over its interval"},
		{name: "fps", on: runCmds, def: num(def.Sheet.FPS),
			help: "sample sheets and previews at this many frames a second instead of --frames (0: --frames)"},
		{name: "cols", on: runCmds, def: strconv.Itoa(def.Sheet.Cols),
			help: "wrap each sequence of a sheet after this many frames (0: no wrap)"},
		{name: "yaws", on: runCmds,
			help: "yaw angles in degrees, comma-separated, one block of sheet rows and one preview each (default: --yaw alone)"},
		{name: "trim", on: runCmds, def: strconv.FormatBool(def.Sheet.Trim),
			help: "crop sheet frames to their pixels and pack them (--trim=false: a plain grid)"},
		{name: "max-size", on: runCmds, def: strconv.Itoa(def.Sheet.MaxSize),
			help: "largest sheet side in pixels; a larger sheet is split into pages"},
		{name: "metadata", on: runCmds, def: strings.Join(def.Sheet.Metadata, ","),
			help: "sheet descriptions, comma-separated: texturepacker, aseprite, godot, plain"},

		// Batches.
		{name: "config", short: "c", on: batchCmds, help: "batch config file (.yaml, .toml or .json)"},
		{name: "jobs", on: batchCmds, def: strconv.Itoa(def.Jobs), help: "models rendered at once (0 = number of CPUs)"},
		{name: "shard", on: batchCmds, help: "render share i/n of the inputs (by path hash), 0 <= i < n"},
		{name: "force", on: batchCmds, def: "false", help: "re-render models whose cache entry is still valid"},
		{name: "prune", on: batchCmds, def: "false",
			help: "remove the outputs and cache records earlier runs wrote for models no longer in the inputs (never other files)"},
		{name: "model-timeout", on: batchCmds, def: num(def.ModelTimeout),
			help: "wall time one model may take, in seconds (0 = no limit); a model over it fails and the batch goes on"},

		// Reports.
		{name: "json", on: []string{"inspect"}, def: "false", help: "print a JSON array (one object per file) instead of text"},
		{name: "json", on: []string{"archive ls"}, def: "false", help: "print one JSON object instead of text"},
	}
})

// lookupShared returns the table's entry for the option name on the
// command cmd.
func lookupShared(cmd, name string) (sharedFlag, bool) {
	for _, s := range sharedFlags() {
		if s.name == name && slices.Contains(s.on, cmd) {
			return s, true
		}
	}
	return sharedFlag{}, false
}

// defaultFor is the option's default on cmd, as typed.
func (s sharedFlag) defaultFor(cmd string) string {
	if d, ok := s.defFor[cmd]; ok {
		return d
	}
	return s.def
}

// addShared registers the option name of the table on the flag set of
// the command cmd, into p (a *string, *int, *float64, *bool, *uint32 or
// *[]string). The table and the commands are the program's own: a name
// the table does not give cmd, or a default that does not read, is a
// mistake in this file, which TestSharedFlagsAgree finds, and panics.
func addShared(f *pflag.FlagSet, cmd, name string, p any) {
	s, ok := lookupShared(cmd, name)
	if !ok {
		panic(fmt.Sprintf("mdxrender: the shared options give %s no --%s", cmd, name))
	}
	d := s.defaultFor(cmd)
	bad := func(err error) {
		if err != nil {
			panic(fmt.Sprintf("mdxrender: --%s on %s: default %q: %v", name, cmd, d, err))
		}
	}
	switch p := p.(type) {
	case *string:
		f.StringVarP(p, s.name, s.short, d, s.help)
	case *int:
		v := 0
		if d != "" {
			var err error
			v, err = strconv.Atoi(d)
			bad(err)
		}
		f.IntVarP(p, s.name, s.short, v, s.help)
	case *float64:
		v := 0.0
		if d != "" {
			var err error
			v, err = strconv.ParseFloat(d, 64)
			bad(err)
		}
		f.Float64VarP(p, s.name, s.short, v, s.help)
	case *bool:
		v := false
		if d != "" {
			var err error
			v, err = strconv.ParseBool(d)
			bad(err)
		}
		f.BoolVarP(p, s.name, s.short, v, s.help)
	case *uint32:
		v := uint64(0)
		if d != "" {
			var err error
			v, err = strconv.ParseUint(d, 10, 32)
			bad(err)
		}
		f.Uint32VarP(p, s.name, s.short, uint32(v), s.help)
	case *[]string:
		var v []string
		if d != "" {
			v = strings.Split(d, ",")
		}
		if s.repeat {
			f.StringArrayVarP(p, s.name, s.short, v, s.help)
		} else {
			f.StringSliceVarP(p, s.name, s.short, v, s.help)
		}
	default:
		panic(fmt.Sprintf("mdxrender: --%s on %s: no flag type for %T", name, cmd, p))
	}
}

// sharedValue returns a new variable of the type the option name's
// values are held in, for a command that reads its flags from the flag
// set (batch and check, whose flags are layered over a configuration).
func sharedValue(name string) any {
	switch name {
	case "ssaa", "frames", "cols", "max-size", "jobs":
		return new(int)
	case "yaw", "pitch", "margin", "zoom", "fps", "model-timeout":
		return new(float64)
	case "particles", "trim", "force", "prune", "verbose", "map-root", "json":
		return new(bool)
	case "seed":
		return new(uint32)
	case "textures", "limit", "format", "metadata":
		return new([]string)
	}
	return new(string)
}
