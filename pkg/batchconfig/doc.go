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
// The layering is done here, over Config, rather than with viper, which
// the command line once used: viper merges maps and decodes them with
// mapstructure, a second schema beside the tags, and knows neither the
// lines of a file's keys nor bounds on what a file may cost, so every
// file:line message and every cap was this package's already. Flags reach
// Load as Settings (pflag reads them); what viper still did was a map
// merge, which setting the fields of one struct does without it.
package batchconfig
