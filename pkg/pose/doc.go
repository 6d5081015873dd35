// Package pose samples a model's animated tracks at a time in a sequence and
// computes node world matrices, skinned vertices, geoset and layer colours and
// texture transforms. It knows nothing about rasterisation or texture files.
package pose
