package mdx

// Chunk and track tags as the u32 the file stores.
var (
	tMDLX = tagOf("MDLX")
	tVERS = tagOf("VERS")
	tMODL = tagOf("MODL")
	tSEQS = tagOf("SEQS")
	tGLBS = tagOf("GLBS")
	tMTLS = tagOf("MTLS")
	tTEXS = tagOf("TEXS")
	tTXAN = tagOf("TXAN")
	tGEOS = tagOf("GEOS")
	tGEOA = tagOf("GEOA")
	tBONE = tagOf("BONE")
	tLITE = tagOf("LITE")
	tHELP = tagOf("HELP")
	tATCH = tagOf("ATCH")
	tPIVT = tagOf("PIVT")
	tPREM = tagOf("PREM")
	tPRE2 = tagOf("PRE2")
	tCORN = tagOf("CORN")
	tRIBB = tagOf("RIBB")
	tCAMS = tagOf("CAMS")
	tEVTS = tagOf("EVTS")
	tCLID = tagOf("CLID")
	tFAFX = tagOf("FAFX")
	tBPOS = tagOf("BPOS")
	tSNDS = tagOf("SNDS")

	tLAYS = tagOf("LAYS")
	tVRTX = tagOf("VRTX")
	tNRMS = tagOf("NRMS")
	tPTYP = tagOf("PTYP")
	tPCNT = tagOf("PCNT")
	tPVTX = tagOf("PVTX")
	tGNDX = tagOf("GNDX")
	tMTGC = tagOf("MTGC")
	tMATS = tagOf("MATS")
	tTANG = tagOf("TANG")
	tSKIN = tagOf("SKIN")
	tUVAS = tagOf("UVAS")
	tUVBS = tagOf("UVBS")
	tKEVT = tagOf("KEVT")
	tBIDX = tagOf("BIDX") // WoW v1300/1400 geosets
	tBWGT = tagOf("BWGT") // WoW v1300/1400 geosets

	tKGTR = tagOf("KGTR")
	tKGRT = tagOf("KGRT")
	tKGSC = tagOf("KGSC")
	tKMTF = tagOf("KMTF")
	tKMTA = tagOf("KMTA")
	tKMTE = tagOf("KMTE")
	tKFC3 = tagOf("KFC3")
	tKFCA = tagOf("KFCA")
	tKFTC = tagOf("KFTC")
	tKTAT = tagOf("KTAT")
	tKTAR = tagOf("KTAR")
	tKTAS = tagOf("KTAS")
	tKGAO = tagOf("KGAO")
	tKGAC = tagOf("KGAC")
	tKLAS = tagOf("KLAS")
	tKLAE = tagOf("KLAE")
	tKLAC = tagOf("KLAC")
	tKLAI = tagOf("KLAI")
	tKLBI = tagOf("KLBI")
	tKLBC = tagOf("KLBC")
	tKLAV = tagOf("KLAV")
	tKATV = tagOf("KATV")
	tKPEE = tagOf("KPEE")
	tKPEG = tagOf("KPEG")
	tKPLN = tagOf("KPLN")
	tKPLT = tagOf("KPLT")
	tKPEL = tagOf("KPEL")
	tKPES = tagOf("KPES")
	tKPEV = tagOf("KPEV")
	tKP2S = tagOf("KP2S")
	tKP2R = tagOf("KP2R")
	tKP2L = tagOf("KP2L")
	tKP2G = tagOf("KP2G")
	tKP2E = tagOf("KP2E")
	tKP2N = tagOf("KP2N")
	tKP2W = tagOf("KP2W")
	tKP2V = tagOf("KP2V")
	tKPPA = tagOf("KPPA")
	tKPPC = tagOf("KPPC")
	tKPPE = tagOf("KPPE")
	tKPPL = tagOf("KPPL")
	tKPPS = tagOf("KPPS")
	tKPPV = tagOf("KPPV")
	tKRHA = tagOf("KRHA")
	tKRHB = tagOf("KRHB")
	tKRAL = tagOf("KRAL")
	tKRCO = tagOf("KRCO")
	tKRTX = tagOf("KRTX")
	tKRVS = tagOf("KRVS")
	tKCTR = tagOf("KCTR")
	tKTTR = tagOf("KTTR")
	tKCRL = tagOf("KCRL")
	tKVIS = tagOf("KVIS") // WoW: the visibility of every record
)

// Canonical track orders per record, as the public writers emit them (the
// WoW dialect's are in dialect.go).
var (
	ordNode       = []uint32{tKGTR, tKGRT, tKGSC}
	ordLayer      = []uint32{tKMTF, tKMTA, tKMTE, tKFC3, tKFCA, tKFTC}
	ordTexAnim    = []uint32{tKTAT, tKTAR, tKTAS}
	ordGeosetAnim = []uint32{tKGAO, tKGAC}
	ordLight      = []uint32{tKLAS, tKLAE, tKLAC, tKLAI, tKLBI, tKLBC, tKLAV}
	ordAttachment = []uint32{tKATV}
	ordPREM       = []uint32{tKPEE, tKPEG, tKPLN, tKPLT, tKPEL, tKPES, tKPEV}
	ordPRE2       = []uint32{tKP2S, tKP2R, tKP2L, tKP2G, tKP2E, tKP2N, tKP2W, tKP2V}
	ordCORN       = []uint32{tKPPA, tKPPC, tKPPE, tKPPL, tKPPS, tKPPV}
	ordRIBB       = []uint32{tKRHA, tKRHB, tKRAL, tKRCO, tKRTX, tKRVS}
	ordCamera     = []uint32{tKCTR, tKTTR, tKCRL}
)

