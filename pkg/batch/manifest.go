package batch

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// Model result statuses.
const (
	StatusOK     = "ok"
	StatusCached = "cached" // inputs unchanged; outputs from an earlier run
	StatusFailed = "failed"
)

// Manifest describes a run: one entry per model, ordered by input key.
type Manifest struct {
	Tool    string `json:"tool"`
	Version string `json:"version"`
	// Shards lists the shards the manifest covers ("0/4"), empty for an
	// unsharded run.
	Shards  []string      `json:"shards,omitempty"`
	Summary Summary       `json:"summary"`
	Models  []ModelResult `json:"models"`
}

// Summary counts models and golden checks.
type Summary struct {
	Models      int `json:"models"`
	OK          int `json:"ok"`
	Cached      int `json:"cached"`
	Failed      int `json:"failed"`
	Warnings    int `json:"warnings"`
	Checks      int `json:"checks,omitempty"`
	Regressions int `json:"regressions,omitempty"`
	Updated     int `json:"updated,omitempty"`
}

// ModelResult is one model's outcome.
type ModelResult struct {
	// Input is the input key (see Input.Key); Rel its relative path.
	Input     string       `json:"input"`
	Rel       string       `json:"rel"`
	Status    string       `json:"status"`
	Outputs   []OutputFile `json:"outputs,omitempty"`
	Sequences []string     `json:"sequences,omitempty"`
	Warnings  []Warning    `json:"warnings,omitempty"`
	// Errors explain a failed model: which step failed and why.
	Errors   []string      `json:"errors,omitempty"`
	Checks   []CheckResult `json:"checks,omitempty"`
	Timings  Timings       `json:"timings"`
	CacheKey string        `json:"cacheKey,omitempty"`
}

// Failed reports whether the model failed or one of its checks regressed.
func (r *ModelResult) Failed() bool {
	if r.Status == StatusFailed {
		return true
	}
	for _, c := range r.Checks {
		if c.Failed() {
			return true
		}
	}
	return false
}

// OutputFile is one written file; Path is relative to the output folder,
// with slashes.
type OutputFile struct {
	Path     string `json:"path"`
	Kind     string `json:"kind"` // png, sheet, sheet-json, sheet-aseprite-json, sheet-godot, sheet-plain-json, gif, apng
	View     string `json:"view,omitempty"`
	Team     string `json:"team,omitempty"`
	Sequence string `json:"sequence,omitempty"`
	// TimeMs is, for a still, its time after the start of Sequence
	// (render.time resolved against the sequence length; absent: 0).
	TimeMs uint32 `json:"timeMs,omitempty"`
}

// Timings are wall-clock milliseconds of the steps of one model. They are
// the only part of a manifest that differs between identical runs.
type Timings struct {
	ReadMS   float64 `json:"readMs"`
	OpenMS   float64 `json:"openMs"`
	RenderMS float64 `json:"renderMs"`
	EncodeMS float64 `json:"encodeMs"`
	CheckMS  float64 `json:"checkMs,omitempty"`
	TotalMS  float64 `json:"totalMs"`
}

func (m *Manifest) summarize() {
	s := Summary{Models: len(m.Models)}
	for i := range m.Models {
		r := &m.Models[i]
		switch r.Status {
		case StatusOK:
			s.OK++
		case StatusCached:
			s.Cached++
		case StatusFailed:
			s.Failed++
		}
		s.Warnings += len(r.Warnings)
		for _, c := range r.Checks {
			s.Checks++
			if c.Failed() {
				s.Regressions++
			}
			if c.Status == CheckUpdated {
				s.Updated++
			}
		}
	}
	m.Summary = s
}

// Failed reports whether any model failed or regressed; the CLI exits 1.
func (m *Manifest) Failed() bool { return m.Summary.Failed > 0 || m.Summary.Regressions > 0 }

// MarshalIndent encodes the manifest as indented JSON with a final newline.
func (m *Manifest) MarshalIndent() ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	return append(b, '\n'), err
}

// ReadManifest reads a manifest.json.
func ReadManifest(name string) (*Manifest, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if m.Tool != "mdxrender" {
		return nil, fmt.Errorf("%s: not an mdxrender manifest (tool %q)", name, m.Tool)
	}
	return &m, nil
}

// Merge joins the manifests of the shards of one batch. A model listed by
// two manifests is an error (the shards overlap or one was merged twice),
// as are different program versions.
func Merge(ms ...*Manifest) (*Manifest, error) {
	out := &Manifest{Tool: "mdxrender"}
	seen := map[string]int{}
	shards := map[string]bool{}
	for i, m := range ms {
		if i == 0 {
			out.Version = m.Version
		} else if m.Version != out.Version {
			return nil, fmt.Errorf("merge: manifest %d is from version %s, manifest 0 from %s", i, m.Version, out.Version)
		}
		for _, s := range m.Shards {
			if shards[s] {
				return nil, fmt.Errorf("merge: shard %s appears in two manifests", s)
			}
			shards[s] = true
			out.Shards = append(out.Shards, s)
		}
		for _, r := range m.Models {
			if j, ok := seen[r.Input]; ok {
				return nil, fmt.Errorf("merge: %s is in manifest %d and manifest %d", r.Input, j, i)
			}
			seen[r.Input] = i
			out.Models = append(out.Models, r)
		}
	}
	sort.Strings(out.Shards)
	sort.SliceStable(out.Models, func(i, j int) bool { return out.Models[i].Input < out.Models[j].Input })
	out.summarize()
	return out, nil
}
