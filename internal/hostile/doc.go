// Package hostile builds the crafted inputs of the hostile-input corpus
// (textures whose headers lie, decoder work bombs, MDL text that asks for
// huge geometry or particle storms) at any scale. Tests build them small,
// in memory; testdata/hostile/gen.go writes them full size for
// scripts/hostile.sh. It only assembles bytes: it imports nothing of the
// module, so the decoders under test cannot shape their own inputs.
package hostile
