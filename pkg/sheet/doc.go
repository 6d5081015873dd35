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
//  3. Layout.Frames lists what to draw in cell order; the caller draws
//     them and may set each cell's Pivot (the point an engine places the
//     sprite by: for a model, its origin, the ground point under a unit).
//     Layout.Pack puts the drawn frames on the sheet: as the grid, or
//     trimmed to their pixels and packed in rows, split into pages of at
//     most a given size (TexturePacker's multipack) with every animation
//     on one page. Layout.Assemble is Pack as the plain grid.
//  4. The metadata, one format per file of this package:
//     TexturePackerPage (TexturePacker's "JSON hash", which Phaser's
//     load.atlas and PixiJS's Assets.load read, trim, pivot and anchor
//     included), AsepriteJSON (Aseprite's JSON with one frame tag per
//     animation, for Phaser's load.aseprite and
//     anims.createFromAseprite), GodotSpriteFrames (a Godot 4
//     SpriteFrames .tres for AnimatedSprite2D) and PlainJSON (this
//     project's own, with pixels throughout).
//
// The package does not render: the caller draws the frames, so the same
// layout serves any renderer. Output is deterministic.
package sheet
