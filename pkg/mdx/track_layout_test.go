package mdx

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// readTrack copies keys with tangents as they are when the file's value is
// the size of the held one: Key must then be laid out as the file is
// (frame, value, in and out tangents, 32-bit words, no padding), and the
// copy must give what reading each word through the getters gives.
func TestKeyLayout(t *testing.T) {
	checkKeyLayout[uint32](t, getU32)
	checkKeyLayout[float32](t, getF32)
	checkKeyLayout[Vec3](t, getVec3)
	checkKeyLayout[Quat](t, getQuat)
}

func checkKeyLayout[T TrackValue](t *testing.T, get func([]byte) T) {
	t.Helper()
	var k Key[T]
	vs := unsafe.Sizeof(k.Value)
	if unsafe.Sizeof(k) != 4+3*vs || unsafe.Offsetof(k.Value) != 4 || unsafe.Offsetof(k.InTan) != 4+vs || unsafe.Offsetof(k.OutTan) != 4+2*vs {
		t.Fatalf("Key[%T] is not laid out as the file's keys: size %d, offsets %d %d %d",
			k.Value, unsafe.Sizeof(k), unsafe.Offsetof(k.Value), unsafe.Offsetof(k.InTan), unsafe.Offsetof(k.OutTan))
	}
	rng := rand.New(rand.NewPCG(uint64(vs), 1))
	const n = 9
	ksize := 4 + 3*int(vs)
	b := make([]byte, n*ksize)
	for i := range b {
		b[i] = byte(rng.Uint32()) // NaN payloads and all
	}
	copied := make([]Key[T], n)
	fillWords(copied, b, 4)
	for i := range n {
		kb := b[i*ksize:]
		want := Key[T]{Frame: int32(le.Uint32(kb)), Value: get(kb[4:]), InTan: get(kb[4+vs:]), OutTan: get(kb[4+2*vs:])}
		if string(asBytes([]Key[T]{want})) != string(asBytes(copied[i:i+1])) {
			t.Fatalf("Key[%T] %d: copied %v, read %v", k.Value, i, copied[i], want)
		}
	}
}
