package batch

import (
	"bytes"
	"fmt"
	"image"
	"path"
	"slices"
	"strings"
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
	has := func(f Format) bool { return slices.Contains(job.Formats, f) }
	if has(FormatPNG) {
		if err := jr.writeStill(base, v, stem, tag); err != nil {
			return err
		}
	}
	if !has(FormatSheet) && !has(FormatGIF) && !has(FormatAPNG) {
		return nil
	}
	// The sheet and the previews are the same frames, drawn once with one
	// camera: a preview shows what the sheet holds.
	run, err := jr.renderRun(base, v, seqs)
	if err != nil {
		return err
	}
	if has(FormatSheet) {
		if err := jr.writeSheet(run, v, stem, tag); err != nil {
			return err
		}
	}
	if has(FormatGIF) || has(FormatAPNG) {
		return jr.writePreviews(run, stem, tag)
	}
	return nil
}

// writeStill writes the thumbnail: one picture of the stand sequence at
// the job's still time.
func (jr *jobRun) writeStill(base Request, v ViewSpec, stem string, tag OutputFile) error {
	job := jr.job
	si := standSequence(jr.info.Sequences)
	seq := jr.seqInfo(si)
	at := stillAt(job.Render.Time, seq.Start, seq.End)
	req := base
	req.Frames = []render.Frame{jr.frame(si, at, v.Yaw)}
	pics, err := jr.render(req)
	if err != nil {
		return err
	}
	img := pics[0].Image
	if render.Blank(img) {
		msg := fmt.Sprintf("the still of view %s shows nothing", v.Name)
		if si >= 0 {
			msg += fmt.Sprintf(" (%s at %d ms: the model may be hidden or not yet emitting then; render.time, e.g. 50%%, takes the still later in the sequence)", seq.Name, at-seq.Start)
		}
		jr.addWarnings([]Warning{{Code: render.BlankPicture, Message: msg}})
	}
	t := time.Now()
	b, err := encodePNG(img)
	jr.res.Timings.EncodeMS += ms(time.Since(t))
	if err != nil {
		return err
	}
	of := tag
	of.Kind = string(FormatPNG)
	if si >= 0 {
		of.Sequence = seq.Name
		of.TimeMs = at - seq.Start
	}
	return jr.write(stem+".png", b, of)
}

// run is the frames of a view's sheet and previews: every selected
// sequence at every yaw, drawn with one camera, in the layout's cell
// order.
type run struct {
	layout *sheet.Layout
	pics   []render.Picture
}

func (jr *jobRun) renderRun(base Request, v ViewSpec, seqs []int) (*run, error) {
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
		return nil, err
	}
	req := base
	req.View.RunFraming = job.Sheet.Framing
	for _, f := range l.Frames() {
		req.Frames = append(req.Frames, jr.frame(f.Sequence, f.Time, f.Yaw))
	}
	pics, err := jr.render(req)
	if err != nil {
		return nil, err
	}
	for i := range l.Cells {
		l.Cells[i].Pivot = pics[i].Origin
	}
	jr.warnEmpty(l, pics, v)
	return &run{l, pics}, nil
}

// warnEmpty warns about the animations of a sheet whose frames show
// nothing: an effect that has not emitted yet, or hides.
func (jr *jobRun) warnEmpty(l *sheet.Layout, pics []render.Picture, v ViewSpec) {
	empty, total := 0, len(pics)
	var names []string
	for i, c := range l.Cells {
		if !render.Blank(pics[i].Image) {
			continue
		}
		empty++
		if len(names) == 0 || names[len(names)-1] != c.Animation {
			names = append(names, c.Animation)
		}
	}
	if empty == 0 {
		return
	}
	if len(names) > 8 {
		names = append(names[:8], "…")
	}
	jr.addWarnings([]Warning{{Code: render.BlankPicture, Message: fmt.Sprintf(
		"%d of the %d frames of the sheet of view %s show nothing (in %s): the model is hidden or not emitting then",
		empty, total, v.Name, strings.Join(names, ", "))}})
}

// sheetFile is one file written for a sheet.
type sheetFile struct {
	suffix, kind string
	data         []byte
}

