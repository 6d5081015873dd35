package batch

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mdxrender/mdxrender/internal/atomicfile"
	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/internal/fsread"
	"github.com/mdxrender/mdxrender/internal/pngenc"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/render"
)

// Observer is told about progress. Planned is called once before work
// starts; Finished once per model, from a single goroutine, in completion
// order (which depends on scheduling; the manifest does not).
type Observer interface {
	Planned(total int)
	Finished(r *ModelResult)
}

// StartObserver is an Observer that is also told when a model starts, so
// that it can show what is running: in.Key names it as Finished's
// ModelResult.Input does, in.Rel by its path below the input folder.
// Started is called from the workers, several at once.
type StartObserver interface {
	Observer
	Started(in *Input)
}

// Runner runs a batch. Build one per run.
type Runner struct {
	Options *Options
	// Renderer draws the models; nil means NewRenderer(Options.TextureCache,
	// Options.Jobs), closed when Run returns.
	Renderer Renderer
	// Version is the program version; it is part of the cache key, so a new
	// release re-renders everything.
	Version string
	// buildKey is the version as the cache keys take it (buildKey).
	buildKey string
	// Check compares outputs with the goldens in Options.Check.Golden (or
	// rewrites them with Options.Check.Update) and writes the reports.
	Check bool
	// Observer may be nil.
	Observer Observer
	// StopGrace is how long Run waits for a model to stop once its
	// context is done (the batch was interrupted, or the model ran past
	// Options.ModelTimeout) before it leaves it behind and moves on, so
	// that a renderer that does not watch its context cannot hold the
	// batch; 0 means DefaultStopGrace.
	StopGrace time.Duration

	out    *durable        // the current Run's outputs and journal
	stamps *stamper        // the current Run's stamps and texture hashes
	golden *atomicfile.Dir // the golden folder, when Check rewrites it
}

// DefaultStopGrace is Runner.StopGrace's default.
const DefaultStopGrace = time.Second

// errModelTimeout is the cause of a model's context when it ran past
// Options.ModelTimeout.
var errModelTimeout = errors.New("model timeout")

