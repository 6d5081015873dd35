package batch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/internal/forms"
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
	// Options is a hash of the settings that decide what a batch renders
	// (inputs as configured, output names and formats, render, views,
	// sequences, teams, sheet and check options; not the folders'
	// locations): the shards of one batch agree on it.
	Options string `json:"options,omitempty"`
	// Shards lists the shards the manifest covers ("0/4"), empty for an
	// unsharded run; Missing, in a merged manifest of a partial set, the
	// shards it lacks.
	Shards  []string `json:"shards,omitempty"`
	Missing []string `json:"missing,omitempty"`
	// Interrupted is set when the run was stopped (SIGINT, SIGTERM) before
	// every model was done: Models holds the models that finished.
	Interrupted bool `json:"interrupted,omitempty"`
	// Reports are the report files the run wrote beside the manifest.
	Reports Reports `json:"reports"`
	// Skipped are the entries of input folders that were not taken (FIFOs,
	// devices, dangling links, link loops), each with the reason.
	Skipped []string `json:"skipped,omitempty"`
	// Pruned lists the files --prune removed, relative to the output
	// folder.
	Pruned  []string      `json:"pruned,omitempty"`
	Summary Summary       `json:"summary"`
	Models  []ModelResult `json:"models"`
}

// Reports names the report files of a run, relative to the output folder,
// as an unsharded run names them; "" for one not written. A shard adds
// its share to each name (junit-0-of-4.xml, see ReportName), and merge
// writes these names.
type Reports struct {
	JUnit   string `json:"junit,omitempty"`
	Summary string `json:"summary,omitempty"`
	Gallery string `json:"gallery,omitempty"`
	// Icons is the page of the icons (IconPage).
	Icons string `json:"icons,omitempty"`
}

// Summary counts models and golden checks.
type Summary struct {
	Models   int `json:"models"`
	OK       int `json:"ok"`
	Cached   int `json:"cached"`
	Failed   int `json:"failed"`
	Warnings int `json:"warnings"`
	// WarningCodes counts the warnings by code (render.WarningCode):
	// how many pictures lack a texture, a PopcornFX effect ("popcorn"),
	// and so on, without reading every model's list.
	WarningCodes map[string]int `json:"warning_codes,omitempty"`
	Checks       int            `json:"checks,omitempty"`
	Regressions  int            `json:"regressions,omitempty"`
	Updated      int            `json:"updated,omitempty"`
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

	// Icons, in a batch that makes icons, says whether the model is a
	// unit's and what its icons are called.
	Icons *IconResult `json:"icons,omitempty"`
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
	Kind     string `json:"kind"` // png, sheet, sheet-json, sheet-aseprite-json, sheet-godot, sheet-plain-json, gif, apng, icon, icon-png
	View     string `json:"view,omitempty"`
	Team     string `json:"team,omitempty"`
	Sequence string `json:"sequence,omitempty"`
	// TimeMs is, for a still, its time after the start of Sequence
	// (render.time resolved against the sequence length; absent: 0).
	TimeMs uint32 `json:"timeMs,omitempty"`
	// Icon and Size are, for an icon (KindIcon, KindIconPNG), its kind
	// (BTN, DISBTN, ...) and side in pixels.
	Icon string `json:"icon,omitempty"`
	Size int    `json:"size,omitempty"`
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
	var s Summary
	for i := range m.Models {
		s.add(&m.Models[i])
	}
	m.Summary = s
}

// add counts one model.
func (s *Summary) add(r *ModelResult) {
	s.Models++
	switch r.Status {
	case StatusOK:
		s.OK++
	case StatusCached:
		s.Cached++
	case StatusFailed:
		s.Failed++
	}
	s.Warnings += len(r.Warnings)
	for _, w := range r.Warnings {
		if s.WarningCodes == nil {
			s.WarningCodes = map[string]int{}
		}
		s.WarningCodes[string(w.Code)]++
	}
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
	return parseManifest(name, b)
}

// parseManifest decodes the manifest file name holds b.
func parseManifest(name string, b []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if m.Tool != "mdxrender" {
		return nil, fmt.Errorf("%s: not an mdxrender manifest (tool %q)", name, m.Tool)
	}
	return &m, nil
}

// MergeOptions change what Merge accepts.
type MergeOptions struct {
	// Partial accepts a set of shards that lacks some (a shard that failed
	// to run, or an interrupted one): the merged manifest lists the
	// missing shards in Missing.
	Partial bool
}