// writeSheet writes the sprite sheet of the selected sequences, split
// into pages when larger than sheet.max_size, with the metadata the job
// asks for.
func (jr *jobRun) writeSheet(r *run, v ViewSpec, stem string, tag OutputFile) error {
	job, l := jr.job, r.layout
	t := time.Now()

	imgs := make([]*image.NRGBA, len(r.pics))
	for i := range r.pics {

		imgs[i] = r.pics[i].Image
	}
	opt := sheet.PackOptions{Trim: job.Sheet.Trim, MaxSize: job.Sheet.MaxSize}
	if opt.Trim {
		opt.Padding = 2 // keeps an engine's filtering from bleeding frames into each other
	}
	pages, err := l.Pack(imgs, opt)
	if err != nil {
		return fmt.Errorf("sheet of view %s: %w", v.Name, err)
	}
	base := path.Base(stem)
	var files []sheetFile
	var images, jsons []string
	for p := range pages {
		suffix := "-sheet"
		if len(pages) > 1 {
			suffix = fmt.Sprintf("-sheet-%d", p)
		}
		images = append(images, base+suffix+".png")
		jsons = append(jsons, base+suffix+".json")
	}
	for p, img := range pages {
		b, err := encodePNG(img)
		if err != nil {
			return err
		}
		files = append(files, sheetFile{strings.TrimPrefix(images[p], base), string(FormatSheet), b})
	}
	meta := func(m Metadata) bool { return slices.Contains(job.Sheet.Metadata, m) }
	for p := range pages {
		if meta(MetaTexturePacker) {
			b, err := l.TexturePackerPage(p, images, jsons, jr.r.Version)
			if err != nil {
				return err
			}
			files = append(files, sheetFile{strings.TrimPrefix(jsons[p], base), "sheet-json", b})
		}
		if meta(MetaAseprite) {
			b, err := l.AsepriteJSON(p, images[p], jr.r.Version)
			if err != nil {
				return err
			}
			files = append(files, sheetFile{strings.TrimSuffix(strings.TrimPrefix(jsons[p], base), ".json") + ".aseprite.json", "sheet-aseprite-json", b})
		}
	}
	if meta(MetaGodot) {
		b, err := l.GodotSpriteFrames(images)
		if err != nil {
			return err
		}
		files = append(files, sheetFile{"-sheet.tres", "sheet-godot", b})
	}
	if meta(MetaPlain) {
		b, err := l.PlainJSON(images...)
		if err != nil {
			return err
		}
		files = append(files, sheetFile{"-sheet.plain.json", "sheet-plain-json", b})
	}
	jr.res.Timings.EncodeMS += ms(time.Since(t))
	for _, f := range files {
		of := tag
		of.Kind = f.kind
		if err := jr.write(stem+f.suffix, f.data, of); err != nil {
			return err
		}
	}
	return nil
}

// writePreviews writes the animated GIF and APNG previews, one per
// animation of the sheet: per selected sequence, and per yaw when
// sheet.yaws names several ("-Walk_045.gif").
func (jr *jobRun) writePreviews(r *run, stem string, tag OutputFile) error {
	job, l := jr.job, r.layout
	has := func(f Format) bool { return slices.Contains(job.Formats, f) }
	for i := 0; i < len(l.Cells); {
		first := i
		c := l.Cells[i]
		var imgs []*image.NRGBA
		var durs []uint32
		for ; i < len(l.Cells) && l.Cells[i].Animation == c.Animation; i++ {
			imgs = append(imgs, r.pics[i].Image)
			durs = append(durs, l.Cells[i].Sample.Duration)
		}
		seqName := l.Strips[l.Cells[first].Strip].Sequence.Name
		name := sanitizeName(c.Animation)
		for _, f := range []Format{FormatGIF, FormatAPNG} {
			if !has(f) {
				continue
			}
			t := time.Now()
			var b bytes.Buffer
			var err error
			suffix := "-" + name + ".gif"
			if f == FormatGIF {
				err = anim.EncodeGIF(&b, imgs, durs)
			} else {
				suffix = "-" + name + ".apng.png"
				err = anim.EncodeAPNG(&b, imgs, durs)
			}
			jr.res.Timings.EncodeMS += ms(time.Since(t))
			if err != nil {
				return fmt.Errorf("%s %s: %w", f, c.Animation, err)
			}
			of := tag
			of.Kind, of.Sequence = string(f), seqName
			if err := jr.write(stem+suffix, b.Bytes(), of); err != nil {
				return err
			}
		}
	}
	return nil
}
