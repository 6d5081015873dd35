package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/pkg/mdx"
)

func newConvertCmd() *cobra.Command {
	var (
		overwriteInput bool
		lf             limitFlags
	)
	cmd := &cobra.Command{
		Use:   "convert IN OUT",
		Short: "Convert a model between MDX and MDL",
		Long: `Read a model (MDX or MDL; the input format is taken from its contents, not
its name) and write it as MDX or MDL according to OUT's extension (.mdx or
.mdl, any case; other extensions are refused).

OUT is replaced atomically: the model is written to a temporary file in
OUT's folder and renamed over OUT only when complete, so a failed run leaves
any previous OUT untouched and no partial file behind. An existing OUT is
overwritten, except when it is the input file itself (the same file, whatever
the path says): that needs --overwrite-input, because a rewrite in another
format, or in canonical form, replaces the original bytes.

An MDX written from an MDX decoded without changes is byte-identical to it.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			lim, err := lf.limits()
			if err != nil {
				return usageError{err}
			}
			return convertModel(args[0], args[1], overwriteInput, lim)
		},
	}
	cmd.Flags().BoolVar(&overwriteInput, "overwrite-input", false, "allow OUT to be the input file itself")
	lf.register(cmd.Flags(), "convert")
	return cmd
}

// outputFormat picks the output format from the file name's extension.
func outputFormat(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".mdx":
		return "mdx", nil
	case ".mdl":
		return "mdl", nil
	case "":
		return "", fmt.Errorf("%s: no extension; the output must end in .mdx or .mdl", path)
	default:
		return "", fmt.Errorf("%s: unknown output extension %q; the output must end in .mdx or .mdl", path, ext)
	}
}

func convertModel(in, out string, overwriteInput bool, lim mdxrender.Limits) error {
	format, err := outputFormat(out)
	if err != nil {
		return usageError{err} // as render refuses a name it cannot write
	}
	if !overwriteInput {
		// os.SameFile sees through different spellings, symbolic links and
		// hard links of the same file.
		if fi, err := os.Stat(in); err == nil {
			if fo, err := os.Stat(out); err == nil && os.SameFile(fi, fo) {
				return fmt.Errorf("%s: output is the input file; pass --overwrite-input to replace it", out)
			}
		}
	}
	f, err := loadFile(in, lim)
	if err != nil {
		return err
	}
	// Encode before touching OUT, so that a model the output format cannot
	// hold is reported against the file it came from.
	var buf bytes.Buffer
	switch format {
	case "mdx":
		err = mdx.Encode(&buf, f.Model)
	case "mdl":
		err = mdx.EncodeMDL(&buf, f.Model)
	}
	b := buf.Bytes()
	if err != nil {
		return fmt.Errorf("%s: cannot be written as %s (%s): %w", in, strings.ToUpper(format), out, err)
	}
	// Replaced whole: a failed run leaves any previous file untouched and
	// no partial file behind. The error names OUT.
	return atomicfile.WriteNamed(context.Background(), out, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
