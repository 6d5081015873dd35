package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/pkg/inspect"
	"github.com/mdxrender/mdxrender/pkg/model"
)

func newInspectCmd() *cobra.Command {
	var (
		asJSON bool
		lf     limitFlags
	)
	cmd := &cobra.Command{
		Use:   "inspect FILE...",
		Short: "Summarise MDX/MDL/M2 models: sequences, textures, materials, node tree",
		Long: `Print what is in each model file: format and version, counts, sequences
(interval, length, looping), global sequences, textures (with replaceable
ids), materials and their layers (filter mode, flags, texture), geosets, the
node hierarchy as a tree, and the extent. The format is taken from the file's
contents, not its name. World of Warcraft files (MDX 1300-1500, M2 256-263)
add their sequence fields (frequency, replay, blend time) and geoset
selection groups; an M2 is shown as the WoW MDX v1500 model it is drawn as,
plus an "m2" object (JSON) or lines (text) with its own version, the view
drawn, its emitters, and what is not drawn (lights, attachments).

FILE may name a model inside an archive (map.w3x:war3mapImported/Hero.mdx);
a map (.w3x, .w3m) or an .mpq stands for every model in it.

A file that cannot be read is reported on stderr (naming the file) and the
others are still inspected; the exit status is 1 if any file failed.

With --json the output is one JSON array with one object per FILE argument,
in argument order. A file that failed has only "file" and "error". The keys of
"counts" are those of the reference parser's peer-parse.jsonl (geosets,
vertices, faces, bones, ...) plus a few it does not have (popcorn_emitters,
face_effects, bind_poses, sound_tracks, unknown_chunks, nodes). Floats that
are not finite are written as the strings "NaN", "+Inf" and "-Inf". Keys are
only ever added, never renamed.`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lim, err := lf.limits()
			if err != nil {
				return usageError{err}
			}
			failed := 0
			reports := []any{}
			out := cmd.OutOrStdout()
			var paths []string
			for _, a := range args {
				if mdxrender.IsArchive(a) && isFile(a) {
					// a map or an MPQ stands for every model in it
					ms, err := mdxrender.ArchiveModels(a)
					if err != nil {
						failed++
						printf(cmd.ErrOrStderr(), "mdxrender: inspect: %s\n", describe(err))
						if asJSON {
							reports = append(reports, inspect.Failure{File: a, Error: err.Error()})
						}
					}
					paths = append(paths, ms...)
					continue
				}
				paths = append(paths, a)
			}
			for i, path := range paths {
				f, err := loadFile(path, lim)
				if err != nil {
					err = limitHint(err)
					failed++
					printf(cmd.ErrOrStderr(), "mdxrender: inspect: %s\n", describe(err))
					if asJSON {
						reports = append(reports, inspect.Failure{File: path, Error: err.Error()})
					}
					continue
				}
				r := inspect.Build(f, path)
				if asJSON {
					reports = append(reports, r)
					continue
				}
				if i > 0 {
					fmt.Fprintln(out)
				}
				if err := r.WriteText(out); err != nil {
					return err
				}
			}
			if asJSON {
				b, err := json.MarshalIndent(reports, "", "  ")
				if err != nil {
					return err
				}
				if _, err := out.Write(append(b, '\n')); err != nil {
					return err
				}
			}
			if failed > 0 {
				return exitCodeError{code: 1}
			}
			return nil
		},
	}
	addShared(cmd.Flags(), "inspect", "json", &asJSON)
	lf.register(cmd.Flags(), "inspect")
	return cmd
}

// isFile reports whether path names a regular file (an unpacked map is a
// folder named .w3x).
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// loadFile reads and decodes a model file (MDX, MDL or M2, detected by
// content) on disk or inside an archive ("map.w3x:path/inside"), through
// the front door, within lim. Errors name the file.
func loadFile(path string, lim mdxrender.Limits) (*model.File, error) {
	m, err := mdxrender.Open(path, &mdxrender.Options{Limits: lim})
	if err != nil {
		return nil, limitHint(err)
	}
	m.Close() // the decoded file needs no more of an archive
	return m.File, nil
}
