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

// progress reports a batch: on a terminal, a bar that names the model
// running longest and how long it has run, redrawn twice a second so time
// moves during a slow model; otherwise (CI logs, files) one log/slog line
// per model with n/total, the model, its status and its warnings, and a
// summary line at the end.
type progress struct {
	w   io.Writer
	log *slog.Logger
	bar *progressbar.ProgressBar

	mu      sync.Mutex
	total   int
	n       int
	start   time.Time
	running map[string]time.Time
	stop    chan struct{}
	done    sync.WaitGroup

	// now is the clock and ticks the bar's redraws (time.Now, and a
	// ticker every tick, unless a test set them before Planned).
	now   func() time.Time
	ticks <-chan time.Time
}

// tick is how often the bar is redrawn while models run.
const tick = 500 * time.Millisecond

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, running: map[string]time.Time{}, now: time.Now}
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
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
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

// describe names the model running longest; p.mu is held.
func (p *progress) describe() string {
	var name string
	var since time.Time
	for k, t := range p.running {
		if name == "" || t.Before(since) || t.Equal(since) && k < name {
			name, since = k, t
		}
	}
	if name == "" {
		return "rendering"
	}
	d := p.now().Sub(since).Truncate(time.Second)
	more := ""
	if len(p.running) > 1 {
		more = fmt.Sprintf(" +%d", len(p.running)-1)
	}
	return fmt.Sprintf("%s (%s)%s", clip.Display(path.Base(name), 40), d, more)
}

func (p *progress) Started(input string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running[input] = p.now()
	if p.bar != nil {
		p.bar.Describe(p.describe())
	}
}

func (p *progress) Finished(r *batch.ModelResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, r.Input)
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
		"elapsed", p.now().Sub(p.start).Round(time.Millisecond).String()}
	if s.Checks > 0 {
		attrs = append(attrs, "checks", s.Checks, "regressions", s.Regressions)
	}
	if len(m.Skipped) > 0 {
		attrs = append(attrs, "skipped", len(m.Skipped))
	}
	p.log.Info(msg, attrs...)
}

var _ batch.StartObserver = (*progress)(nil)