// Merge joins the manifests of the shards of one batch. The shards must
// be all of one batch: the same program version and options, shards i/n of
// one n, each once, none missing and none interrupted (unless
// o.Partial), and no model in two of them.
func Merge(o MergeOptions, ms ...*Manifest) (*Manifest, error) {
	if len(ms) == 0 {
		return nil, fmt.Errorf("merge: no manifests")
	}
	out := &Manifest{Tool: "mdxrender", Version: ms[0].Version, Options: ms[0].Options, Reports: ms[0].Reports}
	seen := map[string]int{}
	shards := map[int]int{}
	count := 0
	var partial []string
	for i, m := range ms {
		if m.Version != out.Version {
			return nil, fmt.Errorf("merge: manifest %d is from version %s, manifest 0 from %s", i, m.Version, out.Version)
		}
		if m.Options != out.Options {
			return nil, fmt.Errorf("merge: manifest %d was run with other options than manifest 0 (options %.12s, not %.12s): shards of one batch share one configuration", i, m.Options, out.Options)
		}
		if (m.Reports.JUnit != "") != (out.Reports.JUnit != "") {
			return nil, fmt.Errorf("merge: manifest %d and manifest 0 mix check and batch runs", i)
		}
		if out.Reports.Icons == "" {
			out.Reports.Icons = m.Reports.Icons
		}
		if out.Reports.Gallery == "" {
			out.Reports.Gallery = m.Reports.Gallery
		}
		if len(m.Shards) == 0 {
			return nil, fmt.Errorf("merge: manifest %d is not a shard's (no shards listed); merge joins the manifest-I-of-N.json of one sharded batch", i)
		}
		for _, s := range m.Shards {
			sh, err := readShard(s)
			if err != nil {
				return nil, fmt.Errorf("merge: manifest %d: shard %q: %w", i, s, err)
			}
			if count == 0 {
				count = sh.Count
			} else if sh.Count != count {
				return nil, fmt.Errorf("merge: manifest %d is shard %s, another of %d shards: shards of one batch share one count", i, s, count)
			}
			if j, dup := shards[sh.Index]; dup {
				return nil, fmt.Errorf("merge: shard %s appears in manifest %d and manifest %d", s, j, i)
			}
			shards[sh.Index] = i
		}
		if m.Interrupted {
			partial = append(partial, fmt.Sprintf("manifest %d (shards %s) was interrupted", i, strings.Join(m.Shards, ", ")))
			out.Interrupted = true
		}
		out.Missing = append(out.Missing, m.Missing...)
		out.Skipped = append(out.Skipped, m.Skipped...)
		out.Pruned = append(out.Pruned, m.Pruned...)
		for _, r := range m.Models {
			if j, ok := seen[r.Input]; ok {
				return nil, fmt.Errorf("merge: %s is in manifest %d and manifest %d", r.Input, j, i)
			}
			seen[r.Input] = i
			out.Models = append(out.Models, r)
		}
	}
	for i := 0; i < count; i++ {
		if _, ok := shards[i]; ok {
			out.Shards = append(out.Shards, Shard{i, count}.String())
		} else {
			out.Missing = append(out.Missing, Shard{i, count}.String())
		}
	}
	if len(out.Missing) > 0 {
		partial = append(partial, fmt.Sprintf("shards %s of %d are missing", strings.Join(out.Missing, ", "), count))
	}
	if len(partial) > 0 && !o.Partial {
		return nil, fmt.Errorf("merge: incomplete batch: %s (accept a partial set with --partial)", strings.Join(partial, "; "))
	}
	sort.SliceStable(out.Models, func(i, j int) bool { return out.Models[i].Input < out.Models[j].Input })
	out.summarize()
	return out, nil
}

// readShard reads a shard as a manifest lists it ("0/4", Shard.String).
func readShard(s string) (Shard, error) {
	i, n, err := forms.Shard(s)
	return Shard{i, n}, err
}

// ReportName is the name a run's report file (manifest.json, junit.xml,
// summary.md, index.html) gets in the output folder: shard i/n adds
// "-i-of-n" before the extension, so the shards of a batch can share one
// folder without overwriting each other's reports; a merged or unsharded
// manifest uses the name as it is.
func ReportName(name string, m *Manifest) string {
	if len(m.Shards) != 1 || len(m.Missing) > 0 { // a merged manifest, even of one shard
		return name
	}
	s, err := readShard(m.Shards[0])
	if err != nil || s.Count < 2 {
		return name
	}
	ext := path.Ext(name)
	return fmt.Sprintf("%s-%d-of-%d%s", strings.TrimSuffix(name, ext), s.Index, s.Count, ext)
}

