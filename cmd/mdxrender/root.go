package main

import (
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/mdxrender/mdxrender/pkg/batch"
)

// ldflagsVersion, when set at link time (-ldflags "-X
// main.ldflagsVersion=v1.2.3"), is the version; otherwise it comes from
// the build information Go records in the binary.
var ldflagsVersion string

// version is the program's version: in --version, in every manifest and
// gallery, and in the cache key (a new build re-renders).
var version = buildVersion()

func buildVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(ldflagsVersion, bi)
}

// versionFrom picks the version: the link-time one, else the module
// version Go stamps (a tag, or a pseudo-version from the commit with
// "+dirty" for uncommitted changes), else the VCS revision, else "dev"
// (go run, go test).
func versionFrom(override string, bi *debug.BuildInfo) string {
	if override != "" {
		return override
	}
	if bi != nil {
		if v := batch.BuildVersion(bi); v != "" {
			return v
		}
	}
	return "dev"
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "mdxrender",
		Short:         "Render, inspect and convert Blizzard model files without a GPU",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(flagErrorFunc)
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
		newIconCmd(),
		newArchiveCmd(),
	)
	checkArgs(root)
	return root
}
