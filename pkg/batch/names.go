package batch

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mdxrender/mdxrender/internal/extsort"
)

// Inputs of different roots keep their output names apart: where two
// inputs have the same relative path (units/a.mdx in two input folders),
// each gets its root's name in front of it (modsA/units/a.mdx,
// modsB/units/a.mdx); inputs whose relative path is their own keep it, so
// adding a second root does not rename the outputs of the first, except
// where the two really overlap (inputSet.sort).

// rootSegment makes a root's name one safe path segment.
func rootSegment(root string) string {
	r := strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(root)
	if r == "." || r == ".." {
		return "_"
	}
	return r
}

// NameClashError is the error of a batch two of whose inputs would write
// the same file under the output name template (Options.Output.Name).
type NameClashError struct {
	// Template is the output name template; A and B are the two inputs,
	// in input key order, and Stem what both would write.
	Template, A, B, Stem string
	// Suggest is a template that keeps every input apart, "" when none
	// of a few simple changes does.
	Suggest string
}

func (e *NameClashError) Error() string {
	hint := "no simple template keeps them apart: leave one out with an override (overrides: [{match: ..., skip: true}]) or rename one"
	if e.Suggest != "" {
		hint = fmt.Sprintf("output.name %q keeps every model apart", e.Suggest)
	}
	return fmt.Sprintf("output.name %q: %s and %s both write %s; %s", e.Template, e.A, e.B, e.Stem, hint)
}

// checkNames reports the first two inputs whose jobs would write the
// same file (a *NameClashError), with a template that keeps every job
// apart, if one of a few simple changes does. Skipped inputs write
// nothing.
func (o *Options) checkNames(set *inputSet) error {
	a, b, stem, ok, err := o.firstCollision(set, o.Output.Name)
	if err != nil || !ok {
		return err
	}
	e := &NameClashError{Template: o.Output.Name, A: a, B: b, Stem: stem}
	for _, t := range nameCandidates(o.Output.Name) {
		if _, _, _, clash, _ := o.firstCollision(set, t); !clash {
			e.Suggest = t
			break
		}
	}
	return e
}

// firstCollision finds two inputs whose outputs under the template share
// a stem: of the inputs that write a stem an earlier input writes, the
// first, with the first input that writes it. It sorts a hash of each
// stem with its input, twelve bytes on disk an input, not the stems, so
// that checking a hundred thousand inputs takes no more memory than a
// thousand; inputs whose hashes meet are compared by their stems.
func (o *Options) firstCollision(set *inputSet, tmpl string) (a, b, stem string, ok bool, err error) {
	stems := func(in Input) []string {
		j, skip := o.jobFor(in)
		if skip {
			return nil
		}
		var out []string
		for _, v := range j.Views {
			for _, t := range j.Teams {
				out = append(out, stemFor(tmpl, &j, v.Name, t.Name))
			}
		}
		return out
	}
	hashes := extsort.New(bytes.Compare, sortMemory)
	defer hashes.Close()
	var rec [12]byte
	var addErr error
	err = set.each(func(i int, in Input) bool {
		for _, s := range stems(in) {
			if addErr = hashes.Add(hashRecord(&rec, hashString(s), i)); addErr != nil {
				return false
			}
		}
		return true
	})
	if err = errors.Join(err, addErr); err != nil {
		return "", "", "", false, err
	}
	// writer is the first of inputs that writes the stem s.
	writer := func(inputs []int, s string) (Input, bool, error) {
		for _, i := range inputs {
			in, err := set.input(i)
			if err != nil || slices.Contains(stems(in), s) {
				return in, err == nil, err
			}
		}
		return Input{}, false, nil
	}
	// The best clash so far: its later input, and which of that input's
	// stems it is.
	bestJ, bestPos := -1, 0
	err = eachHashGroup(hashes, func(hash uint64, group []int) error {
		for n, j := range group {
			if bestJ >= 0 && j > bestJ {
				break
			}
			if n == 0 || j == group[n-1] {
				continue // the first of the hash, or j's own stems again
			}
			later, err := set.input(j)
			if err != nil {
				return err
			}
			for pos, s := range stems(later) {
				if hashString(s) != hash || (j == bestJ && pos >= bestPos) {
					continue
				}
				earlier, found, err := writer(group[:n], s)
				if err != nil {
					return err
				}
				if found {
					bestJ, bestPos = j, pos
					a, b, stem, ok = earlier.Key, later.Key, s, true
				}
			}
		}
		return nil
	})
	return a, b, stem, ok, err
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
