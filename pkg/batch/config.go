package batch

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	yaml "go.yaml.in/yaml/v3"
)

// Config is a validated batch description. Field tags give the key names used
// in the file (YAML, TOML or JSON), in MDXR_ environment variables (upper
// case, dots as underscores: render.size -> MDXR_RENDER_SIZE) and in error
// messages.
type Config struct {
	// Inputs lists the models to render.
	Inputs Inputs `yaml:"inputs" mapstructure:"inputs"`
	// TextureRoots are searched, in order, for texture paths the models name.
	TextureRoots []string `yaml:"texture_roots" mapstructure:"texture_roots"`
	// Output says where files go and which kinds are written.
	Output Output `yaml:"output" mapstructure:"output"`
	// Jobs is the number of models rendered at once; 0 means the number of CPUs.
	Jobs int `yaml:"jobs" mapstructure:"jobs"`
	// Shard is "i/n" (0 <= i < n): this run renders only the inputs whose
	// path hash falls into share i of n. Empty means all inputs.
	Shard string `yaml:"shard" mapstructure:"shard"`
	// Force re-renders models whose cache entry is still valid.
	Force bool `yaml:"force" mapstructure:"force"`
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
	// TeamColors renders each model once per entry (a player index 0-24, a
	// colour name such as "red", or "#rrggbb"). Empty means Render.TeamColor.
	TeamColors []string `yaml:"team_colors" mapstructure:"team_colors"`
	// Sheet configures sprite sheets and animated previews.
	Sheet SheetOptions `yaml:"sheet" mapstructure:"sheet"`
	// Check configures golden-image comparison.
	Check CheckOptions `yaml:"check" mapstructure:"check"`
	// Overrides change options for the models whose input-relative path
	// matches a glob; later entries win.
	Overrides []Override `yaml:"overrides" mapstructure:"overrides"`

	// File is the configuration file the values came from ("" if none).
	File string `yaml:"-" mapstructure:"-"`
	// pinned holds the keys set by a flag or environment variable: those
	// beat per-model overrides from the file, as flags beat the file.
	pinned map[string]bool
	// origins maps keys to where their value came from, for errors.
	origins map[string]string
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
	// Extensions are the file name endings collected from Dirs, case-blind.
	Extensions []string `yaml:"extensions" mapstructure:"extensions"`
}

// Output configures the output folder and file names.
type Output struct {
	Dir string `yaml:"dir" mapstructure:"dir"`
	// Name is the file-name stem template. Placeholders: {path} (input path
	// relative to its folder or glob root, without extension), {name} (base
	// name without extension), {dir} (relative folder), {ext} (extension
	// without the dot, lower case: mdx or mdl), {view}, {team}.
	// Kind suffixes (.png, -sheet.png, -Walk.gif, ...) are appended.
	Name string `yaml:"name" mapstructure:"name"`
	// Formats are the kinds written: png (still thumbnail), sheet, gif, apng.
	Formats []string `yaml:"formats" mapstructure:"formats"`
	// Gallery writes index.html into Dir.
	Gallery bool `yaml:"gallery" mapstructure:"gallery"`
}

// RenderOptions are the renderer settings that a view or override can change.
type RenderOptions struct {
	Size int `yaml:"size" mapstructure:"size"`
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
}

// View is a named camera. Zero fields take the value from RenderOptions.
type View struct {
	Yaw    *float64 `yaml:"yaw" mapstructure:"yaw"`
	Pitch  *float64 `yaml:"pitch" mapstructure:"pitch"`
	Size   int      `yaml:"size" mapstructure:"size"`
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
}

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
	Size       *int     `yaml:"size" mapstructure:"size"`
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
}

// DefaultConfig returns the built-in defaults, the lowest precedence layer.
func DefaultConfig() Config {
	return Config{
		Inputs:         Inputs{Extensions: []string{".mdx", ".mdl", ".m2"}},
		TextureCacheMB: 64,
		Output:         Output{Dir: "out", Name: "{path}-{view}", Formats: []string{"png"}, Gallery: true},
		Render: RenderOptions{Size: 256, SSAA: 1, Background: "transparent", Yaw: 0, Pitch: 0,
			Particles: true, Seed: 6, StepMs: 1000.0 / 60, PrerollMs: -1},
		Sequences: Sequences{Select: SelectStand},
		Sheet:     SheetOptions{Frames: 8},
		Check:     CheckOptions{Tolerance: 2, MaxMismatch: 0.001, JUnit: "junit.xml", Summary: "summary.md"},
	}
}

// EnvPrefix is the prefix of environment variables that set configuration keys.
const EnvPrefix = "MDXR"

// EnvName returns the environment variable for a key: render.size -> MDXR_RENDER_SIZE.
func EnvName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(key))
}

