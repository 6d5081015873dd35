// Package sheet lays the frames of a model's animations out on one sprite
// sheet and describes the sheet for game engines.
//
// The steps, each usable on its own:
//
//  1. SampleSequence picks the moments of a sequence to draw: a number of
//     frames spread evenly over it, or a fixed frame rate. Each sample
//     knows how long it shows; a sequence's samples last exactly as long
//     as the sequence.
//  2. NewLayout places the samples of several sequences on a grid: one
//     block of rows per camera yaw (eight yaws for the eight directions of
//     an isometric game), inside it one row per sequence, wrapped after a
//     number of columns. Every cell gets a stable frame name and the name
//     of the animation it belongs to.
//  3. Layout.Frames lists what to draw in cell order, and Layout.Assemble
//     copies the drawn frames onto the sheet image.
//  4. Layout.TexturePackerJSON and Layout.PlainJSON describe the sheet:
//     TexturePacker's "JSON hash" layout, which Phaser (load.atlas) and
//     PixiJS (Spritesheet) read, and a plain layout of this project's own.
//
// The package does not render: the caller draws the frames, so the same
// layout serves any renderer. Output is deterministic.
package sheet
