// Command mdxrender renders Blizzard model files (Warcraft III MDX/MDL,
// early-WoW MDX, M2) to images on the CPU, and inspects and converts them.
package main

import (
	"errors"
	"fmt"
	"os"
)

func main() {
	if err := newRootCmd().Execute(); err != nil {
		var ec exitCodeError
		if errors.As(err, &ec) {
			os.Exit(ec.code)
		}
		fmt.Fprintln(os.Stderr, "mdxrender:", err)
		os.Exit(1)
	}
}

// exitCodeError carries a specific exit status out of a command whose
// diagnostics have already been printed.
type exitCodeError struct{ code int }

func (e exitCodeError) Error() string { return fmt.Sprintf("exit status %d", e.code) }
