package main

import (
	"encoding"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/batch"
)

// configLayers are what a batch configuration is built from, above the
// built-in defaults.
type configLayers struct {
	// File is the configuration file; "" means defaults, env and flags only.
	// Paths in it are relative to its folder.
	File string
	// Flags, if set, is the command's flag set; FlagKeys maps a flag name to
	// the key it sets (e.g. "size" -> "render.size"). Only flags the user
	// changed take part, so a flag's own default never hides the file.
	// Paths given by flags are relative to the working directory.
	Flags    *pflag.FlagSet
	FlagKeys map[string]string
	// Args are extra model paths (command-line arguments) relative to the
	// working directory: files are added to Inputs.Files, folders to
	// Inputs.Dirs.
	Args []string
}

// pathKeys are the keys whose values are paths. In the file they are
// relative to the file's folder; from a flag or an environment variable,
// like every path on a command line, to the working directory.
var pathKeys = map[string]bool{
	"inputs.files": true, "inputs.dirs": true, "inputs.globs": true, "inputs.list": true,
	"texture_roots": true, "game_data": true, "output.dir": true, "check.golden": true,
}

// flagParsers read the flags whose text is not the key's value as it is:
// they return the keys they set and their values.
var flagParsers = map[string]func(string) (map[string]any, error){
	"size": func(s string) (map[string]any, error) {
		w, h, err := forms.Size(s)
		return map[string]any{"render.size": forms.SizeString(w, h)}, err
	},
	"step-ms": func(s string) (map[string]any, error) {
		v, err := forms.StepMs(s)
		return map[string]any{"render.step_ms": v}, err
	},
	"preroll-ms": func(s string) (map[string]any, error) {
		v, err := forms.PrerollMs(s)
		return map[string]any{"render.preroll_ms": v}, err
	},
	"sequence": func(s string) (map[string]any, error) {
		sel := sequenceSelection(s)
		out := map[string]any{"sequences.select": sel.Select}
		if sel.Pattern != "" {
			out["sequences.pattern"] = sel.Pattern
		}
		return out, nil
	},
}

