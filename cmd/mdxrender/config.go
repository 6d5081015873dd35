package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/batchconfig"
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
	"yaws": func(s string) (map[string]any, error) {
		v, err := yawsValues(s)
		return map[string]any{"sheet.yaws": v}, err
	},
	"sequence": func(s string) (map[string]any, error) {
		sel, pattern := sequenceSelection(s)
		out := map[string]any{"sequences.select": string(sel)}
		if pattern != "" {
			out["sequences.pattern"] = pattern
		}
		return out, nil
	},
}

// loadConfig builds a batch from built-in defaults, the file, MDXR_
// environment variables and changed flags, in rising precedence, and
// validates it (batchconfig.Load). Every problem, of any layer, is
// returned together (a *batchconfig.Errors, which spells out the first
// batchconfig.MaxErrors), before any work starts.
func loadConfig(o configLayers) (*batch.Options, error) {
	var flags []batchconfig.Setting
	if o.Flags != nil {
		for _, n := range slices.Sorted(maps.Keys(o.FlagKeys)) {
			key := o.FlagKeys[n]
			f := o.Flags.Lookup(n)
			if f == nil {
				return nil, fmt.Errorf("config: no flag --%s for key %s", n, key)
			}
			if !f.Changed {
				continue
			}
			where := "flag --" + n
			vals, err := flagValues(o.Flags, f, key)
			if err != nil {
				flags = append(flags, batchconfig.Setting{Key: key, Where: where, Err: err})
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(vals)) {
				flags = append(flags, batchconfig.Setting{Key: k, Value: vals[k], Where: where})
			}
		}
	}
	c, err := batchconfig.Load(batchconfig.Layers{File: o.File, Env: os.LookupEnv, Flags: flags, Args: o.Args})
	if err != nil {
		return nil, flagProblems(err, o.File != "")
	}
	return c, nil
}

// flagProblems says the problems of a configuration that flags set in the
// flags' words ("--size: want 8 to 8192 ...", as sheet and render say
// it, not "flag --size: render.size: ..."). When every problem is a
// flag's, the error is a mistake on the command line (the usage line
// follows it), and so is a batch given no models without a file (the
// problem of no layer); a problem of the file or an MDXR_ variable is
// not one, and the usage line would not help with it.
func flagProblems(err error, file bool) error {
	all := &batchconfig.Errors{}
	if !errors.As(err, &all) {
		var ce *batchconfig.Error
		if errors.As(err, &ce) {
			all = &batchconfig.Errors{Errs: []error{ce}}
		} else {
			return usageError{err}
		}
	}
	out := &batchconfig.Errors{More: all.More}
	onlyFlags := all.More == 0
	for _, e := range all.Errs {
		var ce *batchconfig.Error
		name, isFlag := "", false
		if errors.As(e, &ce) {
			name, isFlag = strings.CutPrefix(ce.Where, "flag --")
			if !file && ce.Where == "" && ce.Key == "inputs" {
				out.Errs = append(out.Errs, errors.New("no models: give a model, folder or map, or a configuration file with -c"))
				continue
			}
		}
		if !isFlag {
			onlyFlags = false
			out.Errs = append(out.Errs, e)
			continue
		}
		out.Errs = append(out.Errs, flagError(name, errors.New(ce.Msg)))
	}
	if onlyFlags {
		return usageError{out}
	}
	return out
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
	return map[string]any{key: val}, err
}
