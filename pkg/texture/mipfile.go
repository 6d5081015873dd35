package texture

import (
	"image"
)

// mipFile is a texture file whose headers and level layout have been
// checked (and its decode charged to the pixel budget) but whose levels
// are decoded one at a time, on demand: BLP and DDS files store every mip
// level apart, so a picture that only samples the small levels of a large
// texture never pays for the large ones. Formats without stored levels
// (TGA, PNG, JPEG) are decoded whole when opened (tex).
type mipFile struct {
	format Format
	w, h   int
	// n is the number of levels that passed the checks; levelErr says why
	// the chain was cut before the file's own count, if it was.
	n        int
	levelErr error
	// decode decodes level i < n; its errors name the format and level.
	decode func(i int) (*image.NRGBA, error)
	// tex is the decoded texture of a format without stored levels.
	tex *Texture
}

// openMips checks data as Decode would decode it and returns it ready for
// level-by-level decoding.
func openMips(data []byte, o *Options) (*mipFile, error) {
	switch Sniff(data) {
	case "BLP1", "BLP2", "BLP0":
		return openBLP(data, o)
	case FormatDDS:
		return openDDS(data, o)
	}
	t, err := Decode(data, o)
	if err != nil {
		return nil, err
	}
	return &mipFile{format: t.Format, w: t.Width(), h: t.Height(), n: len(t.Levels), levelErr: t.LevelErr, tex: t}, nil
}

// decodeAll decodes every level. A level after the first that fails
// cuts the chain there (Texture.LevelErr) unless Options.Strict; an
// unsupported feature fails the decode at any level.
func (mf *mipFile) decodeAll(o *Options) (*Texture, error) {
	if mf.tex != nil {
		return mf.tex, nil
	}
	t := &Texture{Format: mf.format, Levels: make([]*image.NRGBA, 0, mf.n), LevelErr: mf.levelErr}
	for i := range mf.n {
		img, err := mf.decode(i)
		if err != nil {
			if _, isU := err.(*UnsupportedError); isU || i == 0 || o.strict() {
				return nil, err
			}
			t.LevelErr = err
			break
		}
		t.Levels = append(t.Levels, img)
	}
	return t, nil
}
