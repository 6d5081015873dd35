package particles

// newPREMEmitters builds the old particle emitters (PREM) of s.Model(), in
// model order. Placeholder until the PREM implementation replaces this
// file (see /work/notes/particles-contract.md).
func newPREMEmitters(s *Sim) []emitter { return nil }
