package texture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdxrender/mdxrender/internal/testshared"
)

// iconPicture is a 64×64 opaque picture with smooth and sharp detail, the
// kind of thing an icon holds.
func iconPicture(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			i := img.PixOffset(x, y)
			r, g, b := uint8(x*255/size), uint8(y*255/size), uint8(128)
			if (x/8+y/8)%2 == 0 {
				b = 220
			}
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = r, g, b, 255
		}
	}
	return img
}

// blp1Fields reads what the game's icons and ours are compared on.
type blp1Fields struct {
	content, alphaBits, w, h, pictureType, hasMips uint32
	offsets, sizes                                 []uint32
	jpegHeader                                     []byte
}

func readBLP1Fields(t *testing.T, b []byte) blp1Fields {
	t.Helper()
	le := binary.LittleEndian
	if string(b[:4]) != "BLP1" {
		t.Fatalf("magic %q", b[:4])
	}
	f := blp1Fields{content: le.Uint32(b[4:]), alphaBits: le.Uint32(b[8:]), w: le.Uint32(b[12:]), h: le.Uint32(b[16:]),
		pictureType: le.Uint32(b[20:]), hasMips: le.Uint32(b[24:])}
	for i := range blpMaxMips {
		if s := le.Uint32(b[blp1TablesAt+64+4*i:]); s > 0 {
			f.offsets = append(f.offsets, le.Uint32(b[blp1TablesAt+4*i:]))
			f.sizes = append(f.sizes, s)
		}
	}
	if f.content == blpJPEG {
		n := le.Uint32(b[blpHeaderSize:])
		f.jpegHeader = b[blpHeaderSize+4 : blpHeaderSize+4+int(n)]
	}
	return f
}

// jpegSegments lists the markers of a stream up to its first scan, with
// each segment's bytes (marker included).
func jpegSegments(b []byte) (markers []byte, segs [][]byte) {
	i := 2
	for i+4 <= len(b) && b[i] == 0xff {
		m := b[i+1]
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if i+2+n > len(b) {
			break
		}
		markers = append(markers, m)
		segs = append(segs, b[i:i+2+n])
		if m == jpegSOS {
			break
		}
		i += 2 + n
	}
	return markers, segs
}

// TestEncodeBLPLikeGameIcons holds our BLP1 icons to the layout of the
// game's own (the BLP1 icons of the corpus written by Blizzard's JPEG
// library): the header fields, a full chain of 7 levels for 64×64, the
// level sizes, each level a frame of four 1×1 components 1-4 sharing
// quantisation table 0 with Huffman tables 0 for the first component and
// 1 for the others, and the standard Huffman tables themselves, which
// our DHT segment must equal byte for byte. The game's shared header is
// 624 bytes because it also carries a JFIF marker, a comment and a
// second quantisation table no component uses, and it ends with the
// first two bytes of the frame marker; ours holds the tables only.
func TestEncodeBLPLikeGameIcons(t *testing.T) {
	var buf bytes.Buffer
	if err := EncodeBLP(&buf, iconPicture(64), nil); err != nil {
		t.Fatal(err)
	}
	ours := readBLP1Fields(t, buf.Bytes())
	if ours.content != blpJPEG || ours.alphaBits != 0 || ours.w != 64 || ours.h != 64 || ours.pictureType != 5 || ours.hasMips != 1 {
		t.Fatalf("header %+v", ours)
	}
	if len(ours.offsets) != 7 {
		t.Fatalf("%d levels, want 7 (64 to 1)", len(ours.offsets))
	}
	at := uint32(blpHeaderSize + 4 + len(ours.jpegHeader))
	for i, o := range ours.offsets {
		if o != at {
			t.Fatalf("level %d at %d, want %d (levels follow one another)", i, o, at)
		}
		at += ours.sizes[i]
	}
	if int(at) != buf.Len() {
		t.Fatalf("levels end at %d, file is %d bytes", at, buf.Len())
	}
	checkLevelStreams(t, "ours", buf.Bytes(), ours)
	tex, err := DecodeBLP(buf.Bytes(), &Options{Strict: true})
	if err != nil || len(tex.Levels) != 7 {
		t.Fatalf("decode: %v", err)
	}

	t.Run("corpus", func(t *testing.T) { compareGameIcons(t, ours) })
}