// WriteReports writes the manifest (as name, or ReportName of it) and the
// reports m.Reports names into the folder dir, creating it if missing:
// JUnit XML, the Markdown summary and the gallery. It returns the names
// written. A report that cannot be written is left out of m.Reports and
// the others are still written; the manifest goes last, whatever
// happened to them, and the error names each file that was not written.
func (m *Manifest) WriteReports(ctx context.Context, dir, name string) ([]string, error) {
	d, err := atomicfile.Create(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return m.writeReports(ctx, d, name, memoryModels(m.Models))
}

// modelSource gives a manifest's models in order, to be written without
// holding them all: a run's come from its journal (journalModels), a
// merged manifest's from memory (memoryModels).
type modelSource interface {
	// each calls fn with every model; fn must not keep r.
	each(fn func(r *ModelResult) error) error
	// eachJSON calls fn with every model as compact JSON, as
	// json.Marshal encodes a ModelResult; fn must not keep b.
	eachJSON(fn func(b []byte) error) error
}

// memoryModels are a manifest's models held in memory.
type memoryModels []ModelResult

func (ms memoryModels) each(fn func(r *ModelResult) error) error {
	for i := range ms {
		if err := fn(&ms[i]); err != nil {
			return err
		}
	}
	return nil
}

func (ms memoryModels) eachJSON(fn func(b []byte) error) error {
	for i := range ms {
		b, err := json.Marshal(&ms[i])
		if err == nil {
			err = fn(b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (m *Manifest) writeReports(ctx context.Context, d *atomicfile.Dir, name string, models modelSource) ([]string, error) {
	if name == "" {
		name = ReportName("manifest.json", m)
	}
	var written []string
	var errs []error
	check := m.Reports.JUnit != ""
	report := func(file *string, write func(n string) ([]string, error)) {
		if *file == "" {
			return
		}
		n := ReportName(*file, m)
		names, err := write(n)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s was not written: %w", n, err))
			*file = "" // the manifest lists what is there
			return
		}
		written = append(written, names...)
	}
	// The reports are flushed to disk together, before the manifest: a
	// gallery of a hundred thousand models has two hundred pages, and a
	// flush of each cost seconds on a busy disk.
	g := d.Group()
	one := func(write func(m *Manifest, models modelSource, w io.Writer) error) func(n string) ([]string, error) {
		return func(n string) ([]string, error) {
			err := g.Write(ctx, n, func(w io.Writer) error { return write(m, models, w) })
			return []string{n}, err
		}
	}
	report(&m.Reports.JUnit, one(writeJUnit))
	report(&m.Reports.Summary, one(writeMarkdownSummary))
	// The icons page first: the gallery links to it if it was written.
	report(&m.Reports.Icons, one(writeIconPage))
	report(&m.Reports.Gallery, func(n string) ([]string, error) { return writeGallery(ctx, d, g, n, m, models, check) })
	if err := g.Sync(); err != nil {
		errs = append(errs, fmt.Errorf("flushing the reports to disk: %w", err))
	}
	// The manifest goes last: a reader that finds it finds the reports.
	err := d.Write(ctx, name, func(w io.Writer) error { return m.writeJSON(w, models) })
	if err != nil {
		errs = append(errs, fmt.Errorf("%s was not written: %w", name, err))
	} else {
		written = append(written, name)
	}
	return written, errors.Join(errs...)
}

// writeJSON writes the manifest as MarshalIndent does, with the models
// from models, one at a time.
func (m *Manifest) writeJSON(w io.Writer, models modelSource) error {
	head := *m
	head.Models = nil
	b, err := head.MarshalIndent()
	if err != nil {
		return err
	}
	// The head ends with the models' null: the models go in its place.
	const tail = "\"models\": null\n}\n"
	if !bytes.HasSuffix(b, []byte(tail)) {
		return fmt.Errorf("manifest: unexpected encoding")
	}
	b = b[:len(b)-len(tail)]
	if _, err := w.Write(b); err != nil {
		return err
	}
	var buf bytes.Buffer
	n := 0
	err = models.eachJSON(func(r []byte) error {
		buf.Reset()
		if n == 0 {
			buf.WriteString("\"models\": [\n    ")
		} else {
			buf.WriteString(",\n    ")
		}
		n++
		if err := json.Indent(&buf, r, "    ", "  "); err != nil {
			return err
		}
		_, err := w.Write(buf.Bytes())
		return err
	})
	if err != nil {
		return err
	}
	if n == 0 {
		_, err = io.WriteString(w, tail)
	} else {
		_, err = io.WriteString(w, "\n  ]\n}\n")
	}
	return err
}

// ManifestPath is the file a run with these options writes the manifest
// m (from Run) to.
func (o *Options) ManifestPath(m *Manifest) string {
	return filepath.Join(o.outDir(), ManifestName(m))
}

// EachModel calls fn with every model of the manifest file name, in
// order, reading them one at a time: a manifest of a hundred thousand
// models is read in the memory of one. fn must not keep r; an error from
// fn stops the reading and is returned.
func EachModel(name string, fn func(r *ModelResult) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<16))
	fail := func(err error) error { return fmt.Errorf("%s: offset %d: %w", name, dec.InputOffset(), err) }
	want := func(d json.Delim) error {
		t, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		if t != d {
			return fail(fmt.Errorf("want %v, found %v", d, t))
		}
		return nil
	}
	if err := want('{'); err != nil {
		return err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		if t != "models" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return fail(err)
			}
			continue
		}
		if !dec.More() {
			break
		}
		// null (no models) or a list.
		t, err = dec.Token()
		if err != nil {
			return fail(err)
		}
		if t == nil {
			continue
		}
		if t != json.Delim('[') {
			return fail(fmt.Errorf("models: want a list, found %v", t))
		}
		for dec.More() {
			var r ModelResult
			if err := dec.Decode(&r); err != nil {
				return fail(err)
			}
			if err := fn(&r); err != nil {
				return err
			}
		}
		if err := want(']'); err != nil {
			return err
		}
	}
	return want('}')
}
