package render

import (
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/mdx"
	"github.com/mdxrender/mdxrender/pkg/particles"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// Dependencies lists the files that drawing m in the given teams' colours
// reads besides the model itself, each once, in a fixed order: the texture
// files its texture records resolve to (team colour and glow once per
// team; an HD material's unused environment map included), the team
// colour an HD team-colour slot shows, the replaceable textures of its
// particle emitters, and the models
// its PREM emitters spawn (listed even when they fail to decode, as their
// bytes still decide the picture). A cache keyed on their contents
// re-renders a model when one of them changes.
//
// Reading the spawned models to find their files is charged to meter (nil:
// a Meter within the default limits).
func Dependencies(m *mdx.Model, tex Textures, teams []texture.Team, meter *budget.Meter) []texture.File {
	if tex.Resolver == nil {
		tex.Resolver = &texture.Resolver{}
	}
	var out []texture.File
	seen := map[string]bool{}
	add := func(f texture.File) {
		if k := f.String(); !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	find := func(p string) {
		if f, _, err := tex.Resolver.Find(tex.Local, p); err == nil {
			add(f)
		}
	}
	replaceable := func(id uint32) {
		for _, team := range teams {
			player, ok := team.Player()
			if !ok && (id == texture.ReplaceableTeamColor || id == texture.ReplaceableTeamGlow) {
				continue // a custom colour reads no file
			}
			if p, ok := texture.ReplaceablePath(id, max(player, 0), hdTextures(m)); ok {
				find(p)
			}
		}
	}
	for _, t := range m.Textures {
		switch {
		case t.Path != "":
			find(t.Path)
		case isWoW(m):
			// WoW replaceable ids name no file (drawn white)
		default:
			replaceable(t.ReplaceableID)
		}
	}
	if isWoW(m) {
		return out
	}
	// An HD team colour slot shows the team colour for a team glow id too.
	for mi := range m.Materials {
		for _, p := range HDPasses(m, mi) {
			if id := p.Textures[SlotTeamColor]; id >= 0 && id < len(m.Textures) && m.Textures[id].ReplaceableID == texture.ReplaceableTeamGlow {
				replaceable(texture.ReplaceableTeamColor)
			}
		}
	}
	for _, e := range m.ParticleEmitters2 {
		if e.ReplaceableID != 0 {
			replaceable(e.ReplaceableID)
		}
	}
	a := &Animator{m: m, tex: tex, spawned: map[string]texture.File{}, Meter: meter}
	load := particles.FileModelLoader(spawnFinder{a, tex.Local}, a.meter().Limits())
	for _, e := range m.ParticleEmitters {
		if e.Path == "" {
			continue
		}
		if _, name, _ := load(e.Path); name != "" {
			add(a.spawned[name])
		}
	}
	return out
}
