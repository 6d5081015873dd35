package main

import (
	"io"
	"strings"

	"github.com/mdxrender/mdxrender/pkg/batch"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// missingHint is what a missing-texture warning tells the user to pass.
const missingHint = "pass its folder or map with --textures DIR, or the game's files with --game-data DIR"

// Every command prints a warning the same way, one line however long
// (printf clips it, it is never wrapped): "mdxrender: warning: FILE:
// CODE: message". The files a missing texture was looked for in follow
// only with --verbose.

// printWarning prints one warning about model on one line, its code
// first; a missing texture says how to supply it, and with verbose the
// files looked for follow, one an indented line.
func printWarning(w io.Writer, model string, warn render.Warning, verbose bool) {
	msg := warn.Message
	if warn.Code == render.MissingTexture {
		msg += " (" + missingHint + ")"
	}
	if model == "" {
		printf(w, "mdxrender: warning: %s: %s\n", warn.Code, msg)
	} else {
		printf(w, "mdxrender: warning: %s: %s: %s\n", model, warn.Code, msg)
	}
	if verbose {
		for _, p := range warn.Searched {
			printf(w, "mdxrender:   looked for %s\n", p)
		}
	}
}

// maxWarningLines is how many warnings a batch prints without --verbose;
// its manifest lists them all.
const maxWarningLines = 20

// batchWarnings prints the warnings of a batch's models as they are read
// back from its manifest, the first maxWarningLines of them unless
// verbose, then how many more there are.
type batchWarnings struct {
	w       io.Writer
	verbose bool
	n       int
}

func (b *batchWarnings) model(res *batch.ModelResult) {
	for _, warn := range res.Warnings {
		if b.n < maxWarningLines || b.verbose {
			printWarning(b.w, res.Input, warn, b.verbose)
		}
		b.n++
	}
}

// finish says how many warnings were not printed and where they are.
func (b *batchWarnings) finish(manifest string) {
	if b.n > maxWarningLines && !b.verbose {
		printf(b.w, "mdxrender: %d more warnings (%s lists them all; --verbose prints them)\n", b.n-maxWarningLines, manifest)
	}
}

// SkippedInput is the code of the warning that an entry of an input
// folder was not taken (a FIFO, a link back up, a duplicate name).
const SkippedInput render.WarningCode = "skipped-input"

// printSkipped prints a batch's note about an input it left out
// ("path: why; skipped") as a warning about that input.
func printSkipped(w io.Writer, note string) {
	file, msg, ok := strings.Cut(note, ": ")
	if !ok {
		file, msg = "", note
	}
	printWarning(w, file, render.Warning{Code: SkippedInput, Message: msg}, false)
}
