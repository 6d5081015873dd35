package mdx

// Nodes returns pointers to every node (generic object) of the model in the
// order the reference viewer concatenates them (docs/rendering.md#order-and-parents): bones,
// lights, helpers, attachments, particle emitters, particle emitters 2,
// popcorn emitters, ribbon emitters, event objects, collision shapes. In
// Blizzard files a node's ObjectID is its position in this list. The
// pointers alias the model's slices.
func (m *Model) Nodes() []*Node {
	n := len(m.Bones) + len(m.Lights) + len(m.Helpers) + len(m.Attachments) + len(m.ParticleEmitters) +
		len(m.ParticleEmitters2) + len(m.PopcornEmitters) + len(m.RibbonEmitters) + len(m.EventObjects) + len(m.CollisionShapes)
	out := make([]*Node, 0, n)
	for i := range m.Bones {
		out = append(out, &m.Bones[i].Node)
	}
	for i := range m.Lights {
		out = append(out, &m.Lights[i].Node)
	}
	for i := range m.Helpers {
		out = append(out, &m.Helpers[i].Node)
	}
	for i := range m.Attachments {
		out = append(out, &m.Attachments[i].Node)
	}
	for i := range m.ParticleEmitters {
		out = append(out, &m.ParticleEmitters[i].Node)
	}
	for i := range m.ParticleEmitters2 {
		out = append(out, &m.ParticleEmitters2[i].Node)
	}
	for i := range m.PopcornEmitters {
		out = append(out, &m.PopcornEmitters[i].Node)
	}
	for i := range m.RibbonEmitters {
		out = append(out, &m.RibbonEmitters[i].Node)
	}
	for i := range m.EventObjects {
		out = append(out, &m.EventObjects[i].Node)
	}
	for i := range m.CollisionShapes {
		out = append(out, &m.CollisionShapes[i].Node)
	}
	return out
}