// LoadOptions are the layers above the file.
type LoadOptions struct {
	// File is the configuration file; "" means defaults, env and flags only.
	File string
	// Flags, if set, is the command's flag set; FlagKeys maps a flag name to
	// the key it sets (e.g. "size" -> "render.size"). Only flags the user
	// changed take part, so a flag's own default never hides the file.
	Flags    *pflag.FlagSet
	FlagKeys map[string]string
	// Args are extra model paths (command-line arguments) relative to the
	// working directory: files are added to Inputs.Files, folders to
	// Inputs.Dirs.
	Args []string
}

// ConfigError is one problem with a key; Where is "file:line", "file",
// "env NAME", "flag --name", or "" for a value not set anywhere.
type ConfigError struct {
	Where string
	Key   string
	Msg   string
}

func (e *ConfigError) Error() string {
	if e.Where == "" {
		return fmt.Sprintf("config: %s: %s", e.Key, e.Msg)
	}
	if e.Key == "" {
		return fmt.Sprintf("%s: %s", e.Where, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.Where, e.Key, e.Msg)
}

// LoadConfig builds a Config from built-in defaults, the file, MDXR_
// environment variables and changed flags, in rising precedence, and
// validates it. All problems are returned together (errors.Join of
// *ConfigError), before any work starts.
func LoadConfig(o LoadOptions) (*Config, error) {
	def := DefaultConfig()
	lines := map[string]int{}
	var fileMap map[string]any
	var errs []error

	if o.File != "" {
		data, err := os.ReadFile(o.File)
		if err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
		ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(o.File), "."))
		var root *yaml.Node
		hasLines := true
		switch ext {
		case "yaml", "yml", "json":
			// JSON is (for configuration purposes) YAML, so one parser gives
			// line numbers for both.
			var doc yaml.Node
			if err := yaml.Unmarshal(data, &doc); err != nil {
				return nil, fmt.Errorf("config: %s: %w", o.File, err)
			}
			if len(doc.Content) > 0 {
				root = doc.Content[0]
			}
		case "toml":
			// TOML goes through viper's parser; positions are lost, so
			// errors name the key only.
			tv := viper.New()
			tv.SetConfigType("toml")
			if err := tv.ReadConfig(bytes.NewReader(data)); err != nil {
				return nil, fmt.Errorf("config: %s: %w", o.File, err)
			}
			var n yaml.Node
			if err := n.Encode(tv.AllSettings()); err != nil {
				return nil, fmt.Errorf("config: %s: %w", o.File, err)
			}
			root, hasLines = &n, false
		default:
			return nil, fmt.Errorf("config: %s: unknown extension %q (want .yaml, .yml, .toml or .json)", o.File, ext)
		}
		if root != nil && !(root.Kind == yaml.ScalarNode && root.Tag == "!!null") {
			w := &walker{file: o.File, lines: lines, hasLines: hasLines}
			w.check(root, reflect.TypeOf(Config{}), "")
			errs = append(errs, w.errs...)
			if len(w.errs) == 0 {
				if err := root.Decode(&fileMap); err != nil {
					errs = append(errs, fmt.Errorf("config: %s: %w", o.File, err))
				}
			}
		}
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
	}

	v := viper.New()
	v.SetEnvPrefix(EnvPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	v.AutomaticEnv()
	leaves := leafKeys(reflect.TypeOf(Config{}), "")
	dv := reflect.ValueOf(def)
	for _, k := range leaves {
		v.SetDefault(k.key, fieldByKey(dv, k.key).Interface())
	}
	if fileMap != nil {
		if err := v.MergeConfigMap(fileMap); err != nil {
			return nil, fmt.Errorf("config: %s: %w", o.File, err)
		}
	}

	cfg := &Config{File: o.File, pinned: map[string]bool{}, origins: map[string]string{}}
	for k, l := range lines {
		if l > 0 {
			cfg.origins[k] = fmt.Sprintf("%s:%d", o.File, l)
		} else {
			cfg.origins[k] = o.File
		}
	}
	// Environment values are strings; check them against the key's type
	// here so the error names the variable, not a decoder internal.
	for _, k := range leaves {
		name := EnvName(k.key)
		s, ok := os.LookupEnv(name)
		if !ok {
			continue
		}
		where := "env " + name
		cfg.pinned[k.key], cfg.origins[k.key] = true, where
		if err := checkScalarString(k.kind, s); err != nil {
			errs = append(errs, &ConfigError{Where: where, Key: k.key, Msg: err.Error()})
		}
	}
	if o.Flags != nil {
		names := make([]string, 0, len(o.FlagKeys))
		for n := range o.FlagKeys {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			key := o.FlagKeys[n]
			f := o.Flags.Lookup(n)
			if f == nil {
				return nil, fmt.Errorf("config: no flag --%s for key %s", n, key)
			}
			if !f.Changed {
				continue
			}
			if err := v.BindPFlag(key, f); err != nil {
				return nil, fmt.Errorf("config: flag --%s: %w", n, err)
			}
			cfg.pinned[key], cfg.origins[key] = true, "flag --"+n
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := v.Unmarshal(cfg); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	// Arguments are named from the working directory, not from the config
	// file's folder, so they are made absolute; a folder is searched like
	// inputs.dirs.
	for _, a := range o.Args {
		p, err := filepath.Abs(a)
		if err != nil {
			return nil, fmt.Errorf("config: argument %q: %w", a, err)
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			cfg.Inputs.Dirs = append(cfg.Inputs.Dirs, p)
		} else {
			cfg.Inputs.Files = append(cfg.Inputs.Files, p)
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return cfg, nil
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

// walker checks a YAML node tree against the Config type: unknown keys,
// wrong shapes and scalars of the wrong type, each with its line.
type walker struct {
	file     string
	lines    map[string]int
	hasLines bool
	errs     []error
}

func (w *walker) at(n *yaml.Node) string {
	if w.hasLines && n.Line > 0 {
		return fmt.Sprintf("%s:%d", w.file, n.Line)
	}
	return w.file
}

func (w *walker) fail(n *yaml.Node, key, format string, a ...any) {
	w.errs = append(w.errs, &ConfigError{Where: w.at(n), Key: key, Msg: fmt.Sprintf(format, a...)})
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

func (w *walker) check(n *yaml.Node, t reflect.Type, path string) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if w.hasLines {
		if _, ok := w.lines[path]; !ok && path != "" {
			w.lines[path] = n.Line
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // an empty value leaves the default
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			w.fail(n, path, "want a mapping of keys, got %s", describe(n))
			return
		}
		fields := map[string]reflect.Type{}
		var names []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if tag == "" || tag == "-" || !f.IsExported() {
				continue
			}
			fields[tag] = f.Type
			names = append(names, tag)
		}
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			key := join(path, kn.Value)
			if seen[kn.Value] {
				w.fail(kn, key, "key given twice")
				continue
			}
			seen[kn.Value] = true
			ft, ok := fields[kn.Value]
			if !ok {
				w.fail(kn, key, "unknown key (known here: %s)", strings.Join(names, ", "))
				continue
			}
			if w.hasLines {
				w.lines[key] = kn.Line
			}
			w.check(vn, ft, key)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			w.fail(n, path, "want a mapping of names, got %s", describe(n))
			return
		}
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			key := join(path, kn.Value)
			if !validName(kn.Value) {
				w.fail(kn, key, "name %q must be lower-case letters, digits, '-' or '_' (keys are case-blind)", kn.Value)
				continue
			}
			if seen[kn.Value] {
				w.fail(kn, key, "name given twice")
				continue
			}
			seen[kn.Value] = true
			if w.hasLines {
				w.lines[key] = kn.Line
			}
			w.check(vn, t.Elem(), key)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			w.fail(n, path, "want a list, got %s", describe(n))
			return
		}
		for i, c := range n.Content {
			w.check(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
		}
	default:
		if n.Kind != yaml.ScalarNode {
			w.fail(n, path, "want %s, got %s", kindName(t.Kind()), describe(n))
			return
		}
		p := reflect.New(t)
		if err := n.Decode(p.Interface()); err != nil {
			w.fail(n, path, "want %s, got %q", kindName(t.Kind()), n.Value)
		}
	}
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	default:
		return strconv.Quote(n.Value)
	}
}

func kindName(k reflect.Kind) string {
	switch k {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	}
	return k.String()
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

type leaf struct {
	key  string
	kind reflect.Kind // element kind for slices
}

// leafKeys lists the keys with scalar or scalar-list values below structs,
// which are the keys environment variables and flags can set.
func leafKeys(t reflect.Type, prefix string) []leaf {
	var out []leaf
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
		if tag == "" || tag == "-" || !f.IsExported() {
			continue
		}
		key := join(prefix, tag)
		ft := f.Type
		switch ft.Kind() {
		case reflect.Struct:
			out = append(out, leafKeys(ft, key)...)
		case reflect.Map, reflect.Pointer:
			// named maps and optional blocks come from the file only
		case reflect.Slice:
			if ft.Elem().Kind() != reflect.Struct {
				out = append(out, leaf{key, ft.Elem().Kind()})
			}
		default:
			out = append(out, leaf{key, ft.Kind()})
		}
	}
	return out
}

func fieldByKey(v reflect.Value, key string) reflect.Value {
	for _, part := range strings.Split(key, ".") {
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0] == part {
				v = v.Field(i)
				break
			}
		}
	}
	return v
}

// checkScalarString checks an environment string against a key's kind; list
// keys take comma-separated values.
func checkScalarString(k reflect.Kind, s string) error {
	parts := []string{s}
	if strings.Contains(s, ",") {
		parts = strings.Split(s, ",")
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		var err error
		switch k {
		case reflect.Int:
			_, err = strconv.Atoi(p)
		case reflect.Float64:
			_, err = strconv.ParseFloat(p, 64)
		case reflect.Bool:
			_, err = strconv.ParseBool(p)
		}
		if err != nil {
			return fmt.Errorf("want %s, got %q", kindName(k), p)
		}
	}
	return nil
}