// loadConfig builds a batch configuration from built-in defaults, the file,
// MDXR_ environment variables and changed flags, in rising precedence, and
// validates it. Every problem, of any layer, is returned together (a
// *batch.ConfigErrors, which spells out the first batch.MaxConfigErrors),
// before any work starts.
func loadConfig(o configLayers) (*batch.Config, error) {
	var errs batch.ConfigErrors
	var file *batch.ConfigFile
	if o.File != "" {
		var err error
		if file, err = batch.ReadConfigFile(o.File); err != nil {
			if file == nil {
				return nil, usageError{err}
			}
			errs.Add(err) // the rest of the file is still checked
		}
	}

	v := viper.New()
	keys := batch.ConfigKeys()
	def := batch.DefaultConfig()
	for _, k := range keys {
		v.SetDefault(k.Name, k.Value(&def))
	}
	cfg := &batch.Config{File: o.File}
	if file != nil {
		if file.Values != nil {
			if err := v.MergeConfigMap(file.Values); err != nil {
				return nil, usageError{fmt.Errorf("config: %s: %w", o.File, err)}
			}
		}
		for k, where := range file.Origins {
			cfg.SetOrigin(k, where)
		}
	}
	// Environment values are strings; each is checked against its key's
	// type here, so that the error names the variable, and only good ones
	// are set.
	for _, k := range keys {
		name := batch.EnvName(k.Name)
		s, ok := os.LookupEnv(name)
		if !ok {
			continue
		}
		where := "env " + name
		cfg.Pin(k.Name, where)
		if err := k.CheckString(s); err != nil {
			errs.Add(&batch.ConfigError{Where: where, Key: k.Name, Msg: err.Error()})
			continue
		}
		val := any(s)
		if pathKeys[k.Name] {
			p, err := envPaths(k.Name, s)
			if err != nil {
				errs.Add(&batch.ConfigError{Where: where, Key: k.Name, Msg: err.Error()})
				continue
			}
			val = p
		}
		v.Set(k.Name, val)
	}
	if o.Flags != nil {
		names := slices.Sorted(maps.Keys(o.FlagKeys))
		for _, n := range names {
			key := o.FlagKeys[n]
			f := o.Flags.Lookup(n)
			if f == nil {
				return nil, fmt.Errorf("config: no flag --%s for key %s", n, key)
			}
			if !f.Changed {
				continue
			}
			vals, err := flagValues(o.Flags, f, key)
			if err != nil {
				errs.Add(&batch.ConfigError{Where: "flag --" + n, Key: key, Msg: err.Error()})
				continue
			}
			for k, val := range vals {
				v.Set(k, val)
				cfg.Pin(k, "flag --"+n)
			}
		}
	}
	hook := viper.DecodeHook(mapstructure.ComposeDecodeHookFunc(textValueHook,
		mapstructure.StringToTimeDurationHookFunc(), mapstructure.StringToSliceHookFunc(",")))
	if err := v.Unmarshal(cfg, hook); err != nil {
		errs.Add(fmt.Errorf("config: %w", err))
		return nil, usageError{&errs}
	}
	// Arguments are named from the working directory, not from the config
	// file's folder, so they are made absolute; a folder is searched like
	// inputs.dirs.
	for _, a := range o.Args {
		p, err := filepath.Abs(a)
		if err != nil {
			return nil, fmt.Errorf("config: argument %s: %w", clip.Quote(a), err)
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			cfg.Inputs.Dirs = append(cfg.Inputs.Dirs, p)
		} else {
			cfg.Inputs.Files = append(cfg.Inputs.Files, p)
		}
	}
	if err := cfg.Validate(); err != nil {
		errs.Add(notReported(errs.Errs, err))
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// flagValues returns the keys a changed flag sets and their values.
func flagValues(fs *pflag.FlagSet, f *pflag.Flag, key string) (map[string]any, error) {
	if p := flagParsers[f.Name]; p != nil {
		return p(f.Value.String())
	}
	var val any
	var err error
	switch f.Value.Type() {
	case "int":
		val, err = fs.GetInt(f.Name)
	case "uint32":
		var u uint32
		u, err = fs.GetUint32(f.Name)
		val = int(u)
	case "float64":
		val, err = fs.GetFloat64(f.Name)
	case "bool":
		val, err = fs.GetBool(f.Name)
	case "stringSlice":
		val, err = fs.GetStringSlice(f.Name)
	case "stringArray":
		val, err = fs.GetStringArray(f.Name)
	case "float64Slice":
		val, err = fs.GetFloat64Slice(f.Name)
	default:
		val = f.Value.String()
	}
	if err != nil {
		return nil, err
	}
	if pathKeys[key] {
		switch p := val.(type) {
		case string:
			val, err = filepath.Abs(p)
		case []string:
			val, err = absPaths(p)
		}
	}
	return map[string]any{key: val}, err
}

// envPaths makes the paths of an environment variable absolute (lists are
// comma-separated there).
func envPaths(key, s string) (any, error) {
	if key == "inputs.list" || key == "output.dir" || key == "check.golden" || key == "game_data" {
		return filepath.Abs(s)
	}
	var ps []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			ps = append(ps, p)
		}
	}
	return absPaths(ps)
}

var textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()

// textValueHook decodes values of types that read themselves from text
// (batch.Size) from the strings and numbers the layers hold.
func textValueHook(from, to reflect.Type, data any) (any, error) {
	if to.Kind() != reflect.Struct || !reflect.PointerTo(to).Implements(textUnmarshalerType) || from == to {
		return data, nil
	}
	switch from.Kind() {
	case reflect.String, reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Float64:
	default:
		return data, nil
	}
	p := reflect.New(to)
	if err := p.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(fmt.Sprint(data))); err != nil {
		return nil, err
	}
	return p.Elem().Interface(), nil
}

// notReported returns the problems of err (a *batch.ConfigErrors) that
// are not about a key already reported, or one inside or around it: a key
// in error was left at its default, and its default must not be blamed in
// a second message. The problems err only counts stay counted.
func notReported(reported []error, err error) error {
	var keys []string
	for _, e := range flatten(reported) {
		var ce *batch.ConfigError
		if errors.As(e, &ce) && ce.Key != "" {
			keys = append(keys, ce.Key)
		}
	}
	related := func(a, b string) bool {
		return a == b || strings.HasPrefix(a, b+".") || strings.HasPrefix(a, b+"[") ||
			strings.HasPrefix(b, a+".") || strings.HasPrefix(b, a+"[")
	}
	var out batch.ConfigErrors
	if ces, ok := err.(*batch.ConfigErrors); ok {
		out.More = ces.More
	}
next:
	for _, e := range flatten([]error{err}) {
		var ce *batch.ConfigError
		if errors.As(e, &ce) {
			for _, k := range keys {
				if related(ce.Key, k) {
					continue next
				}
			}
		}
		out.Add(e)
	}
	return out.Err()
}

// flatten unpacks joined errors.
func flatten(errs []error) []error {
	var out []error
	for _, e := range errs {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			out = append(out, flatten(j.Unwrap())...)
			continue
		}
		out = append(out, e)
	}
	return out
}
