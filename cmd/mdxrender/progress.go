package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/batch"
)

// progress reports a batch: on a terminal, a bar that says the time
// taken and the time left at the measured rate, and names the model
// running longest (by its path below the input folder, so that two
// Archway.mdx of two folders are told apart) and how long it has run,
// redrawn twice a second so time moves during a slow model; otherwise
// (CI logs, files) one log/slog line per model with n/total, the model,
// its status and its warnings, and a summary line at the end.
type progress struct {
	w   io.Writer
	log *slog.Logger
	bar *progressbar.ProgressBar

	mu      sync.Mutex
	total   int
	n       int
	start   time.Time
	running map[string]running // by input key
	// recent are the times the last rateWindow models finished, a ring:
	// the rate the estimate follows.
	recent [rateWindow]time.Time
	stop   chan struct{}
	done   sync.WaitGroup

	// now is the clock and ticks the bar's redraws (time.Now, and a
	// ticker every tick, unless a test set them before Planned).
	now   func() time.Time
	ticks <-chan time.Time
}

// running is a model being rendered: its name on the bar and its start.
type running struct {
	name  string
	since time.Time
}

// rateWindow is how many of the last models the estimate's rate is
// measured over: enough to even out a slow model among quick ones, few
// enough to follow a batch whose models change (the cached first,
// then the ones to render).
const rateWindow = 64

// tick is how often the bar is redrawn while models run.
const tick = 500 * time.Millisecond

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, running: map[string]running{}, now: time.Now}
	p.start = p.now()
	if f, ok := w.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		p.log = slog.New(slog.NewTextHandler(w, nil))
	}
	return p
}

func (p *progress) Planned(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.start = total, p.now()
	if p.log != nil {
		p.log.Info("batch planned", "models", total)
		return
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("rendering"),
		progressbar.OptionShowCount(),
		// The bar's own estimate averages the rates of its updates, from
		// the first model's end, not the batch's start: at a tenth of a
		// 40 s batch it said 8 s were left. describe says it instead.
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish())
	p.stop = make(chan struct{})
	ticks, stopTicks := p.ticks, func() {}
	if ticks == nil {
		t := time.NewTicker(tick)
		ticks, stopTicks = t.C, t.Stop
	}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		defer stopTicks()
		for {
			select {
			case <-p.stop:
				return
			case <-ticks:
				p.mu.Lock()
				p.bar.Describe(p.describe())
				p.mu.Unlock()
			}
		}
	}()
}

// describe says the time taken and left and names the model running
// longest; p.mu is held.
func (p *progress) describe() string {
	now := p.now()
	var name, key string
	var since time.Time
	for k, r := range p.running {
		if name == "" || r.since.Before(since) || r.since.Equal(since) && k < key {
			name, key, since = r.name, k, r.since
		}
	}
	eta := p.estimate(now)
	if name == "" {
		return eta
	}
	more := ""
	if len(p.running) > 1 {
		more = fmt.Sprintf(" +%d", len(p.running)-1)
	}
	return fmt.Sprintf("%s %s (%s)%s", eta, barName(name), now.Sub(since).Truncate(time.Second), more)
}

// estimate says the time taken and the time left, "[4s:36s]": left is
// what the models still to come take at the rate of the last rateWindow
// models (of all so far, with fewer), measured up to now, so that the
// estimate grows while a slow model holds the batch.
func (p *progress) estimate(now time.Time) string {
	taken := now.Sub(p.start)
	left := "?"
	if p.n > 0 {
		k, from := p.n, p.start
		if p.n > rateWindow {
			// The ring holds the last rateWindow ends; the oldest is where
			// the window of the rateWindow-1 after it starts.
			k, from = rateWindow-1, p.recent[p.n%rateWindow]
		}
		if d := now.Sub(from); d > 0 {
			rate := float64(k) / d.Seconds()
			left = roundDuration(time.Duration(float64(p.total-p.n) / rate * float64(time.Second))).String()
		}
	}
	return fmt.Sprintf("[%s:%s]", roundDuration(taken), left)
}

// roundDuration rounds d to what a person reads on a bar: whole seconds,
// whole minutes past an hour.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}

// barName is how the bar names a model: its path below the input
// folder, its end kept when it is long (the file and the folders next
// to it tell models apart), escaped.
func barName(rel string) string {
	const most = 48
	r := []rune(rel)
	if len(r) > most {
		rel = "…" + string(r[len(r)-most+1:])
	}
	return clip.Display(rel, 4*most)
}

func (p *progress) Started(in *batch.Input) {
	p.mu.Lock()
	defer p.mu.Unlock()
	name := in.Rel
	if name == "" {
		name = path.Base(in.Key)
	}
	p.running[in.Key] = running{name, p.now()}
	if p.bar != nil {
		p.bar.Describe(p.describe())
	}
}

func (p *progress) Finished(r *batch.ModelResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, r.Input)
	p.recent[p.n%rateWindow] = p.now()
	p.n++
	if p.log == nil {
		if p.bar != nil {
			p.bar.Describe(p.describe())
			p.bar.Add(1)
		}
		return
	}
	// slog quotes a value with control characters; clipping is ours.
	attrs := []any{"n", fmt.Sprintf("%d/%d", p.n, p.total), "model", clip.Display(r.Input, 300), "status", r.Status,
		"outputs", len(r.Outputs), "ms", int(r.Timings.TotalMS), "warnings", len(r.Warnings)}
	if len(r.Warnings) > 0 {
		attrs = append(attrs, "warning", warningText(r.Warnings))
	}
	if len(r.Errors) > 0 {
		attrs = append(attrs, "error", clip.Display(r.Errors[0], 300))
		p.log.Error("model failed", attrs...)
		return
	}
	p.log.Info("model done", attrs...)
}

// warningText lists a few warnings on one line.
func warningText(ws []batch.Warning) string {
	const most = 3
	var parts []string
	for i, w := range ws {
		if i == most {
			parts = append(parts, fmt.Sprintf("… %d more", len(ws)-most))
			break
		}
		parts = append(parts, clip.Display(string(w.Code)+": "+w.Message, 200))
	}
	return strings.Join(parts, "; ")
}

// finish stops the bar and, off a terminal, logs the summary of m (nil
// when the batch did not run).
func (p *progress) finish(m *batch.Manifest) {
	if p.stop != nil {
		close(p.stop)
		p.done.Wait()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Finish()
	}
	if p.log == nil || m == nil {
		return
	}
	s := m.Summary
	msg := "batch done"
	if m.Interrupted {
		msg = "batch interrupted"
	}
	attrs := []any{"models", s.Models, "ok", s.OK, "cached", s.Cached, "failed", s.Failed, "warnings", s.Warnings,
		"elapsed", time.Since(p.start).Round(time.Millisecond).String()}
	if s.Checks > 0 {
		attrs = append(attrs, "checks", s.Checks, "regressions", s.Regressions)
	}
	if len(m.Skipped) > 0 {
		attrs = append(attrs, "skipped", len(m.Skipped))
	}
	p.log.Info(msg, attrs...)
}

var _ batch.StartObserver = (*progress)(nil)
