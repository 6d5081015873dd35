package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// configLayers are what a batch configuration is built from, above the
// built-in defaults.
type configLayers struct {
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

// loadConfig builds a batch configuration from built-in defaults, the file,
// MDXR_ environment variables and changed flags, in rising precedence, and
// validates it. All problems are returned together (errors.Join of
// *batch.ConfigError), before any work starts.
func loadConfig(o configLayers) (*batch.Config, error) {
	var file *batch.ConfigFile
	if o.File != "" {
		data, err := os.ReadFile(o.File)
		if err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
		if file, err = batch.DecodeConfigFile(o.File, data); err != nil {
			return nil, err
		}
	}

	v := viper.New()
	v.SetEnvPrefix(batch.EnvPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	v.AutomaticEnv()
	keys := batch.ConfigKeys()
	def := batch.DefaultConfig()
	for _, k := range keys {
		v.SetDefault(k.Name, k.Value(&def))
	}
	cfg := &batch.Config{File: o.File}
	if file != nil {
		if file.Values != nil {
			if err := v.MergeConfigMap(file.Values); err != nil {
				return nil, fmt.Errorf("config: %s: %w", o.File, err)
			}
		}
		for k, where := range file.Origins {
			cfg.SetOrigin(k, where)
		}
	}
	// Environment values are strings; check them against the key's type
	// here so the error names the variable, not a decoder internal.
	var errs []error
	for _, k := range keys {
		name := batch.EnvName(k.Name)
		s, ok := os.LookupEnv(name)
		if !ok {
			continue
		}
		where := "env " + name
		cfg.Pin(k.Name, where)
		if err := k.CheckString(s); err != nil {
			errs = append(errs, &batch.ConfigError{Where: where, Key: k.Name, Msg: err.Error()})
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
			cfg.Pin(key, "flag --"+n)
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
