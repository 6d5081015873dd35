package main

import (
	"io"

	"github.com/mdxrender/mdxrender/pkg/render"
)

// missingHint is what a missing-texture warning tells the user to pass.
const missingHint = "give the folder or map that holds it with --textures DIR, or the game's files with --game-data DIR"

// printWarning prints one warning about model on one line, its code
// first; a missing texture says how to supply it, and with verbose the
// files looked for follow, one an indented line.
func printWarning(w io.Writer, model string, warn render.Warning, verbose bool) {
	msg := warn.Message
	if warn.Code == render.MissingTexture {
		msg += " (" + missingHint + ")"
	}
	printf(w, "mdxrender: warning: %s: %s: %s\n", model, warn.Code, msg)
	if verbose {
		for _, p := range warn.Searched {
			printf(w, "mdxrender:   looked for %s\n", p)
		}
	}
}