// Run renders every planned model with a pool of Options.Jobs workers. A
// model that fails, or runs past Options.ModelTimeout, is recorded in the
// manifest and the batch goes on. Each finished model is recorded in the
// run's journal (see journal.go) as it finishes; the manifest, check
// reports and gallery are written from it at the end. The error is only
// for problems with the run itself (options that do not validate,
// planning, another batch writing into the output folder, an unwritable
// output folder, cancellation) or with writing its records: a report,
// the manifest or the journal that could not be written (the manifest is
// then returned with the error).
//
// The Manifest returned has the run's summary, reports and warnings but
// not its models, which can be a hundred thousand: they are in the
// manifest file (ReadManifest, EachModel), and an Observer is given each
// as it finishes.
//
// If ctx is cancelled, Run stops taking models and cancels the ones in
// flight through their contexts (a model that does not stop within
// StopGrace is left behind: it can no longer write a file); it removes
// temporary files, writes a manifest of the models that finished, marked
// Interrupted, and returns it with ctx.Err(). Finished models are in the
// journal, so the next run resumes where this one stopped.
func (r *Runner) Run(ctx context.Context) (*Manifest, error) {
	c := r.Options
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	r.buildKey = buildKey(r.version(), programHash)
	if r.Renderer == nil {
		d := NewRenderer(c.TextureCache, c.Jobs)
		defer d.Close()
		r.Renderer = d
		defer func() { r.Renderer = nil }()
	}
	out, err := atomicfile.Create(c.outDir())
	if err != nil {
		return nil, fmt.Errorf("batch: output folder: %w", err)
	}
	defer out.Close()
	sh := c.Shard
	unlock, err := lockOutput(out, sh)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := out.SweepTemp(); err != nil {
		return nil, fmt.Errorf("batch: removing leftovers of an interrupted run: %w", err)
	}
	if r.Check && c.Check.Update {
		g, err := atomicfile.Create(resolve(c.base(), c.Check.Golden))
		if err != nil {
			return nil, fmt.Errorf("batch: golden folder: %w", err)
		}
		defer g.Close()
		r.golden = g
	}
	r.stamps = &stamper{}
	var earlier *earlierFiles
	if c.Prune {
		// What earlier runs wrote, read before this run replaces the
		// manifests and journals that say so.
		earlier = claims(out)
	}
	var arch archives
	defer arch.close()
	p, err := c.plan(&arch)
	if err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	defer p.set.close()
	// The models this run renders: the inputs of its shard that no
	// override skips.
	total := 0
	if err := p.set.each(func(_ int, in Input) bool {
		if c.keep(in) {
			total++
		}
		return true
	}); err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	j, err := openJournal(ctx, out, journalName(sh))
	if err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	defer j.close()
	r.out = newDurable(out)
	r.out.j = j
	if r.Observer != nil {
		r.Observer.Planned(total)
	}
	workers := c.Jobs
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, max(total, 1))

	// What the run keeps per model: how it ended, one byte, and where
	// its line is in the journal, on disk once its page is placed
	// (offsetTable), so that memory stays flat.
	offsets := newOffsetTable(total)
	defer offsets.close()
	states := make([]modelState, total)
	r.out.placed = offsets.set
	next := make(chan *task)
	done := make(chan *task)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				t.res = r.runModel(ctx, t)
				// A model the interruption cut short did not finish; one
				// that completed just as it came did.
				t.cut = ctx.Err() != nil && t.res.Status == StatusFailed
				done <- t
			}
		}()
	}
	var planErr error
	go func() {
		defer close(next)
		cur := j.cursor()
		i := 0
		planErr = p.set.each(func(_ int, in Input) bool {
			// The inputs keep takes, their jobs made once.
			if !c.Shard.Contains(in.Key) {
				return true
			}
			jb, skip := p.jobFor(c, in)
			if skip {
				return true
			}
			t := &task{i: i, job: jb, oldOff: -1}
			i++
			if line, off, ok := cur.find(in.Key); ok {
				t.old, t.oldOff = line, off
			}
			select {
			case next <- t:
				return true
			case <-ctx.Done():
				return false
			}
		})
		if planErr == nil {
			planErr = cur.err()
		}
	}()
	go func() { wg.Wait(); close(done) }()
	var sum Summary
	for t := range done {
		if t.cut {
			continue
		}
		states[t.i] = stateOf(&t.res)
		sum.add(&t.res)
		if r.Observer != nil {
			r.Observer.Finished(&t.res)
		}
		switch {
		case t.line != nil:
			r.out.finished(t.i, t.line)
		case t.oldOff >= 0:
			offsets.set(t.i, t.oldOff)
		default:
			// No line to read it from: the reports leave it out.
			states[t.i] = notFinished
			offsets.set(t.i, 0)
		}
	}

	m := &Manifest{Tool: "mdxrender", Version: r.version(), Options: c.optionsHash(), Skipped: p.warnings, Summary: sum}
	if sh.Count > 1 {
		m.Shards = []string{sh.String()}
	}
	if r.Check {
		m.Reports.JUnit, m.Reports.Summary = c.Check.JUnit, c.Check.Summary
	}
	if c.Output.Gallery {
		m.Reports.Gallery = "index.html"
	}
	if c.hasFormat(FormatIcons) {
		m.Reports.Icons = IconPageName
	}
	// The finished models' lines, before the manifest that lists them.
	flushErr := r.out.close()
	if flushErr != nil {
		flushErr = fmt.Errorf("batch: %w", flushErr)
	}
	if planErr != nil {
		flushErr = errors.Join(flushErr, fmt.Errorf("batch: %w", planErr))
	}
	finished := &journalModels{j: j, offsets: offsets, states: states}
	if err := ctx.Err(); err != nil {
		// Write what there is, however the run was stopped: the writes
		// must not be cancelled with it.
		wctx := context.WithoutCancel(ctx)
		out.SweepTemp()
		m.Interrupted = true
		m.Reports = Reports{}
		if _, err := m.writeReports(wctx, out, ManifestName(m), finished); err != nil {
			return m, fmt.Errorf("batch: interrupted, and the manifest of the finished models was not written: %w", err)
		}
		return m, err
	}
	if c.Prune {
		m.Pruned = prune(out, earlier, p.all, finished)
	}
	// A run that went through starts the next one's journal: its own
	// models, in order; the manifest and reports are read from it.
	if flushErr == nil {
		if err := finished.compact(ctx); err != nil {
			flushErr = fmt.Errorf("batch: %w", err)
		}
	}
	if _, err := m.writeReports(ctx, out, ManifestName(m), finished); err != nil {
		return m, errors.Join(flushErr, err)
	}
	return m, flushErr
}

