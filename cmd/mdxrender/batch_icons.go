package main

import (
	"slices"

	"github.com/spf13/pflag"

	"github.com/mdxrender/mdxrender/pkg/batch"
)

const iconsHelp = "make the command-card icons of every unit model into OUTPUT/icons, and icons.html (the output format icons: alone, or with those --format names); icons.* in the config say how"

// iconsFlag turns batch's --icons into the output format it stands for:
// icons alone, or added to the formats --format names.
func iconsFlag(f *pflag.FlagSet) error {
	if on, err := f.GetBool("icons"); err != nil || !on {
		return nil
	}
	if formats, _ := f.GetStringSlice("format"); f.Changed("format") && slices.Contains(formats, string(batch.FormatIcons)) {
		return nil
	}
	// A string slice flag's first Set replaces its default; a later one
	// adds to what the user gave.
	return f.Set("format", string(batch.FormatIcons))
}
