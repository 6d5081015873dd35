package batch

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// separateRoots keeps the output names of inputs from different roots
// apart: where two inputs have the same relative path (units/a.mdx in two
// input folders), each gets its root's name in front of it
// (modsA/units/a.mdx, modsB/units/a.mdx). Inputs whose relative path is
// their own keep it, so adding a second root does not rename the outputs
// of the first, except where the two really overlap.
func separateRoots(ins []Input) {
	byRel := map[string][]int{}
	for i, in := range ins {
		byRel[in.Rel] = append(byRel[in.Rel], i)
	}
	for _, idx := range byRel {
		if len(idx) < 2 {
			continue
		}
		for _, i := range idx {
			if r := rootSegment(ins[i].Root); r != "" {
				ins[i].Rel = r + "/" + ins[i].Rel
			}
		}
	}
}

// rootSegment makes a root's name one safe path segment.
func rootSegment(root string) string {
	r := strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(root)
	if r == "." || r == ".." {
		return "_"
	}
	return r
}

// checkNames reports the first two jobs that would write the same file,
// with a template that keeps every job apart, if one of a few simple
// changes does.
func (o *Options) checkNames(jobs []Job) error {
	a, b, stem, ok := firstCollision(jobs, o.Output.Name)
	if !ok {
		return nil
	}
	hint := "no simple template keeps them apart: leave one out with an override (overrides: [{match: ..., skip: true}]) or rename one"
	for _, t := range nameCandidates(o.Output.Name) {
		if _, _, _, clash := firstCollision(jobs, t); !clash {
			hint = fmt.Sprintf("output.name %q keeps every model apart", t)
			break
		}
	}
	return fmt.Errorf("output.name %q: %s and %s both write %s; %s", o.Output.Name, a, b, stem, hint)
}

// firstCollision finds two jobs whose outputs under the template share a
// stem.
func firstCollision(jobs []Job, tmpl string) (a, b, stem string, ok bool) {
	owner := map[string]string{}
	for i := range jobs {
		j := &jobs[i]
		for _, v := range j.Views {
			for _, t := range j.Teams {
				s := stemFor(tmpl, j, v.Name, t.Name)
				if o, dup := owner[s]; dup && o != j.Input.Key {
					return o, j.Input.Key, s, true
				}
				owner[s] = j.Input.Key
			}
		}
	}
	return "", "", "", false
}

// nameCandidates are templates that tell more inputs apart than tmpl,
// most like it first.
func nameCandidates(tmpl string) []string {
	var out []string
	add := func(t string) {
		if t != tmpl && checkTemplate(t) == nil && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	full := strings.ReplaceAll(tmpl, "{name}", "{path}")
	if !strings.Contains(full, "{path}") {
		full = "{path}-" + full
	}
	add(full)
	if !strings.Contains(full, "{ext}") {
		add(full + "-{ext}")
	}
	if !strings.Contains(full, "{root}") {
		add("{root}/" + full)
		if !strings.Contains(full, "{ext}") {
			add("{root}/" + full + "-{ext}")
		}
	}
	return out
}

// Stem expands Output.Name for one job, view and team: a slash path
// relative to Output.Dir, without extension. If the job has several views
// or teams and the template does not name {view} or {team}, "-view" or
// "-team" is appended so the files stay apart.
func (o *Options) Stem(j *Job, view, team string) string {
	return stemFor(o.Output.Name, j, view, team)
}

func stemFor(tmpl string, j *Job, view, team string) string {
	in := j.Input
	rel := strings.TrimSuffix(in.Rel, path.Ext(in.Rel))
	// A list file may name ../x.mdx; keep every output inside output.dir.
	segs := strings.Split(strings.TrimLeft(rel, "/"), "/")
	for i, s := range segs {
		if s == ".." {
			segs[i] = "up"
		}
	}
	rel = strings.Join(segs, "/")
	dir := path.Dir(rel)
	if dir == "." {
		dir = ""
	}
	ext := strings.TrimPrefix(strings.ToLower(path.Ext(in.Rel)), ".")
	r := strings.NewReplacer("{path}", rel, "{name}", path.Base(rel), "{dir}", dir, "{root}", rootSegment(in.Root),
		"{view}", view, "{team}", team, "{ext}", ext)
	stem := r.Replace(tmpl)
	if len(j.Views) > 1 && !strings.Contains(tmpl, "{view}") {
		stem += "-" + view
	}
	if len(j.Teams) > 1 && !strings.Contains(tmpl, "{team}") {
		stem += "-" + team
	}
	return path.Clean(stem)
}
