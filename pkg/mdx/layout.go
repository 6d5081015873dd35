package mdx

// rec remembers, for one decoded record, the details of its bytes that the
// public fields do not show, so that an unmodified record re-encodes
// byte-identically. The zero rec means "canonical".
type rec struct {
	// order is the track tags in file order (nil: canonical order).
	order []uint32
	// tail is the bytes between the last decoded field and the record's
	// inclusive end: unknown track tags (and whatever follows them), or
	// padding.
	tail []byte
	// strs holds raw fixed-size string fields whose bytes after the NUL
	// were not all zero, indexed by the field's position in the record.
	strs map[int][]byte
	// flags for optional parts that were present/absent (e.g. KEVT).
	flags uint8
}

const (
	recNoKEVT uint8 = 1 << iota // event object without KEVT block
)

// chunkRef is one chunk of a decoded file, in file order.
type chunkRef struct {
	tag uint32
	// n is the number of records this occurrence of the chunk held (for
	// chunks that hold a list), or the index into Model.Unknown when raw.
	n   int
	raw bool
	// pad is bytes left at the end of the chunk that do not form a record.
	pad []byte
	// over is how many bytes the chunk's records ran past its declared
	// size (a quirk some writers have, which mdx-m3-viewer tolerates: the
	// next chunk starts after the last record).
	over int
}

// fileLayout is what a decoded Model remembers about its file.
type fileLayout struct {
	chunks []chunkRef
	// trailing is bytes after the last whole chunk.
	trailing []byte
	// modl holds raw MODL strings.
	modl rec
	// wow is set for a file of the WoW dialect and holds what only that
	// dialect has.
	wow *wowLayout
}

// walkRecs calls f for every rec in the model.
func walkRecs(m *Model, f func(*rec)) {
	for _, n := range m.Nodes() {
		f(&n.nrec)
	}
	for i := range m.Sequences {
		f(&m.Sequences[i].rec)
	}
	for i := range m.Materials {
		f(&m.Materials[i].rec)
		for j := range m.Materials[i].Layers {
			f(&m.Materials[i].Layers[j].rec)
		}
	}
	for i := range m.Textures {
		f(&m.Textures[i].rec)
	}
	for i := range m.TextureAnims {
		f(&m.TextureAnims[i].rec)
	}
	for i := range m.Geosets {
		f(&m.Geosets[i].rec)
	}
	for i := range m.GeosetAnims {
		f(&m.GeosetAnims[i].rec)
	}
	for i := range m.Lights {
		f(&m.Lights[i].rec)
	}
	for i := range m.Attachments {
		f(&m.Attachments[i].rec)
	}
	for i := range m.ParticleEmitters {
		f(&m.ParticleEmitters[i].rec)
	}
	for i := range m.ParticleEmitters2 {
		f(&m.ParticleEmitters2[i].rec)
	}
	for i := range m.PopcornEmitters {
		f(&m.PopcornEmitters[i].rec)
	}
	for i := range m.RibbonEmitters {
		f(&m.RibbonEmitters[i].rec)
	}
	for i := range m.Cameras {
		f(&m.Cameras[i].rec)
	}
	for i := range m.EventObjects {
		f(&m.EventObjects[i].rec)
	}
	for i := range m.CollisionShapes {
		f(&m.CollisionShapes[i].rec)
	}
	for i := range m.FaceEffects {
		f(&m.FaceEffects[i].rec)
	}
	for i := range m.SoundTracks {
		f(&m.SoundTracks[i].rec)
	}
}
