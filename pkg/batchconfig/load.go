package batchconfig

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/forms"
	"github.com/mdxrender/mdxrender/pkg/batch"

	"github.com/spf13/viper"
)

// Layers are what a batch is built from above the built-in defaults
// (Default), in rising precedence: a configuration file, MDXR_
// environment variables, the command line's flags and arguments.
type Layers struct {
	// File is the configuration file; "" means defaults, variables and
	// flags only. Paths in it are relative to its folder.
	File string
	// Env looks up an environment variable (os.LookupEnv); nil reads
	// none. Paths in variables are relative to the working directory.
	Env func(name string) (string, bool)
	// Flags are the values the command line gives. Paths given by flags
	// are relative to the working directory.
	Flags []Setting
	// Args are model paths (the command's arguments) relative to the
	// working directory: files are added to inputs.files, folders to
	// inputs.dirs.
	Args []string
}

// Setting is a key's value from the command line, which beats the file's
// and the variables' — and the file's per-model overrides of the key.
type Setting struct {
	// Key is the key, as in the file: "render.size".
	Key string
	// Value is a value of the key's type or one that converts to it
	// (another integer type, a number for a float, text for a size).
	Value any
	// Where names the setting in messages: "flag --size".
	Where string
	// Err, when not nil, is why the flag's text gave no value; it is
	// reported with the other problems.
	Err error
}

// pathKeys are the keys whose values are paths. In the file they are
// relative to the file's folder; from a flag or an environment variable,
// like every path on a command line, to the working directory.
var pathKeys = map[string]bool{
	"inputs.files": true, "inputs.dirs": true, "inputs.globs": true, "inputs.list": true,
	"texture_roots": true, "game_data": true, "output.dir": true, "check.golden": true,
	"icons.bg_image": true,
}

// Load builds a batch from the built-in defaults, the file, the MDXR_
// variables, the flags and the arguments, in rising precedence, reads
// its text forms and validates it. Every problem, of any layer, is
// returned together, as an *Errors (which spells out the first MaxErrors)
// of *Error values naming the key and where its value came from; a file
// that cannot be read at all gives that error alone. Without a shard
// set, the shard comes from JOB_COMPLETION_INDEX and MDXR_SHARD_COUNT
// (ShardFromEnv).
func Load(l Layers) (*batch.Options, error) {
	var errs Errors
	st := &layers{file: l.File, origins: map[string]string{}, pinned: map[string]bool{}}
	keys := Keys()
	// A viper of its own for each load: the package-level one would carry
	// one load's values into the next.
	v := viper.New()
	def := Default()
	for _, k := range keys {
		v.SetDefault(k.Name, entry{value: k.get(&def)})
	}
	c := Default()
	if l.File != "" {
		f, err := ReadFile(l.File)
		if err != nil {
			if f == nil {
				return nil, err
			}
			errs.Add(err) // the rest of the file is still checked
		}
		// Named views and overrides have no other layer: they are taken
		// from the file as decoded, and only the keys that variables and
		// flags can set go through viper.
		if err := f.Apply(&c); err != nil {
			return nil, fmt.Errorf("config: %s: %w", l.File, err)
		}
		maps.Copy(st.origins, f.Origins)
		m := map[string]any{}
		for _, k := range keys {
			if where, ok := f.Origins[k.Name]; ok {
				put(m, k.Name, entry{value: k.get(&c), where: where})
			}
		}
		if err := v.MergeConfigMap(m); err != nil {
			return nil, fmt.Errorf("config: %s: %w", l.File, err)
		}
	}
	if l.Env != nil {
		// viper's own variable layer reads the process's environment
		// only, and Layers.Env may be another: the variables are merged
		// into viper's configuration after the file, which they beat
		// there.
		if err := v.MergeConfigMap(envLayer(l.Env, keys, &errs)); err != nil {
			return nil, fmt.Errorf("config: environment: %w", err)
		}
	}
	// The command line's settings are viper's overrides, its top layer.
	for _, s := range l.Flags {
		k, ok := lookupKey(s.Key)
		if !ok {
			return nil, fmt.Errorf("config: %s sets %s, which is not a key", s.Where, s.Key)
		}
		val, err := s.Value, s.Err
		if err == nil && pathKeys[k.Name] {
			val, err = absValue(val)
		}
		if err == nil {
			val, err = k.convert(val)
		}
		if err != nil {
			errs.Add(&Error{Where: s.Where, Key: s.Key, Msg: err.Error()})
			continue
		}
		v.Set(k.Name, entry{value: val, where: s.Where, aboveFile: true})
	}
	// viper has picked each key's value; the one picked is set, with where
	// it came from.
	for _, k := range keys {
		e, ok := v.Get(k.Name).(entry)
		if !ok {
			panic("batchconfig: viper lost the value of " + k.Name) // every key has a default
		}
		if err := k.set(&c, e.value); err != nil {
			errs.Add(&Error{Where: e.where, Key: k.Name, Msg: err.Error()})
			continue
		}
		if e.aboveFile {
			st.pin(k.Name, e.where)
		}
	}
	// Arguments are named from the working directory, not from the config
	// file's folder, so they are made absolute; a folder is searched like
	// inputs.dirs.
	for _, a := range l.Args {
		p, err := filepath.Abs(a)
		if err != nil {
			return nil, fmt.Errorf("config: argument %s: %w", clip.Quote(a), err)
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			c.Inputs.Dirs = append(c.Inputs.Dirs, p)
		} else {
			c.Inputs.Files = append(c.Inputs.Files, p)
		}
	}
	o := st.options(&c, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	st.applyPins(o)
	if o.Shard.Count == 0 && l.Env != nil {
		sh, ok, err := ShardFromEnv(l.Env)
		if err != nil {
			return nil, err
		}
		if ok {
			o.Shard = sh
		}
	}
	return o, nil
}

// entry is a key's value in one of viper's layers, with where it came
// from, so that the value viper picks can be blamed on its source.
type entry struct {
	// value has the type of the key's Config field.
	value any
	// where is "file:line", "env NAME" or "flag --name"; "" for a
	// built-in default.
	where string
	// aboveFile is set for a variable's or a flag's value, which the
	// file's per-model overrides must leave alone.
	aboveFile bool
}

// put sets a dotted key in the nested maps viper's MergeConfigMap takes.
func put(m map[string]any, key string, e entry) {
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		sub, ok := m[p].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[p] = sub
		}
		m = sub
	}
	m[parts[len(parts)-1]] = e
}

