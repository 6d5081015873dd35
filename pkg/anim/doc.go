// Package anim encodes a run of equally sized frames as a looping animated
// picture that browsers and image viewers play without a plugin:
//
//   - EncodeGIF writes an animated GIF. GIF has at most 256 colours per
//     frame and 1-bit transparency, so the encoder builds one median-cut
//     palette over all frames (colours do not flicker from frame to frame),
//     dithers with Floyd-Steinberg, and makes pixels with alpha below 128
//     transparent and the rest opaque.
//   - EncodeAPNG writes an animated PNG with full 8-bit alpha: soft edges,
//     glows and shadows survive; viewers without APNG support show the
//     first frame.
//
// Frame durations are given in milliseconds. Both encoders are
// deterministic: the same frames give the same bytes on every machine.
package anim
