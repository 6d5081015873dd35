package mdx

// Sequence is one SEQS entry (132 bytes): a named animation interval.
type Sequence struct {
	Name string // name[80]
	// Interval is [start, end] in ms on the model's timeline.
	Interval  [2]uint32
	MoveSpeed float32
	// Flags: 1 = NonLooping (SeqNonLooping). The MDX field is a u32.
	Flags     uint32
	Rarity    float32
	SyncPoint uint32
	Extent    Extent

	// Frequency, Replay and BlendTime exist only in WoW files (v1300+,
	// 140-byte entries, no Rarity/SyncPoint): the chance of playing among
	// animations of the same name, the random repeat range, and the blend
	// time in ms.
	Frequency float32
	Replay    [2]uint32
	BlendTime uint32
	rec       rec
}

// SeqNonLooping is the Sequence.Flags bit of a non-looping animation.
const SeqNonLooping = 1

// NonLooping reports whether the sequence plays once.
func (s *Sequence) NonLooping() bool { return s.Flags&SeqNonLooping != 0 }