// envLayer reads the keys' MDXR_ variables with lookup, as nested maps of
// entries for viper. Each value is checked against its key's type as it
// is read, so that the error names the variable, also when a flag beats
// it, and only good ones are returned.
func envLayer(lookup func(string) (string, bool), keys []Key, errs *Errors) map[string]any {
	m := map[string]any{}
	for _, k := range keys {
		name := EnvName(k.Name)
		s, ok := lookup(name)
		if !ok {
			continue
		}
		where := "env " + name
		val, err := k.parse(s)
		if err == nil && pathKeys[k.Name] {
			val, err = envPaths(k.Name, s)
		}
		if err == nil {
			val, err = k.convert(val)
		}
		if err != nil {
			errs.Add(&Error{Where: where, Key: k.Name, Msg: err.Error()})
			continue
		}
		put(m, k.Name, entry{value: val, where: where, aboveFile: true})
	}
	return m
}

// options converts c, reading its text forms, and validates the result,
// adding the problems not reported yet to errs.
func (l *layers) options(c *Config, errs *Errors) *batch.Options {
	base := ""
	if l.file != "" {
		base = filepath.Dir(l.file)
	}
	var problems []error
	o := convert(c, base, func(key string, err error) {
		problems = append(problems, &Error{Where: l.where(key), Key: key, Msg: err.Error()})
	})
	// The values whose text does not read, and those out of range, in
	// the order of the options.
	problems = append(problems, flatten([]error{located(o.Validate(), l.where)})...)
	slices.SortStableFunc(problems, func(a, b error) int { return compareKeys(keyOf(a), keyOf(b)) })
	errs.Add(notReported(errs.Errs, errors.Join(problems...)))
	return o
}

// Check validates options built otherwise than by Load (a command's flags)
// as Load validates them: the problems are an *Errors of *Error values,
// each naming where(key) as where its value came from.
func Check(o *batch.Options, where func(key string) string) error {
	var errs Errors
	errs.Add(located(o.Validate(), where))
	return errs.Err()
}

// located turns the *batch.OptionError problems of err into *Error values
// that say where each value came from.
func located(err error, where func(key string) string) error {
	var out Errors
	for _, e := range flatten([]error{err}) {
		var oe *batch.OptionError
		if errors.As(e, &oe) {
			e = &Error{Where: where(oe.Key), Key: oe.Key, Msg: oe.Msg}
		}
		out.Add(e)
	}
	return out.Err()
}

// layers is what Load knows of where the values came from.
type layers struct {
	file string
	// origins maps keys (dotted, as in the file: "render.size",
	// "overrides[0].match") to where their value came from: "file:line",
	// "env NAME" or "flag --name".
	origins map[string]string
	// pinned holds the keys set by a variable or a flag: the file's
	// per-model overrides leave those alone, as the command line beats
	// the file everywhere.
	pinned map[string]bool
}

