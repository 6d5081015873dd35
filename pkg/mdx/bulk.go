package mdx

import (
	"encoding/binary"
	"math"
	"unsafe"
)

var le = binary.LittleEndian

// nativeLE is true when the machine stores numbers little-endian like the
// MDX, so arrays of float32/uint32/uint16 can be copied as bytes.
var nativeLE = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// asBytes views a slice of fixed-size numeric values (no pointers) as bytes.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(z)))
}

// fillWords decodes little-endian words of wordSize bytes (1, 2 or 4) from
// src into dst, which must be a slice of values made only of such words.
// On little-endian machines this is a single copy, which is what makes
// geoset decoding fast.
func fillWords[T any](dst []T, src []byte, wordSize int) {
	db := asBytes(dst)
	if nativeLE || wordSize == 1 {
		copy(db, src)
		return
	}
	switch wordSize {
	case 2:
		for i := 0; i+2 <= len(db); i += 2 {
			*(*uint16)(unsafe.Pointer(&db[i])) = le.Uint16(src[i:])
		}
	case 4:
		for i := 0; i+4 <= len(db); i += 4 {
			*(*uint32)(unsafe.Pointer(&db[i])) = le.Uint32(src[i:])
		}
	}
}

// appendWords is the inverse of fillWords.
func appendWords[T any](b []byte, src []T, wordSize int) []byte {
	sb := asBytes(src)
	if nativeLE || wordSize == 1 {
		return append(b, sb...)
	}
	switch wordSize {
	case 2:
		for i := 0; i+2 <= len(sb); i += 2 {
			b = le.AppendUint16(b, *(*uint16)(unsafe.Pointer(&sb[i])))
		}
	case 4:
		for i := 0; i+4 <= len(sb); i += 4 {
			b = le.AppendUint32(b, *(*uint32)(unsafe.Pointer(&sb[i])))
		}
	}
	return b
}

func f32(b []byte) float32 { return math.Float32frombits(le.Uint32(b)) }

func f32bits(u uint32) float32 { return math.Float32frombits(u) }

func getU32(b []byte) uint32  { return le.Uint32(b) }
func getF32(b []byte) float32 { return f32(b) }
func getVec3(b []byte) Vec3 {
	_ = b[11]
	return Vec3{f32(b), f32(b[4:]), f32(b[8:])}
}
func getQuat(b []byte) Quat {
	_ = b[15]
	return Quat{f32(b), f32(b[4:]), f32(b[8:]), f32(b[12:])}
}

func putU32(b []byte, v uint32) []byte  { return le.AppendUint32(b, v) }
func putF32(b []byte, v float32) []byte { return le.AppendUint32(b, math.Float32bits(v)) }
func putVec3(b []byte, v Vec3) []byte {
	return putF32(putF32(putF32(b, v[0]), v[1]), v[2])
}
func putQuat(b []byte, v Quat) []byte {
	return putF32(putF32(putF32(putF32(b, v[0]), v[1]), v[2]), v[3])
}

// tagOf turns a four-character chunk tag into the u32 the file stores.
func tagOf(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// tagString is the inverse of tagOf.
func tagString(t uint32) string {
	b := [4]byte{byte(t), byte(t >> 8), byte(t >> 16), byte(t >> 24)}
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			b[i] = '?'
		}
	}
	return string(b[:])
}
