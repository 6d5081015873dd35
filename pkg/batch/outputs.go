package batch

import (
	"bytes"
	"fmt"
	"path"
	"time"

	"github.com/mdxrender/mdxrender/pkg/anim"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/sheet"
)

// renderView writes every output kind the job asks for, for one view and
// team colour.
func (jr *jobRun) renderView(v ViewSpec, team Team, seqs []int, stem string) error {
	job := jr.job
	base := Request{View: job.View, ViewName: v.Name}
	base.View.Width, base.View.Height = v.Size.W, v.Size.H
	base.View.Pitch, base.View.Camera, base.View.Team = v.Pitch, v.Camera, team.Color
	tag := OutputFile{View: v.Name, Team: team.Name}
	has := func(f string) bool { return contains(job.Formats, f) }
	if has(FormatPNG) {
		if err := jr.writeStill(base, v, stem, tag); err != nil {
			return err
		}
	}
	if has(FormatSheet) {
		if err := jr.writeSheet(base, v, seqs, stem, tag); err != nil {
			return err
		}
	}
	if has(FormatGIF) || has(FormatAPNG) {
		return jr.writePreviews(base, v, seqs, stem, tag)
	}
	return nil
}

// writeStill writes the thumbnail: one picture of the stand sequence at
// the job's still time.
func (jr *jobRun) writeStill(base Request, v ViewSpec, stem string, tag OutputFile) error {
	job := jr.job
	si := standSequence(jr.info.Sequences)
	seq := jr.seqInfo(si)
	at := stillAt(job.Still, seq.Start, seq.End)
	req := base
	req.Frames = []render.Frame{jr.frame(si, at, v.Yaw)}
	imgs, err := jr.render(req)
	if err != nil {
		return err
	}
	if render.Blank(imgs[0]) {
		msg := fmt.Sprintf("the still of view %s shows nothing", v.Name)
		if si >= 0 {
			msg += fmt.Sprintf(" (%s at %d ms: the model may be hidden or not yet emitting then; render.time, e.g. 50%%, takes the still later in the sequence)", seq.Name, at-seq.Start)
		}
		jr.addWarnings([]Warning{{Code: render.BlankPicture, Message: msg}})
	}
	t := time.Now()
	b, err := encodePNG(imgs[0])
	jr.res.Timings.EncodeMS += ms(time.Since(t))
	if err != nil {
		return err
	}
	of := tag
	of.Kind = FormatPNG
	if si >= 0 {
		of.Sequence = seq.Name
		of.TimeMs = at - seq.Start
	}
	if err := jr.write(stem+".png", b, of); err != nil {
		return err
	}
	return nil
}

// writeSheet writes the sprite sheet of the selected sequences with its
// metadata.
func (jr *jobRun) writeSheet(base Request, v ViewSpec, seqs []int, stem string, tag OutputFile) error {
	job := jr.job
	var strips []sheet.Strip
	for _, i := range seqs {
		info := jr.seqInfo(i)
		strips = append(strips, sheet.Strip{Index: i, Sequence: info, Samples: sheet.SampleSequence(info, job.Sheet.Frames, job.Sheet.FPS)})
	}
	yaws := job.Sheet.Yaws
	if len(yaws) == 0 {
		yaws = []float64{v.Yaw}
	}
	l, err := sheet.NewLayout(strips, yaws, v.Size.W, v.Size.H, job.Sheet.Cols)
	if err != nil {
		return err
	}
	req := base
	for _, f := range l.Frames() {
		req.Frames = append(req.Frames, jr.frame(f.Sequence, f.Time, f.Yaw))
	}
	imgs, err := jr.render(req)
	if err != nil {
		return err
	}
	t := time.Now()
	img, err := l.Assemble(imgs)
	if err != nil {
		return err
	}
	pngb, err := encodePNG(img)
	if err != nil {
		return err
	}
	imgName := path.Base(stem) + "-sheet.png"
	tp, err := l.TexturePackerJSON(imgName, jr.r.Version)
	if err != nil {
		return err
	}
	plain, err := l.PlainJSON(imgName)
	if err != nil {
		return err
	}
	jr.res.Timings.EncodeMS += ms(time.Since(t))
	for _, f := range []struct {
		suffix, kind string
		data         []byte
	}{{"-sheet.png", "sheet", pngb}, {"-sheet.json", "sheet-json", tp}, {"-sheet.plain.json", "sheet-plain-json", plain}} {
		of := tag
		of.Kind = f.kind
		if err := jr.write(stem+f.suffix, f.data, of); err != nil {
			return err
		}
	}
	return nil
}

// writePreviews writes the animated GIF and APNG previews, one per
// selected sequence.
func (jr *jobRun) writePreviews(base Request, v ViewSpec, seqs []int, stem string, tag OutputFile) error {
	job := jr.job
	has := func(f string) bool { return contains(job.Formats, f) }
	used := map[string]int{}
	for _, i := range seqs {
		info := jr.seqInfo(i)
		samples := sheet.SampleSequence(info, job.Sheet.Frames, job.Sheet.FPS)
		req := base
		durs := make([]uint32, len(samples))
		for k, s := range samples {
			req.Frames = append(req.Frames, jr.frame(i, s.Time, v.Yaw))
			durs[k] = s.Duration
		}
		imgs, err := jr.render(req)
		if err != nil {
			return err
		}
		name := sanitizeName(info.Name)
		used[name]++
		if n := used[name]; n > 1 {
			name = fmt.Sprintf("%s_%d", name, n)
		}
		for _, f := range []string{FormatGIF, FormatAPNG} {
			if !has(f) {
				continue
			}
			t := time.Now()
			var b bytes.Buffer
			ext := ".gif"
			if f == FormatGIF {
				err = anim.EncodeGIF(&b, imgs, durs)
			} else {
				ext = ".png"
				err = anim.EncodeAPNG(&b, imgs, durs)
			}
			jr.res.Timings.EncodeMS += ms(time.Since(t))
			if err != nil {
				return fmt.Errorf("%s %s: %w", f, info.Name, err)
			}
			of := tag
			of.Kind, of.Sequence = f, info.Name
			suffix := "-" + name + ext
			if f == FormatAPNG {
				suffix = "-" + name + ".apng" + ext
			}
			if err := jr.write(stem+suffix, b.Bytes(), of); err != nil {
				return err
			}
		}
	}
	return nil
}