// pin records that a variable or a flag set key. The file's lines for
// the elements of a list it replaced are forgotten: a problem with an
// element is the variable's or the flag's.
func (l *layers) pin(key, where string) {
	l.pinned[key] = true
	l.origins[key] = where
	for k := range l.origins {
		if strings.HasPrefix(k, key+"[") {
			delete(l.origins, k)
		}
	}
}

// where returns the origin of a key's value for error messages: its own,
// its parent's, or the file's; "" when there is no file (the message then
// says "config:").
func (l *layers) where(key string) string {
	for k := key; k != ""; {
		if w, ok := l.origins[k]; ok {
			return w
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return l.file
}

// applyPins takes out of the overrides what a variable or a flag set: the
// command line beats the file's per-model overrides as it beats the file.
// A team colour given above the file replaces the file's list of them.
func (l *layers) applyPins(o *batch.Options) {
	pinned := func(key string) bool { return l.pinned["render."+key] }
	team := l.pinned["render.team_color"] && !l.pinned["team_colors"]
	if team {
		o.Teams = nil
	}
	for i := range o.Overrides {
		ov := &o.Overrides[i]
		p := &ov.Render
		unset(&p.Size, pinned("size"))
		unset(&p.SSAA, pinned("ssaa"))
		unset(&p.Background, pinned("background"))
		unset(&p.Yaw, pinned("yaw"))
		unset(&p.Pitch, pinned("pitch"))
		unset(&p.Camera, pinned("camera"))
		unset(&p.Team, pinned("team_color"))
		unset(&p.Time, pinned("time"))
		unset(&p.Particles, pinned("particles"))
		unset(&p.Seed, pinned("seed"))
		unset(&p.StepMs, pinned("step_ms"))
		unset(&p.PrerollMs, pinned("preroll_ms"))
		unset(&p.Margin, pinned("margin"))
		unset(&p.Zoom, pinned("zoom"))
		unset(&ov.Sequences, l.pinned["sequences.select"] || l.pinned["sequences.pattern"])
		if team || l.pinned["team_colors"] {
			ov.Teams = nil
		}
	}
}

// unset sets *p to nil when pinned.
func unset[T any](p **T, pinned bool) {
	if pinned {
		*p = nil
	}
}

// ShardCountEnv names the variable holding the shard count for a
// Kubernetes Indexed Job, which sets JOB_COMPLETION_INDEX but not the
// count.
const ShardCountEnv = "MDXR_SHARD_COUNT"

// ShardFromEnv returns the shard given by JOB_COMPLETION_INDEX and
// MDXR_SHARD_COUNT, ok=false if either is unset.
func ShardFromEnv(lookup func(string) (string, bool)) (batch.Shard, bool, error) {
	i, ok1 := lookup("JOB_COMPLETION_INDEX")
	n, ok2 := lookup(ShardCountEnv)
	if !ok1 || !ok2 {
		return batch.Shard{}, false, nil
	}
	si, sn, err := forms.Shard(i + "/" + n)
	if err != nil {
		return batch.Shard{}, false, fmt.Errorf("JOB_COMPLETION_INDEX=%s %s=%s: %w", i, ShardCountEnv, n, err)
	}
	return batch.Shard{Index: si, Count: sn}, true, nil
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

// absValue makes a path, or a list of them, absolute.
func absValue(v any) (any, error) {
	switch p := v.(type) {
	case string:
		return filepath.Abs(p)
	case []string:
		return absPaths(p)
	}
	return v, nil
}

func absPaths(ps []string) ([]string, error) {
	out := make([]string, len(ps))
	for i, p := range ps {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// notReported returns the problems of err (an *Errors, or errors joined)
// that are not about a key already reported, or one inside or around it:
// a key in error was left at its default, and its default must not be
// blamed in a second message. The problems err only counts stay counted.
func notReported(reported []error, err error) error {
	if err == nil {
		return nil
	}
	var keys []string
	for _, e := range flatten(reported) {
		var ce *Error
		if errors.As(e, &ce) && ce.Key != "" {
			keys = append(keys, ce.Key)
		}
	}
	related := func(a, b string) bool {
		return a == b || strings.HasPrefix(a, b+".") || strings.HasPrefix(a, b+"[") ||
			strings.HasPrefix(b, a+".") || strings.HasPrefix(b, a+"[")
	}
	var out Errors
	if ces, ok := err.(*Errors); ok {
		out.More = ces.More
	}
next:
	for _, e := range flatten([]error{err}) {
		var ce *Error
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
		if e == nil {
			continue
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			out = append(out, flatten(j.Unwrap())...)
			continue
		}
		out = append(out, e)
	}
	return out
}