// task is one model on its way through the workers.
type task struct {
	i   int
	job Job
	// old is the journal's line for the model, from an earlier run
	// (nil: none), and oldOff where it is.
	old    []byte
	oldOff int64
	res    ModelResult
	cut    bool
	// line is the model's new journal line; nil when old stands.
	line []byte
}

// modelState is how a model ended in this run.
type modelState uint8

const (
	notFinished modelState = iota
	finishedOK
	finishedCached
	finishedFailed
)

func stateOf(r *ModelResult) modelState {
	switch r.Status {
	case StatusCached:
		return finishedCached
	case StatusFailed:
		return finishedFailed
	}
	return finishedOK
}

// version is the version the run records: Runner.Version, else the
// module's from the program's build information.
func (r *Runner) version() string {
	if r.Version != "" {
		return r.Version
	}
	return ModuleVersion()
}

func mustIndent(m *Manifest) []byte {
	b, _ := m.MarshalIndent() // a Manifest always encodes
	return b
}

func (o *Options) outDir() string { return resolve(o.base(), o.Output.Dir) }

// ManifestName is the manifest's file name in the output folder; a sharded
// run adds the shard ("manifest-0-of-4.json") so shards can share a folder
// (ReportName).
func ManifestName(m *Manifest) string { return ReportName("manifest.json", m) }

