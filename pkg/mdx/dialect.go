package mdx

import "slices"

// One decoder and one encoder serve both MDX dialects: Warcraft III
// (versions 800-1200) and the early World of Warcraft clients (1300, 1400
// and 1500). Most records are the same bytes in both; where the WoW dialect
// differs, the reader and the writer of that record branch on ver.wow and
// say why. The differences:
//   - WoW list chunks (SEQS, MTLS, TXAN, GEOS, GEOA, BONE, LITE, HELP, ATCH,
//     CAMS, EVTS) start with a record count, and MTLS and ATCH follow it with
//     a u32 the client ignores (see decoder.list);
//   - MODL ends with a flags byte (373 bytes); SEQS records are 140 bytes
//     (frequency, replay range and blend time instead of rarity and sync
//     point); GEOA, ATCH, MTLS, EVTS records lay out their fields otherwise;
//   - quaternion tracks (KGRT, KTAR) hold 64-bit compressed quaternions, and
//     integer tracks (KMTF) are "simple" tracks with no interpolation type
//     (see decoder.take);
//   - visibility is KVIS in every record, and a few records list their tracks
//     in another canonical order (see dialect);
//   - v1300/1400 geosets hold every UV set inline in UVAS, a u8 PTYP and
//     BIDX/BWGT words; v1500 geosets are headers then M2-style batches (see
//     decoder.geosets1500), whose per-vertex bone indices and weights become
//     Geoset.Skin;
//   - a chunk of a tag already decoded is kept raw: WoW lists carry their
//     count, so a second chunk would not simply add records as in Warcraft
//     III.
//
// Everything lands in the ordinary Model types. WoW bytes with no public
// field (the unused words, the MODL flags byte, the attachments' padding
// byte, the v1500 batch fields) are kept in wowLayout so that Decode then
// Encode gives the original file back. PREM, PRE2, RIBB, HTST, CLID and any
// other chunk of a WoW file are kept verbatim in Model.Unknown: the renderer
// does not draw them.

// wc3Version reports whether v is a Warcraft III MDX version the codec
// reads and writes; wc3Versions lists them for messages.
func wc3Version(v uint32) bool { return slices.Contains([]uint32{800, 900, 1000, 1100, 1200}, v) }

const wc3Versions = "800, 900, 1000, 1100 or 1200"

// ver is a model's MDX version as the codec asks about it. The WoW versions
// are numbered above Warcraft III's Reforged ones but have none of their
// additions, so a feature test is never a bare comparison of numbers.
type ver uint32

// wow reports whether v is a WoW version (1300, 1400 or 1500).
func (v ver) wow() bool { return IsWoWVersion(uint32(v)) }

// since reports whether v is a Warcraft III version of at least w, i.e.
// whether a record has what Warcraft III added in version w.
func (v ver) since(w uint32) bool { return uint32(v) >= w && !v.wow() }

// dialect is what differs between the two dialects at the level of chunks
// and track lists.
type dialect struct {
	// chunks lists the chunks the dialect decodes, in the order a model
	// built in code is written; any other chunk is kept raw.
	chunks []uint32
	// Canonical track orders of the records whose tracks differ: a tag that
	// is not in a record's list is not one of its tracks in the dialect (it
	// stays in the record's raw tail).
	layer, light, attachment, camera []uint32
}

var wc3Dialect = &dialect{
	chunks:     canonicalOrder,
	layer:      ordLayer,
	light:      ordLight,
	attachment: ordAttachment,
	camera:     ordCamera,
}

var wowDialect = &dialect{
	// The chunk order of the WoW client's MDLBASE.
	chunks: []uint32{tVERS, tMODL, tSEQS, tGLBS, tMTLS, tTEXS, tTXAN, tGEOS, tGEOA, tBONE, tLITE,
		tHELP, tATCH, tPIVT, tCAMS, tEVTS},
	// Layers have only alpha and a flipbook track.
	layer: []uint32{tKMTA, tKMTF},
	// Ambient colour comes before ambient intensity, and visibility is KVIS.
	light:      []uint32{tKLAS, tKLAE, tKLAC, tKLAI, tKLBC, tKLBI, tKVIS},
	attachment: []uint32{tKVIS},
	// The camera's rotation comes before its target's translation.
	camera: []uint32{tKCTR, tKCRL, tKTTR},
}

func (v ver) dialect() *dialect {
	if v.wow() {
		return wowDialect
	}
	return wc3Dialect
}

// index returns the position of tag in the dialect's chunks, -1 if the
// dialect keeps such chunks raw.
func (dl *dialect) index(tag uint32) int { return slices.Index(dl.chunks, tag) }
