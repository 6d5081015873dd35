package particles

import "github.com/mdxrender/mdxrender/pkg/pose"

// pre2Emitter simulates one PRE2 emitter.
type pre2Emitter struct {
	idx int // node index
}

// updater is the viewer's EmittedObjectUpdater for PRE2 particles.
type updater struct {
	list []*particle2
}

type particle2 struct{}

func (u *updater) update(dt float64) {}

func newPRE2Emitters(s *Sim) []emitter { return nil }

func (e *pre2Emitter) nodeIdx() int                                      { return e.idx }
func (e *pre2Emitter) step(s *Sim, p *pose.Pose, dt float64, spawn bool) {}
func (e *pre2Emitter) appendMeshes(s *Sim, p *pose.Pose, cam Camera, out []Mesh) []Mesh {
	return out
}
func (e *pre2Emitter) reset() {}
