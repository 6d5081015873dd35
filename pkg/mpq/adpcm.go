package mpq

import (
	"encoding/binary"
	"errors"
)

// Storm's IMA ADPCM variant for 16-bit sound (method bytes 0x40 mono and
// 0x80 stereo): a zero byte, a shift byte, one 16-bit starting sample per
// channel, then one byte per sample, channels interleaved. Bytes 0x80 and
// 0x81 are markers that lower or raise the step index instead of coding a
// sample.

var adpcmIndexDelta = [32]int{
	-1, 0, -1, 4, -1, 2, -1, 6,
	-1, 1, -1, 5, -1, 3, -1, 7,
	-1, 1, -1, 5, -1, 3, -1, 7,
	-1, 2, -1, 4, -1, 6, -1, 8,
}

var adpcmStep = [89]int{
	7, 8, 9, 10, 11, 12, 13, 14,
	16, 17, 19, 21, 23, 25, 28, 31,
	34, 37, 41, 45, 50, 55, 60, 66,
	73, 80, 88, 97, 107, 118, 130, 143,
	157, 173, 190, 209, 230, 253, 279, 307,
	337, 371, 408, 449, 494, 544, 598, 658,
	724, 796, 876, 963, 1060, 1166, 1282, 1411,
	1552, 1707, 1878, 2066, 2272, 2499, 2749, 3024,
	3327, 3660, 4026, 4428, 4871, 5358, 5894, 6484,
	7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899,
	15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794,
	32767,
}

const adpcmFirstIndex = 0x2C

func unADPCMMono(dst, src []byte) (int, error)   { return unADPCM(dst, src, 1) }
func unADPCMStereo(dst, src []byte) (int, error) { return unADPCM(dst, src, 2) }

// unADPCM decodes channels interleaved channels into 16-bit little-endian
// samples; it stops when the input ends or dst is full.
func unADPCM(dst, src []byte, channels int) (int, error) {
	if len(src) < 2 {
		return 0, errors.New("adpcm: shorter than its header")
	}
	shift := uint(src[1])
	in := src[2:]
	var pred [2]int
	index := [2]int{adpcmFirstIndex, adpcmFirstIndex}
	n := 0
	put := func(s int) bool {
		if len(dst)-n < 2 {
			return false
		}
		binary.LittleEndian.PutUint16(dst[n:], uint16(int16(s)))
		n += 2
		return true
	}
	for c := 0; c < channels; c++ {
		if len(in) < 2 {
			return n, nil
		}
		pred[c] = int(int16(binary.LittleEndian.Uint16(in)))
		in = in[2:]
		if !put(pred[c]) {
			return n, nil
		}
	}
	c := channels - 1
	for _, e := range in {
		c = (c + 1) % channels
		switch e {
		case 0x80:
			if index[c] != 0 {
				index[c]--
			}
			if !put(pred[c]) {
				return n, nil
			}
		case 0x81:
			index[c] = min(index[c]+8, 88)
			// The next byte is for the same channel.
			c = (c + 1) % channels
		default:
			step := adpcmStep[index[c]]
			diff := 0
			if shift < 32 {
				diff = step >> shift
			}
			for b := 0; b < 6; b++ {
				if e&(1<<b) != 0 {
					diff += step >> b
				}
			}
			if e&0x40 != 0 {
				pred[c] = max(pred[c]-diff, -32768)
			} else {
				pred[c] = min(pred[c]+diff, 32767)
			}
			if !put(pred[c]) {
				return n, nil
			}
			index[c] = min(max(index[c]+adpcmIndexDelta[e&0x1F], 0), 88)
		}
	}
	return n, nil
}
