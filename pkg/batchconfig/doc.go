// Package batchconfig reads batch configurations: YAML, TOML and JSON
// files, MDXR_ environment variables and the command line's settings,
// layered in that order of precedence over the built-in defaults, into
// the values pkg/batch runs on (Load).
//
// Config is the file form, and the one schema: its fields' yaml tags name
// the keys of files, of variables (EnvName) and of flags' settings alike,
// and the same struct checks a file's keys, types and shapes. A file is
// refused before a parser builds anything when it is too large, not text
// or nested too deep (MaxSize, MaxDepth, MaxKeys, MaxEntries); every
// problem names the file and line, or the variable or flag, and the key;
// the first MaxErrors are spelled out and the rest counted. The text forms
// (a time "50%", a colour "#102030", a team "blue", a shard "1/4") are read
// by internal/forms, the readers of the command line's flags too, and the
// values' ranges checked by batch.Options.Validate.
//
// viper, the command line's configuration library, decides which
// layer's value each key takes: Load gives a viper of its own (never the
// package-level one) the defaults (SetDefault), the file's keys and then
// the variables' (MergeConfigMap, the later merge winning) and the
// command line's settings (Set, its top layer), and takes for each key
// the value viper picks. What viper is given is read and checked here
// first, each value carrying where it came from. viper never opens the
// file: its readers know neither the lines of a file's keys nor bounds on
// what a file may cost, and the caps and every file:line message are this
// package's. It decodes nothing, as mapstructure would be a second schema
// beside the tags. Its own variable layer is not used either, because it
// reads the process's environment only, where Layers.Env may be any
// lookup. So reading, checking, blaming a bad value on its file line,
// variable or flag, making paths absolute by their layer and keeping the
// file's per-model overrides off the keys set above the file are done
// here; the precedence is viper's. viper is imported here alone (the
// command line uses it through Load): pkg/batch and the library take
// values, not configuration.
package batchconfig
