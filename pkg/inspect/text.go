package inspect

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// WriteText writes the report as the text `mdxrender inspect` prints: a
// header, then one aligned section per non-empty part of the model, the
// nodes drawn as a tree by parent. Reports of several files are separated
// by an empty line, which is the caller's to write.
func (r *Report) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	r.render(&buf)
	// tabwriter pads every cell, including the last one of a line.
	lines := bytes.SplitAfter(buf.Bytes(), []byte("\n"))
	var trimmed bytes.Buffer
	for _, l := range lines {
		body := bytes.TrimRight(l, " \n")
		trimmed.Write(body)
		if len(l) > 0 && l[len(l)-1] == '\n' {
			trimmed.WriteByte('\n')
		}
	}
	_, err := w.Write(trimmed.Bytes())
	return err
}

// render writes the text, padded by tabwriter, for WriteText to trim.
func (r *Report) render(w *bytes.Buffer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	section := func(title string) {
		tw.Flush()
		fmt.Fprintf(w, "\n%s\n", title)
	}
	c := r.Counts
	if c == nil {
		c = &Counts{}
	}

	fmt.Fprintf(w, "%s\n", quoteIfOdd(r.File))
	if r.M2 != nil {
		p("  format\tM2 (MD20), version %d, %d bytes; drawn as WoW MDX version %d\n", r.M2.Version, r.Bytes, r.Version)
	} else {
		p("  format\t%s, version %d, %d bytes\n", strings.ToUpper(r.Format), r.Version, r.Bytes)
	}
	p("  name\t%s\n", quoteIfOdd(r.Name))
	if r.AnimationFile != "" {
		p("  animation file\t%s\n", quoteIfOdd(r.AnimationFile))
	}
	p("  blend time\t%d ms\n", r.BlendTime)
	if e := r.Extent; e != nil {
		p("  extent\tmin %s  max %s  radius %s\n", fmtVec(e.Min), fmtVec(e.Max), e.BoundsRadius)
	}
	if r.Problem != "" {
		p("  problem\t%s\n", clip.Display(r.Problem, 2*clip.MaxQuote))
	}
	var corn []string
	for _, n := range r.Nodes {
		if n.Type == "popcorn_emitter" {
			corn = append(corn, clip.Display(n.Name, clip.MaxQuote)+" ("+clip.Display(n.Path, 2*clip.MaxQuote)+")")
		}
	}
	if len(corn) > 0 {
		noun := "emitters"
		if len(corn) == 1 {
			noun = "emitter"
		}
		p("  not drawn\t%d PopcornFX %s, whose effect files the model only names: %s\n", len(corn), noun, strings.Join(corn, ", "))
	}
	if m := r.M2; m != nil {
		p("  m2 view\t%d of %d (0 is the most detailed): %d texture units; %d of %d submeshes have one and are drawn\n",
			m.View, m.Views, m.TextureUnits, m.SubmeshesDrawn, m.Submeshes)
		p("  m2 vertices\t%d in the file, %d weighted to more than one bone\n", m.Vertices, m.BoneWeighted)
		if m.Particles+m.Ribbons > 0 {
			p("  m2 emitters\t%d particle, %d ribbon\n", m.Particles, m.Ribbons)
		}
		var nd []string
		for _, k := range []string{"lights", "attachments", "particle_emitters"} {
			if n := m.NotDrawn[k]; n > 0 {
				s := fmt.Sprintf("%d %s", n, strings.ReplaceAll(k, "_", " "))
				if k == "particle_emitters" {
					s += " of a shape not simulated"
				}
				nd = append(nd, s)
			}
		}
		if len(nd) > 0 {
			p("  m2 not drawn\t%s\n", strings.Join(nd, ", "))
		}
	}

	section("Counts")
	type kv struct {
		k string
		v int
	}
	all := []kv{
		{"geosets", c.Geosets}, {"vertices", c.Vertices}, {"faces", c.Faces},
		{"materials", c.Materials}, {"layers", c.Layers}, {"textures", c.Textures},
		{"texture anims", c.TextureAnims}, {"geoset anims", c.GeosetAnims},
		{"sequences", c.Sequences}, {"global seqs", c.GlobalSequences},
		{"nodes", c.Nodes}, {"bones", c.Bones}, {"helpers", c.Helpers}, {"attachments", c.Attachments},
		{"lights", c.Lights}, {"emitters", c.ParticleEmitters}, {"emitters 2", c.ParticleEmitters2},
		{"popcorn", c.PopcornEmitters}, {"ribbons", c.RibbonEmitters}, {"event objects", c.EventObjects},
		{"collision", c.CollisionShapes}, {"cameras", c.Cameras}, {"pivot points", c.PivotPoints},
		{"face effects", c.FaceEffects}, {"bind poses", c.BindPoses}, {"sound tracks", c.SoundTracks},
		{"unknown chunks", c.UnknownChunks},
	}
	// Zero counts of the rarer chunks are noise; the first row always shows.
	var shown []kv
	for i, x := range all {
		if i < 6 || x.v != 0 {
			shown = append(shown, x)
		}
	}
	for i, x := range shown {
		if i%4 == 0 {
			p(" ")
		}
		p(" %s\t%d\t", x.k, x.v)
		if i%4 == 3 || i == len(shown)-1 {
			p("\n")
		}
	}

	if len(r.Sequences) > 0 {
		section(fmt.Sprintf("Sequences (%d)", len(r.Sequences)))
		wow := len(r.Sequences) > 0 && r.Sequences[0].Frequency != nil
		if wow {
			p("  #\tname\tstart\tend\tlength\tplay\tmove speed\tfrequency\treplay\tblend\n")
		} else {
			p("  #\tname\tstart\tend\tlength\tplay\tmove speed\trarity\n")
		}
		for i, s := range r.Sequences {
			play := "loop"
			if !s.Looping {
				play = "once"
			}
			p("  %d\t%s\t%d\t%d\t%d\t%s\t%s\t", i, quoteIfOdd(s.Name), s.Interval[0], s.Interval[1], s.Length, play, s.MoveSpeed)
			if wow && s.Frequency != nil && s.Replay != nil && s.BlendTime != nil {
				p("%s\t%d-%d\t%d ms\n", *s.Frequency, s.Replay[0], s.Replay[1], *s.BlendTime)
			} else {
				p("%s\n", s.Rarity)
			}
		}
	}
	if len(r.GlobalSequences) > 0 {
		section(fmt.Sprintf("Global sequences (%d)", len(r.GlobalSequences)))
		for i, d := range r.GlobalSequences {
			p("  %d\t%d ms\n", i, d)
		}
	}
	if len(r.Textures) > 0 {
		section(fmt.Sprintf("Textures (%d)", len(r.Textures)))
		for i, t := range r.Textures {
			what := quoteIfOdd(t.Path)
			if t.ReplaceableID != 0 {
				rep := fmt.Sprintf("replaceable %d (%s)", t.ReplaceableID, t.Replaceable)
				if t.Path == "" {
					what = rep
				} else {
					what += "  " + rep
				}
			}
			p("  %d\t%s\t%s\n", i, what, strings.Join(t.FlagNames, ","))
		}
	}
	if len(r.Materials) > 0 {
		section(fmt.Sprintf("Materials (%d)", len(r.Materials)))
		for i, mt := range r.Materials {
			p("  %d\tpriority %d", i, mt.PriorityPlane)
			if len(mt.FlagNames) > 0 {
				p("  %s", strings.Join(mt.FlagNames, ","))
			}
			if mt.Shader != "" {
				p("  shader %s", quoteIfOdd(mt.Shader))
			}
			if len(mt.Layers) == 0 {
				p("  (no layers)")
			}
			p("\n")

			for j, l := range mt.Layers {
				p("\t  layer %d\t%s\ttexture %d", j, l.FilterMode, l.TextureID)
				if l.TextureAnimID >= 0 {
					p("  tex anim %d", l.TextureAnimID)
				}
				if l.CoordID != 0 {
					p("  uv %d", l.CoordID)
				}
				p("\talpha %s", l.Alpha)
				if len(l.FlagNames) > 0 {
					p("  %s", strings.Join(l.FlagNames, ","))
				}
				if len(l.Animated) > 0 {
					p("  animated: %s", strings.Join(l.Animated, ","))
				}
				if l.ShaderTypeID != nil {
					hd := "SD"
					if *l.ShaderTypeID == 1 {
						hd = "HD"
					} else if *l.ShaderTypeID != 0 {
						hd = fmt.Sprintf("shader type %d", *l.ShaderTypeID)
					}
					p("  %s", hd)
					for _, t := range l.Textures {
						name := t.SlotName
						if name == "" {
							name = fmt.Sprintf("slot %d", t.Slot)
						}
						p("  %s=%d", name, t.TextureID)
						if t.Animated {
							p("(animated)")
						}
					}
				}
				p("\n")
			}
			// The HD draws, after the layers they are made of; no tab after
			// the first cell, so the layer columns keep their widths.
			for _, hp := range mt.HDPasses {
				how := "HD"
				if !hp.Implemented {
					how = "HD (" + hp.Shader + " drawn as " + render.ShaderHD + ")"
				}
				p("\t  %s from layer %d:", how, hp.Layer)
				for _, s := range hp.Slots {
					p(" %s=%d", s.Slot, s.TextureID)
				}
				p("\n")
			}
		}
	}
	if len(r.Geosets) > 0 {
		section(fmt.Sprintf("Geosets (%d)", len(r.Geosets)))
		p("  #\tvertices\tfaces\tmaterial\tuv sets\tgroups\t\n")
		for i, g := range r.Geosets {
			p("  %d\t%d\t%d\t%d\t%d\t%d\t", i, g.Vertices, g.Faces, g.MaterialID, g.UVSets, g.MatrixGroups)
			if g.Skinned {
				p("skinned  ")
			}
			if g.SelectionGroup != nil {
				p("group %04d  ", *g.SelectionGroup)
			}
			if g.BoneWeights != nil && *g.BoneWeights > 0 {
				p("BIDX/BWGT %d (unused)  ", *g.BoneWeights)
			}
			if g.MultiBone != nil && g.MaxBones != nil {
				p("%d blended, up to %d bones  ", *g.MultiBone, *g.MaxBones)
			}
			if r.Version >= 900 && !mdx.IsWoWVersion(r.Version) {
				p("lod %d", g.LOD)
				if g.LODName != "" {
					p(" %s", quoteIfOdd(g.LODName))
				}
			}
			p("\n")
		}
	}
	if len(r.Nodes) > 0 {
		section(fmt.Sprintf("Nodes (%d): tree by parent; id, type, animated tracks (T R S V), flags", len(r.Nodes)))
		lines, _ := layoutTree(r.Nodes)
		for _, tl := range lines {
			nd := &r.Nodes[tl.node]
			p("  %s%s\t%d\t%s\t%s\t%s\n", tl.prefix, quoteIfOdd(nd.Name), nd.ObjectID, nodeTypeLabel(nd), animLetters(nd.Animated), nodeDetail(nd))
		}
	}
	if len(r.Cameras) > 0 {
		section(fmt.Sprintf("Cameras (%d)", len(r.Cameras)))
		for i, name := range r.Cameras {
			p("  %d\t%s\n", i, quoteIfOdd(name))
		}
	}
	if len(r.UnknownChunks) > 0 {
		section(fmt.Sprintf("Unknown chunks (%d), kept as raw bytes", len(r.UnknownChunks)))
		for _, u := range r.UnknownChunks {
			p("  %s\t%d bytes\n", quoteIfOdd(u.Tag), u.Bytes)
		}
	}
	tw.Flush()
}