// trackField is one track field of a record, whatever its value type: at
// most one pointer is set, none for a tag the record does not have. Each
// record's track method maps its tags to its fields once, for the decoder
// and the encoder alike.
type trackField struct {
	u **Track[uint32]
	f **Track[float32]
	v **Track[Vec3]
	q **Track[Quat]
}

func (n *Node) track(tag uint32) trackField {
	switch tag {
	case tKGTR:
		return trackField{v: &n.Translation}
	case tKGRT:
		return trackField{q: &n.Rotation}
	case tKGSC:
		return trackField{v: &n.Scaling}
	}
	return trackField{}
}

func (l *Layer) track(tag uint32) trackField {
	switch tag {
	case tKMTF:
		return trackField{u: &l.TextureIDTrack}
	case tKMTA:
		return trackField{f: &l.AlphaTrack}
	case tKMTE:
		return trackField{f: &l.EmissiveGainTrack}
	case tKFC3:
		return trackField{v: &l.FresnelColorTrack}
	case tKFCA:
		return trackField{f: &l.FresnelOpacityTrack}
	case tKFTC:
		return trackField{f: &l.FresnelTeamColorTrack}
	}
	return trackField{}
}

func (t *TextureAnim) track(tag uint32) trackField {
	switch tag {
	case tKTAT:
		return trackField{v: &t.Translation}
	case tKTAR:
		return trackField{q: &t.Rotation}
	case tKTAS:
		return trackField{v: &t.Scaling}
	}
	return trackField{}
}

func (g *GeosetAnim) track(tag uint32) trackField {
	switch tag {
	case tKGAO:
		return trackField{f: &g.AlphaTrack}
	case tKGAC:
		return trackField{v: &g.ColorTrack}
	}
	return trackField{}
}

func (l *Light) track(tag uint32) trackField {
	switch tag {
	case tKLAS:
		return trackField{f: &l.AttenuationStartTrack}
	case tKLAE:
		return trackField{f: &l.AttenuationEndTrack}
	case tKLAC:
		return trackField{v: &l.ColorTrack}
	case tKLAI:
		return trackField{f: &l.IntensityTrack}
	case tKLBI:
		return trackField{f: &l.AmbIntensityTrack}
	case tKLBC:
		return trackField{v: &l.AmbColorTrack}
	case tKLAV, tKVIS:
		return trackField{f: &l.Visibility}
	}
	return trackField{}
}

func (a *Attachment) track(tag uint32) trackField {
	if tag == tKATV || tag == tKVIS {
		return trackField{f: &a.Visibility}
	}
	return trackField{}
}

func (p *ParticleEmitter) track(tag uint32) trackField {
	switch tag {
	case tKPEE:
		return trackField{f: &p.EmissionRateTrack}
	case tKPEG:
		return trackField{f: &p.GravityTrack}
	case tKPLN:
		return trackField{f: &p.LongitudeTrack}
	case tKPLT:
		return trackField{f: &p.LatitudeTrack}
	case tKPEL:
		return trackField{f: &p.LifeSpanTrack}
	case tKPES:
		return trackField{f: &p.SpeedTrack}
	case tKPEV:
		return trackField{f: &p.Visibility}
	}
	return trackField{}
}

func (p *ParticleEmitter2) track(tag uint32) trackField {
	switch tag {
	case tKP2S:
		return trackField{f: &p.SpeedTrack}
	case tKP2R:
		return trackField{f: &p.VariationTrack}
	case tKP2L:
		return trackField{f: &p.LatitudeTrack}
	case tKP2G:
		return trackField{f: &p.GravityTrack}
	case tKP2E:
		return trackField{f: &p.EmissionRateTrack}
	case tKP2N:
		return trackField{f: &p.WidthTrack}
	case tKP2W:
		return trackField{f: &p.LengthTrack}
	case tKP2V:
		return trackField{f: &p.Visibility}
	}
	return trackField{}
}

func (p *PopcornEmitter) track(tag uint32) trackField {
	switch tag {
	case tKPPA:
		return trackField{f: &p.AlphaTrack}
	case tKPPC:
		return trackField{v: &p.ColorTrack}
	case tKPPE:
		return trackField{f: &p.EmissionRateTrack}
	case tKPPL:
		return trackField{f: &p.LifeSpanTrack}
	case tKPPS:
		return trackField{f: &p.SpeedTrack}
	case tKPPV:
		return trackField{f: &p.Visibility}
	}
	return trackField{}
}

func (p *RibbonEmitter) track(tag uint32) trackField {
	switch tag {
	case tKRHA:
		return trackField{f: &p.HeightAboveTrack}
	case tKRHB:
		return trackField{f: &p.HeightBelowTrack}
	case tKRAL:
		return trackField{f: &p.AlphaTrack}
	case tKRCO:
		return trackField{v: &p.ColorTrack}
	case tKRTX:
		return trackField{u: &p.TextureSlotTrack}
	case tKRVS:
		return trackField{f: &p.Visibility}
	}
	return trackField{}
}

func (c *Camera) track(tag uint32) trackField {
	switch tag {
	case tKCTR:
		return trackField{v: &c.Translation}
	case tKTTR:
		return trackField{v: &c.TargetTranslation}
	case tKCRL:
		return trackField{f: &c.Rotation}
	}
	return trackField{}
}