func compareGameIcons(t *testing.T, ours blp1Fields) {
	dir := testshared.Corpus(t)
	for _, rel := range []string{
		"corpus/files/wc3lib/src/blp/test/BTNBox.blp",
		"corpus/files/wc3lib/src/blp/test/BTNAbsorbMagic.blp",
		"corpus/files/wc3lib/src/app/test/BTN_cr_HOLYllllstrenth.blp",
	} {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		theirs := readBLP1Fields(t, b)
		if theirs.content != ours.content || theirs.w != ours.w || theirs.h != ours.h || theirs.hasMips != ours.hasMips {
			t.Errorf("%s: header %+v, ours %+v", rel, theirs, ours)
		}
		if want := map[uint32]uint32{0: 5, 8: 4}[theirs.alphaBits]; theirs.pictureType != want {
			t.Errorf("%s: picture type %d with %d alpha bits; we write %d", rel, theirs.pictureType, theirs.alphaBits, want)
		}
		if len(theirs.offsets) != len(ours.offsets) {
			t.Errorf("%s: %d levels, ours %d", rel, len(theirs.offsets), len(ours.offsets))
		}
		if len(theirs.jpegHeader) != 624 {
			t.Errorf("%s: shared JPEG header of %d bytes", rel, len(theirs.jpegHeader))
		}
		checkLevelStreams(t, rel, b, theirs)
		_, tsegs := jpegSegments(theirs.jpegHeader)
		_, osegs := jpegSegments(ours.jpegHeader)
		var tdht, odht []byte
		for _, s := range tsegs {
			if s[1] == 0xc4 {
				tdht = s
			}
		}
		for _, s := range osegs {
			if s[1] == 0xc4 {
				odht = s
			}
		}
		if !bytes.Equal(tdht, odht) {
			t.Errorf("%s: Huffman tables differ from ours", rel)
		}
	}
}

// checkLevelStreams checks that every level's JPEG stream (the shared
// header's SOI, then the level) has the frame and scan of the game's
// icons.
func checkLevelStreams(t *testing.T, name string, file []byte, f blp1Fields) {
	t.Helper()
	for i, o := range f.offsets {
		lvl := file[o : o+f.sizes[i]]
		// The game's header ends inside the frame marker; put the halves
		// together by taking the header up to its last complete segment.
		stream := appendJPEGLevel(nil, f.jpegHeader, lvl)
		fr, err := parseJPEGFrame(stream)
		if err != nil {
			t.Fatalf("%s level %d: %v", name, i, err)
		}
		w, h := mipSize(int(f.w), int(f.h), i)
		if fr.comps != 4 || fr.progressive || fr.width != w || fr.height != h || fr.scans != 1 || !fr.eoi {
			t.Fatalf("%s level %d: frame %+v, want %dx%d baseline, 4 components, one scan", name, i, fr, w, h)
		}
		for c := range 4 {
			if fr.ids[c] != byte(c+1) || fr.h[c] != 1 || fr.v[c] != 1 {
				t.Fatalf("%s level %d component %d: id %d sampling %dx%d", name, i, c, fr.ids[c], fr.h[c], fr.v[c])
			}
		}
		sof := bytes.Index(stream, []byte{0xff, 0xc0})
		sos := bytes.Index(stream, []byte{0xff, 0xda})
		if sof < 0 || sos < 0 {
			t.Fatalf("%s level %d: no SOF0 or SOS", name, i)
		}
		if q := []byte{stream[sof+12], stream[sof+15], stream[sof+18], stream[sof+21]}; !bytes.Equal(q, []byte{0, 0, 0, 0}) {
			t.Fatalf("%s level %d: quantisation tables %v", name, i, q)
		}
		if tb := stream[sos+5 : sos+13]; !bytes.Equal(tb, []byte{1, 0x00, 2, 0x11, 3, 0x11, 4, 0x11}) {
			t.Fatalf("%s level %d: scan components %x", name, i, tb)
		}
	}
}

// TestEncodeDDSLikeReforgedIcons holds our HD icons to the header of
// Reforged's own HD icon in the corpus: DXT1, 256×256, 9 levels, the
// same flags, linear size and caps.
func TestEncodeDDSLikeReforgedIcons(t *testing.T) {
	var buf bytes.Buffer
	if err := EncodeDDS(&buf, iconPicture(256), nil); err != nil {
		t.Fatal(err)
	}
	ours := buf.Bytes()
	if len(ours) != 43832 {
		t.Fatalf("file is %d bytes, want 43832 (header and nine DXT1 levels)", len(ours))
	}
	t.Run("corpus", func(t *testing.T) { compareReforgedIcon(t, ours) })
}