// runModel renders one model under its own context, which ends at
// Options.ModelTimeout or when ctx does, and waits at most StopGrace for it
// to stop after that.
func (r *Runner) runModel(ctx context.Context, t *task) ModelResult {
	job := &t.job
	if s, ok := r.Observer.(StartObserver); ok {
		s.Started(&job.Input)
	}
	start := time.Now()
	// One context, cancelled when the model is done: a context made and
	// not cancelled stays registered with a cancellable ctx (the command
	// line's) for the rest of the run, some 130 bytes a model.
	var mctx context.Context
	var cancel context.CancelFunc
	limit := r.Options.ModelTimeout
	if limit > 0 {
		mctx, cancel = context.WithTimeoutCause(ctx, limit, errModelTimeout)
	} else {
		mctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	ch := make(chan ModelResult, 1)
	var line []byte // the model's journal line, once it is done
	go func() {
		res, l := r.runJob(mctx, t)
		line = l
		ch <- res
	}()
	grace := r.StopGrace
	if grace <= 0 {
		grace = DefaultStopGrace
	}
	var res ModelResult
	select {
	case res = <-ch:
		t.line = line
	case <-mctx.Done():
		select {
		case res = <-ch:
			t.line = line
		case <-time.After(grace):
			res = ModelResult{Input: job.Input.Key, Rel: job.Input.Rel, Status: StatusFailed,
				Errors: []string{"stopped waiting for it: the renderer did not stop within " + grace.String()}}
			res.Timings.TotalMS = ms(time.Since(start))
		}
	}
	if ctx.Err() == nil && errors.Is(context.Cause(mctx), errModelTimeout) {
		res.Status, res.CacheKey = StatusFailed, ""
		errs := []string{fmt.Sprintf("timed out after %s (model_timeout %g s; raise it with --model-timeout or model_timeout)", limit, limit.Seconds())}
		for _, e := range res.Errors {
			if !strings.Contains(e, context.DeadlineExceeded.Error()) {
				errs = append(errs, e)
			}
		}
		res.Errors = errs
	}
	if res.Status == StatusFailed {
		// Recorded as it is now: a timeout or a renderer left behind
		// changed it after runJob made its line.
		t.line = journalLine(&res, "", nil)
	}
	return res
}

// jobRun carries one model's state through its steps.
type jobRun struct {
	r     *Runner
	ctx   context.Context
	job   *Job
	t     *task
	res   ModelResult
	model Model
	info  ModelInfo
	warn  map[[2]string]bool // code and message
	// stamps are what the result came from, for the journal (nil: not
	// all on disk); reuse is set when the journal's old line stands for
	// the result as it is.
	stamps  []string
	jobHash string
	reuse   bool
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// runJob runs one model and returns its result and its journal line
// (nil when the journal's old line stands).
func (r *Runner) runJob(ctx context.Context, t *task) (res ModelResult, line []byte) {
	job := &t.job
	start := time.Now()
	jr := &jobRun{r: r, ctx: ctx, job: job, t: t, warn: map[[2]string]bool{}}
	jr.res = ModelResult{Input: job.Input.Key, Rel: job.Input.Rel, Status: StatusOK}
	defer func() {
		// A panic in a renderer is a bug, but it must not take the batch down.
		if p := recover(); p != nil {
			jr.res.Status = StatusFailed
			jr.res.Errors = append(jr.res.Errors, fmt.Sprintf("renderer panic: %v", p))
			jr.res.CacheKey = ""
		}
		jr.res.Timings.TotalMS = ms(time.Since(start))
		res = jr.res
		if !jr.reuse || r.Check {
			line = journalLine(&res, jr.jobHash, jr.stamps)
		}
	}()
	if err := jr.produce(); err != nil {
		jr.res.Status = StatusFailed
		jr.res.Errors = append(jr.res.Errors, clip.String(err.Error(), maxMessage))
		jr.res.CacheKey = ""
	}
	if r.Check && jr.res.Status != StatusFailed && ctx.Err() == nil {
		t := time.Now()
		jr.check()
		jr.res.Timings.CheckMS = ms(time.Since(t))
	}
	return jr.res, nil // the deferred function sets both
}

// maxMessage bounds the length of one error or warning kept in a
// manifest: a hostile model can make a renderer's message quote
// megabytes of its data.
const maxMessage = 1000

func (jr *jobRun) addWarnings(ws []Warning) {
	for _, w := range ws {
		w.Message = clip.String(w.Message, maxMessage)
		if k := [2]string{string(w.Code), w.Message}; !jr.warn[k] {
			jr.warn[k] = true
			jr.res.Warnings = append(jr.res.Warnings, w)
		}
	}
}

// journalLine is the journal line of a model's result. A result is
// reused unread by a later run only with its job hash and stamps, and
// only if it did not fail.
func journalLine(res *ModelResult, jobHash string, stamps []string) []byte {
	e := journalEntry{Key: res.Input}
	if res.Status != StatusFailed && stamps != nil {
		e.Job, e.Stamps = jobHash, stamps
	}
	e.Result, _ = json.Marshal(res) // a ModelResult always encodes
	b, _ := json.Marshal(e)
	return b
}

// produce reads, opens, consults the cache and renders.
func (jr *jobRun) produce() error {
	job, res, c := jr.job, &jr.res, jr.r.Options
	var stems []string
	for _, v := range job.Views {
		for _, tm := range job.Teams {
			stems = append(stems, c.Stem(job, v.Name, tm.Name))
		}
	}
	opts := jobOptions(job, stems)
	jr.jobHash = jobHash(jr.r.buildKey, opts)
	// The model file's stamp, taken before it is read: a change after
	// this is seen by the next run.
	place, onDisk := inputPlace(&job.Input)
	modelStamp := ""
	if onDisk {
		modelStamp = stampOf(place)
	}
	var old *journalEntry
	var oldRes *ModelResult
	if !c.Force && jr.t.old != nil {
		old, oldRes = decodeEntry(jr.t.old, job.Input.Key)
	}
	if old != nil && old.Job == jr.jobHash && jr.r.stamps.current(modelStamp, old.Stamps) && jr.outputsExist(oldRes) {
		// Nothing the result came from changed: the model is done,
		// unread.
		jr.cached(oldRes)
		jr.stamps, jr.reuse = old.Stamps, true
		return nil
	}

	t := time.Now()
	var data []byte
	var err error
	// One budget for everything the model costs: its file, the
	// dependencies hashed for the cache, and what opening and drawing it
	// read, decode and simulate.
	meter := budget.NewMeter(job.Limits)
	switch in := &job.Input; {
	case in.Entry != nil:
		data, err = fsread.FS(entryFS{in.Entry, in.Name}, in.Name, in.Name, meter, nil)
	case in.FS != nil:
		data, err = fsread.FS(in.FS, in.Name, in.Name, meter, nil)
	case in.Inner != "":
		data, err = fsread.Below(in.Top, in.Inner, meter, nil)
	default:
		data, err = fsread.Path(in.Path, meter, nil)
	}
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	res.Timings.ReadMS = ms(time.Since(t))
	// Hashed now, so that the bytes are not kept past their decoding
	// while the textures are looked for and hashed: a large model's file
	// is a large share of what rendering it holds.
	sum := sha256.Sum256(data)

	t = time.Now()
	m, err := jr.r.Renderer.Open(jr.ctx, job, data, meter)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	jr.model, jr.info = m, m.Info()
	res.Timings.OpenMS = ms(time.Since(t))
	jr.addWarnings(jr.info.Warnings)
	if onDisk && modelStamp != "" {
		jr.stamps, _ = jr.r.stamps.modelStamps(modelStamp, &jr.info)
	}

	res.CacheKey = cacheKey(jr.r.buildKey, sum, jr.info.Dependencies, opts, jr.r.stamps, meter)
	if old != nil && oldRes.CacheKey == res.CacheKey && oldRes.Status != StatusFailed && jr.outputsExist(oldRes) {
		jr.cached(oldRes)
		// The old line stands unless what it vouches by changed (a file
		// touched, not changed): then the new stamps are recorded.
		jr.reuse = slices.Equal(old.Stamps, jr.stamps) && old.Job == jr.jobHash
		return nil
	}

	// The selection is that of sheets and previews; without them the
	// one sequence drawn is the still's.
	seqs := []int{standSequence(jr.info.Sequences)}
	if job.hasRun() {
		seqs = selectSequences(jr.info.Sequences, job.Sequences)
		if len(seqs) == 0 {
			return noSequenceError(jr.info.Sequences, job.Sequences.Patterns)
		}
	}
	for _, s := range seqs {
		if s >= 0 {
			res.Sequences = append(res.Sequences, jr.info.Sequences[s].Name)
		}
	}
	for _, v := range job.Views {
		for _, tm := range job.Teams {
			if err := jr.renderView(v, tm, seqs, c.Stem(job, v.Name, tm.Name)); err != nil {
				return err
			}
		}
	}
	if err := jr.writeIcons(); err != nil {
		return err
	}
	return jr.ctx.Err()
}

// decodeEntry decodes a journal line of the input key; nil if it is not
// one.
func decodeEntry(line []byte, key string) (*journalEntry, *ModelResult) {
	var e decodedEntry
	if json.Unmarshal(line, &e) != nil || e.Key != key || e.Result.Input != key {
		return nil, nil
	}
	return &journalEntry{Key: e.Key, Job: e.Job, Stamps: e.Stamps}, &e.Result
}

// cached makes an earlier result this run's: the model is unchanged.
func (jr *jobRun) cached(old *ModelResult) {
	res := &jr.res
	*res = *old
	res.Status = StatusCached
	res.Checks = nil
	for _, w := range res.Warnings {
		jr.warn[[2]string{string(w.Code), w.Message}] = true
	}
}

// outputsExist reports whether every output r lists is still a file in
// the output folder.
func (jr *jobRun) outputsExist(r *ModelResult) bool {
	for _, o := range r.Outputs {
		if fi, err := jr.r.out.dir.Lstat(o.Path); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// hasRun reports whether the job writes sheets or previews, which show
// the selected sequences.
func (j *Job) hasRun() bool {
	return slices.ContainsFunc(j.Formats, func(f Format) bool { return f == FormatSheet || f == FormatGIF || f == FormatAPNG })
}

// noSequenceError says that no sequence of seqs matches the patterns,
// naming those the model has. A plain name matches a whole name only
// ("attack" is not "Attack 1"): when one would match the start of a
// sequence's name, the error suggests the glob that does.
func noSequenceError(seqs []SequenceInfo, patterns []string) error {
	names := make([]string, 0, len(seqs))
	for i, s := range seqs {
		if i == 12 {
			names = append(names, fmt.Sprintf("and %d more", len(seqs)-i))
			break
		}
		names = append(names, clip.Display(s.Name, clip.MaxQuote))
	}
	var globs []string
	for _, p := range patterns {
		if strings.ContainsAny(p, "*?[\\") {
			continue
		}
		for _, s := range seqs {
			if strings.HasPrefix(strings.ToLower(s.Name), strings.ToLower(p)) {
				globs = append(globs, p+"*")
				break
			}
		}
	}
	hint := ""
	if len(globs) > 0 {
		hint = fmt.Sprintf("; names match whole: %s matches those starting so", clip.Quote(strings.Join(globs, ",")))
	}
	return fmt.Errorf("no sequence matches %s (the model has: %s%s)", clip.Quote(strings.Join(patterns, ",")), strings.Join(names, ", "), hint)
}

// selectSequences returns indexes into seqs; -1 stands for the bind pose of
// a model without sequences.
func selectSequences(seqs []SequenceInfo, sel Sequences) []int {
	var out []int
	switch sel.Select {
	case SelectAll:
		for i := range seqs {
			out = append(out, i)
		}
	case SelectMatch:
		for i, s := range seqs {
			if MatchSequence(sel.Patterns, s.Name) {
				out = append(out, i)
			}
		}
	default:
		out = []int{standSequence(seqs)}
	}
	if len(out) == 0 && len(seqs) == 0 {
		out = []int{-1}
	}
	return out
}

// standSequence picks the sequence a thumbnail shows by the library's
// rule (render.StandSequence), so that batch, render and sheet agree; -1
// if there is none.
func standSequence(seqs []SequenceInfo) int {
	return render.StandSequence(len(seqs), func(i int) string { return seqs[i].Name })
}

func (jr *jobRun) seqInfo(i int) SequenceInfo {
	if i < 0 {
		return SequenceInfo{Name: "bind"}
	}
	return jr.info.Sequences[i]
}

func (jr *jobRun) render(req Request) ([]render.Picture, error) {
	t := time.Now()
	pics, ws, err := jr.model.Render(jr.ctx, req)
	jr.res.Timings.RenderMS += ms(time.Since(t))
	jr.addWarnings(ws)
	if err != nil {
		return nil, fmt.Errorf("render view %s: %w", req.ViewName, err)
	}
	if len(pics) != len(req.Frames) {
		return nil, fmt.Errorf("render view %s: renderer returned %d images for %d frames", req.ViewName, len(pics), len(req.Frames))
	}
	w, h := req.View.Width, req.View.Height
	for i, p := range pics {
		if m := p.Image; m == nil || m.Bounds().Dx() != w || m.Bounds().Dy() != h {
			return nil, fmt.Errorf("render view %s: frame %d is not %dx%d", req.ViewName, i, w, h)
		}
	}
	return pics, nil
}

// frame is the moment at absolute model time ms of sequence seq (-1: the
// bind pose), seen from yaw.
func (jr *jobRun) frame(seq int, ms uint32, yaw float64) render.Frame {
	f := render.Frame{Sequence: seq, Yaw: yaw}
	if seq >= 0 {
		f.Time = float64(ms) - float64(jr.info.Sequences[seq].Start)
	}
	return f
}

func (jr *jobRun) write(rel string, data []byte, of OutputFile) error {
	of.Path = rel
	if err := jr.r.out.write(jr.ctx, rel, data); err != nil {
		return err
	}
	jr.res.Outputs = append(jr.res.Outputs, of)
	return nil
}

func encodePNG(m image.Image) ([]byte, error) { return pngenc.Bytes(m) }

// check compares the still and sheet PNGs with their goldens.
func (jr *jobRun) check() {
	c := jr.r.Options
	out := jr.r.out.dir
	golden := resolve(c.base(), c.Check.Golden)
	for _, o := range jr.res.Outputs {
		if o.Kind != string(FormatPNG) && o.Kind != string(FormatSheet) {
			continue
		}
		cr := CheckResult{Output: o.Path, Golden: filepath.ToSlash(filepath.Join(golden, filepath.FromSlash(o.Path)))}
		if c.Check.Update {
			b, err := out.ReadFile(o.Path)
			if err == nil {
				err = jr.r.golden.WriteFile(jr.ctx, o.Path, b)
			}
			if err != nil {
				cr.Status, cr.Message = CheckFail, "update: "+err.Error()
			} else {
				cr.Status = CheckUpdated
			}
			jr.res.Checks = append(jr.res.Checks, cr)
			continue
		}
		var got image.Image
		b, err := out.ReadFile(o.Path)
		if err == nil {
			got, err = decodePNG(out.Path(o.Path), b)
		}
		var want image.Image
		var wantSize image.Point
		if err == nil {
			want, wantSize, err = decodeGolden(golden, o.Path, got.Bounds().Size())
		}
		if errors.Is(err, os.ErrNotExist) {
			cr.Status, cr.Message = CheckMissing, "no golden image; run with --update to store one"
			jr.res.Checks = append(jr.res.Checks, cr)
			continue
		}
		if err != nil {
			cr.Status, cr.Message = CheckFail, err.Error()
			jr.res.Checks = append(jr.res.Checks, cr)
			continue
		}
		if want == nil {
			cr.Status = CheckFail
			cr.Message = fmt.Sprintf("size %v, golden %v", got.Bounds().Size(), wantSize)
			jr.res.Checks = append(jr.res.Checks, cr)
			continue
		}
		cmp, diff := Compare(got, want, c.Check.Tolerance)
		cr.Mismatched, cr.Total, cr.Share, cr.MaxDiff = cmp.Mismatched, cmp.Total, cmp.Share(), cmp.MaxDiff
		switch {
		case cmp.SizeMismatch:
			cr.Status = CheckFail
			cr.Message = fmt.Sprintf("size %v, golden %v", got.Bounds().Size(), want.Bounds().Size())
		case cmp.Share() > c.Check.MaxMismatch:
			cr.Status = CheckFail
			cr.Message = fmt.Sprintf("%.4f%% of pixels differ by more than %d (allowed %.4f%%)", 100*cmp.Share(), c.Check.Tolerance, 100*c.Check.MaxMismatch)
		default:
			cr.Status = CheckPass
		}
		if cr.Failed() {
			rel := strings.TrimSuffix(o.Path, ".png") + ".diff.png"
			b, err := encodePNG(diff)
			if err == nil {
				err = out.WriteFile(jr.ctx, rel, b)
			}
			if err == nil {
				cr.Diff = rel
			} else {
				cr.Message += "; diff image: " + err.Error()
			}
		}
		jr.res.Checks = append(jr.res.Checks, cr)
	}
	sort.SliceStable(jr.res.Checks, func(i, j int) bool { return jr.res.Checks[i].Output < jr.res.Checks[j].Output })
}