func nodeTypeLabel(n *Node) string {
	s := strings.ReplaceAll(n.Type, "_", " ")
	switch n.Type {
	case "light":
		s += " " + n.LightType
	case "collision_shape":
		s += " " + n.Shape
	}
	return s
}

// animLetters abbreviates the animated tracks of a node as T R S V.
func animLetters(a []string) string {
	var b strings.Builder
	for _, s := range a {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if s != "" {
			b.WriteByte(strings.ToUpper(s[:1])[0])
		}
	}
	return b.String()
}

func nodeDetail(n *Node) string {
	var parts []string
	if n.TreeNote != "" {
		parts = append(parts, "("+n.TreeNote+")")
	}
	if n.Path != "" {
		parts = append(parts, quoteIfOdd(n.Path))
	}
	if n.TextureID != nil {
		parts = append(parts, fmt.Sprintf("texture %d %s", *n.TextureID, n.FilterMode))
	}
	if n.MaterialID != nil {
		parts = append(parts, fmt.Sprintf("material %d", *n.MaterialID))
	}
	if n.EventFrames != nil {
		parts = append(parts, fmt.Sprintf("%d frames", *n.EventFrames))
	}
	if len(n.FlagNames) > 0 {
		parts = append(parts, strings.Join(n.FlagNames, ","))
	}
	return strings.Join(parts, "  ")
}

// quoteIfOdd shows a name from the file as it is, or quoted and clipped
// (clip.Quote) where it would be invisible, break the layout or the
// terminal, or fill it: empty, spaces at its ends, control characters,
// tabs, text-reversing marks, bytes that are not UTF-8, a replacement
// character, more than clip.MaxQuote bytes.
func quoteIfOdd(s string) string {
	if s == "" || len(s) > clip.MaxQuote || strings.TrimSpace(s) != s || strings.ContainsRune(s, 0xfffd) || clip.Display(s, len(s)) != s {
		return clip.Quote(s)
	}
	return s
}

func fmtVec(v [3]Float) string {
	return "(" + v[0].String() + ", " + v[1].String() + ", " + v[2].String() + ")"
}