func compareReforgedIcon(t *testing.T, ours []byte) {
	b, err := os.ReadFile(filepath.Join(testshared.Corpus(t), "corpus/files/ReterasModelStudio/matrixeater/src/com/matrixeater/src/ImageBin/btneredarred.dds"))
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	for _, f := range []struct {
		name string
		at   int
		mask uint32
	}{
		{"size", 4, ^uint32(0)}, {"flags", 8, ^uint32(0)}, {"height", 12, ^uint32(0)}, {"width", 16, ^uint32(0)},
		{"linear size", 20, ^uint32(0)}, {"mip count", 28, ^uint32(0)}, {"pixel format size", 76, ^uint32(0)},
		// Their pixel format flags carry a tool's private bit
		// (0x40000000) beside FourCC.
		{"pixel format flags", 80, 0xffff}, {"FourCC", 84, ^uint32(0)}, {"caps", 108, ^uint32(0)}, {"caps2", 112, ^uint32(0)},
	} {
		if o, th := le.Uint32(ours[f.at:])&f.mask, le.Uint32(b[f.at:])&f.mask; o != th {
			t.Errorf("%s: ours %#x, Reforged's %#x", f.name, o, th)
		}
	}
	if len(b) != len(ours) {
		t.Errorf("Reforged's icon is %d bytes, ours %d", len(b), len(ours))
	}
}

func TestEncodeRefuses(t *testing.T) {
	var ee *EncodeError
	for _, c := range []struct {
		name string
		err  error
	}{
		{"empty", EncodeBLP(&bytes.Buffer{}, image.NewNRGBA(image.Rect(0, 0, 0, 5)), nil)},
		{"quality", EncodeBLP(&bytes.Buffer{}, iconPicture(8), &BLPOptions{Quality: 101})},
		{"JPEG 4 alpha bits", EncodeBLP(&bytes.Buffer{}, iconPicture(8), &BLPOptions{AlphaBits: 4})},
		{"3 alpha bits", EncodeBLP(&bytes.Buffer{}, iconPicture(8), &BLPOptions{Palette: true, AlphaBits: 3})},
		{"DDS empty", EncodeDDS(&bytes.Buffer{}, image.NewNRGBA(image.Rect(0, 0, 4, 0)), nil)},
		{"DDS format", EncodeDDS(&bytes.Buffer{}, iconPicture(8), &DDSOptions{Format: 9})},
	} {
		if !errors.As(c.err, &ee) {
			t.Errorf("%s: error %v, want an *EncodeError", c.name, c.err)
		}
	}
}

// TestEncodePalette checks the palettised writer on a picture of few
// colours (kept exactly, with 1-bit alpha) and one of many (reduced, but
// close: median cut over a smooth gradient).
func TestEncodePalette(t *testing.T) {
	few := image.NewNRGBA(image.Rect(0, 0, 16, 16))
	for i := range 256 {
		a := uint8(255)
		if i%3 == 0 {
			a = 0
		}
		few.SetNRGBA(i%16, i/16, color.NRGBA{uint8(i * 7), uint8(i * 13), uint8(i), a})
	}
	var buf bytes.Buffer
	if err := EncodeBLP(&buf, few, &BLPOptions{Palette: true, AlphaBits: 1}); err != nil {
		t.Fatal(err)
	}
	tex, err := DecodeBLP(buf.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tex.Levels[0].Pix, few.Pix) {
		t.Fatal("a 256-colour picture with 1-bit alpha did not come back exactly")
	}
	many := iconPicture(64)
	buf.Reset()
	if err := EncodeBLP(&buf, many, &BLPOptions{Palette: true}); err != nil {
		t.Fatal(err)
	}
	if tex, err = DecodeBLP(buf.Bytes(), nil); err != nil {
		t.Fatal(err)
	}
	var sum int
	for i := range many.Pix {
		d := int(tex.Levels[0].Pix[i]) - int(many.Pix[i])
		sum += max(d, -d)
	}
	if mean := float64(sum) / float64(len(many.Pix)); mean > 3 {
		t.Fatalf("mean error %.2f after median cut, want at most 3", mean)
	}
}
