package main

import (
	"github.com/spf13/cobra"
)

// version is overridden at link time (-ldflags "-X main.version=...") by release builds.
var version = "dev"

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "mdxrender",
		Short:         "Render, inspect and convert Blizzard model files without a GPU",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// Each subcommand lives in its own file and is registered here, so the
	// command tree is visible in one place.
	root.AddCommand(
		// subcommands
		newTextureCmd(),
		newInspectCmd(),
		newConvertCmd(),
		newRenderCmd(),
		newBatchCmd(),
		newCheckCmd(),
		newSheetCmd(),
		newMergeCmd(),
		newDemoCmd(),
		newArchiveCmd(),
	)
	return root
}
