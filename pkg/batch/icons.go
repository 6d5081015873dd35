package batch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mdxrender/mdxrender"
	"github.com/mdxrender/mdxrender/internal/clip"
	"github.com/mdxrender/mdxrender/pkg/budget"
	"github.com/mdxrender/mdxrender/pkg/icon"
	"github.com/mdxrender/mdxrender/pkg/render"
	"github.com/mdxrender/mdxrender/pkg/texture"
)

// FormatIcons is the command-card icons of every unit model
// (mdxrender.Model.IsUnit), made as `mdxrender icon` makes them, under
// IconDir in the game's folders (docs/icons.md#a-batch-of-icons).
const FormatIcons Format = "icons"

// IconDir is the folder below the output folder that the icons go into,
// laid out as a map keeps them: it imports into a map as it is, without
// the batch's manifest, reports and cache.
const IconDir = "icons"

// IconNameTaken is the warning of a unit whose icons took a numbered
// name because another model of the batch has the same file name.
const IconNameTaken render.WarningCode = "icon-name"

// The manifest kinds of icon files (OutputFile.Kind): the icon in the
// game's form (BLP, or DDS for HD) and the PNG beside it.
const (
	KindIcon    = "icon"
	KindIconPNG = "icon-png"
)

// IconOptions say how the icons of FormatIcons are made: the choices of
// `mdxrender icon`, named as its flags are (the icons.* keys of a
// configuration). The zero IconOptions make what the command makes with
// no flags. Team colour, particles and missing textures are the batch's
// (Options.Render, the first of Options.Teams); the camera is the icons'
// own.
type IconOptions struct {
	// Kinds are the kinds made; nil means BTN and DISBTN.
	Kinds []icon.Kind
	// HD also makes every kind at Reforged's 256×256, as DDS.
	HD bool
	// Shot says how much of the model an icon shows.
	Shot mdxrender.Shot
	// Background is one colour, or two for a gradient from top to
	// bottom; none is icon.DefaultBackground().
	Background []color.NRGBA
	// BackgroundImage is a picture (PNG, BLP, DDS, TGA or JPEG) scaled to
	// cover the icon instead; a relative path is relative to
	// Options.Base.
	BackgroundImage string
	// Frames are pictures, with alpha, drawn instead of our frame of a
	// kind; relative paths are relative to Options.Base.
	Frames map[icon.Kind]string
	// Files say how the icons are stored (BLP and DDS forms, no PNG).
	Files mdxrender.IconFiles
}

func (o IconOptions) validate(key string, bad func(key, format string, a ...any)) {
	for i, k := range o.Kinds {
		if int(k) >= len(icon.Kinds()) {
			bad(fmt.Sprintf("%s.kinds[%d]", key, i), "want btn, disbtn, pas, dispas or atc, got %s", k)
		}
	}
	if o.Shot > mdxrender.ShotWhole {
		bad(key+".shot", "want portrait, head or whole, got %s", o.Shot)
	}
	if len(o.Background) > 2 {
		bad(key+".bg", "want one colour or two (a gradient), got %d", len(o.Background))
	}
	for _, k := range slices.Sorted(maps.Keys(o.Frames)) {
		if int(k) >= len(icon.Kinds()) || o.Frames[k] == "" {
			bad(key+".frames", "want a picture for each of btn, disbtn, pas, dispas or atc, got %s for %s", clip.Quote(o.Frames[k]), k)
		}
	}
	b := o.Files.BLP
	if b.Quality < 0 || b.Quality > 100 {
		bad(key+".quality", "want 1 to 100, got %d", b.Quality)
	}
	if !(b.AlphaBits == 0 || b.AlphaBits == 8 || b.Palette && (b.AlphaBits == 1 || b.AlphaBits == 4)) {
		bad(key+".alpha_bits", "want 0 or 8 (with palette also 1 or 4), got %d", b.AlphaBits)
	}
	if f := o.Files.DDS.Format; f != texture.DDSDXT1 && f != texture.DDSDXT5 && f != texture.DDSBGRA {
		bad(key+".dds", "want dxt1, dxt5 or bgra, got %s", f)
	}
}

// JobIcons is what a job needs to make its icons: the options, the name
// they take (IconName of the model, numbered where names clash) and the
// hash of the pictures the options name, which the cache key covers.
type JobIcons struct {
	Options IconOptions
	Name    string
	// Clash names the model that had the name first, when Name was
	// numbered.
	Clash    string
	Pictures string
	pics     *iconPictures
}

// iconPictures are the decoded pictures the icon options name, read once
// per run.
type iconPictures struct {
	background image.Image
	frames     map[icon.Kind]image.Image
}

// IconResult says what the batch did about a model's icons.
type IconResult struct {
	// Unit and Why are mdxrender.Model.IsUnit's answer.
	Unit bool   `json:"unit"`
	Why  string `json:"why"`
	// Name is the name the icons took (BTNName.blp).
	Name string `json:"name,omitempty"`
	// Framing says how the model was seen, for people.
	Framing string `json:"framing,omitempty"`
}

// IconMaker is a Model that can make command-card icons; the
// DefaultRenderer's models can.
type IconMaker interface {
	// IsUnit is mdxrender.Model.IsUnit.
	IsUnit() (bool, string)
	// Icons is mdxrender.Model.Icons.
	Icons(ctx context.Context, o mdxrender.IconOptions) (*mdxrender.IconSet, []Warning, error)
}

func (lm *libraryModel) library() *mdxrender.Model {
	return mdxrender.ModelOf(lm.file, lm.name, lm.tex, lm.meter)
}

// IsUnit is mdxrender.Model.IsUnit of the model.
func (lm *libraryModel) IsUnit() (bool, string) { return lm.library().IsUnit() }

// Icons is mdxrender.Model.Icons of the model, within its budget.
func (lm *libraryModel) Icons(ctx context.Context, o mdxrender.IconOptions) (*mdxrender.IconSet, []Warning, error) {
	return lm.library().Icons(ctx, o)
}

// iconDependencies are the files a job's icons read beyond its pictures'
// own: the portrait model beside it, whose camera they look through.
func (lm *libraryModel) iconDependencies(job *Job) []texture.File {
	if job.Icons == nil {
		return nil
	}
	if f, ok := lm.library().PortraitModelFile(); ok {
		return []texture.File{f}
	}
	return nil
}

func (o *Options) hasFormat(f Format) bool { return slices.Contains(o.Output.Formats, f) }

// iconPlan is what planning decided about a batch's icons: the pictures
// every job shares and the names that are not the model's own.
type iconPlan struct {
	opts    IconOptions
	pics    *iconPictures
	sum     string
	renamed map[string]iconName // by input key
}

// iconName is a model's icon name that clashed: the name it takes and
// the input that has the plain one.
type iconName struct{ name, first string }

// planIcons decides the icons of a batch that makes them (nil otherwise).
// Names are decided over every shard's models in input-key order, so
// that they do not depend on the shard, on a resumed run or on which
// models turn out to be units: the first model of a name (case-blind, as
// a map's file names are) keeps it, the next take Name_2, Name_3, ....
// Portrait models are left out: they are never units, and share their
// unit's name. Only the renamed are kept for the run; the names seen are
// planning's alone.
func (o *Options) planIcons(set *inputSet) (*iconPlan, error) {
	if !o.hasFormat(FormatIcons) {
		return nil, nil
	}
	pics, sum, err := o.Icons.pictures(o.base(), o.Limits)
	if err != nil {
		return nil, err
	}
	ip := &iconPlan{opts: o.Icons, pics: pics, sum: sum, renamed: map[string]iconName{}}
	taken := map[string]bool{}
	firstOf := map[string]string{} // the input that has a name, by the name in lower case
	err = set.each(func(_ int, in Input) bool {
		if _, skip := o.jobFor(in); skip || render.IsPortraitModel(in.Key) {
			return true
		}
		name := mdxrender.IconName(in.Key)
		key := strings.ToLower(name)
		if !taken[key] {
			taken[key] = true
			firstOf[key] = in.Key
			return true
		}
		for n := 2; ; n++ {
			suffix := "_" + strconv.Itoa(n)
			s := name
			for len(s)+len(suffix) > 100 || !utf8.ValidString(s) { // a name is at most 100 bytes
				s = s[:len(s)-1]
			}
			s += suffix
			if !taken[strings.ToLower(s)] {
				taken[strings.ToLower(s)] = true
				ip.renamed[in.Key] = iconName{name: s, first: firstOf[key]}
				return true
			}
		}
	})
	return ip, err
}

// attach gives j its JobIcons; a nil plan makes no icons.
func (ip *iconPlan) attach(j *Job) {
	if ip == nil {
		return
	}
	n, ok := ip.renamed[j.Input.Key]
	if !ok {
		n.name = mdxrender.IconName(j.Input.Key)
	}
	j.Icons = &JobIcons{Options: ip.opts, Name: n.name, Clash: n.first, Pictures: ip.sum, pics: ip.pics}
}

// pictures reads and decodes the background picture and the frames the
// options name, each within limits, and hashes their bytes for the cache
// key.
func (o IconOptions) pictures(base string, lim budget.Limits) (*iconPictures, string, error) {
	p := &iconPictures{frames: map[icon.Kind]image.Image{}}
	h := sha256.New()
	read := func(key, name string) (image.Image, error) {
		f, closer, err := mdxrender.OpenFile(resolve(base, name))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		defer closer.Close()
		b, err := f.Read(budget.NewMeter(lim))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		opt := texture.OptionsWithin(lim)
		opt.FirstLevelOnly = true
		t, err := texture.Decode(b, &opt)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", key, f, err)
		}
		s := sha256.Sum256(b)
		fmt.Fprintf(h, "%s\x00%x\x00", key, s)
		return t.Levels[0], nil
	}
	var err error
	if o.BackgroundImage != "" {
		if p.background, err = read("icons.bg_image", o.BackgroundImage); err != nil {
			return nil, "", err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(o.Frames)) {
		if p.frames[k], err = read("icons.frames."+strings.ToLower(k.String()), o.Frames[k]); err != nil {
			return nil, "", err
		}
	}
	return p, hex.EncodeToString(h.Sum(nil)), nil
}

// library is the root package's IconOptions of a job.
func (ji *JobIcons) library(job *Job) mdxrender.IconOptions {
	o := ji.Options
	out := mdxrender.IconOptions{Kinds: o.Kinds, HD: o.HD, Shot: o.Shot, Frames: ji.pics.frames}
	switch {
	case ji.pics.background != nil:
		out.Background = icon.Picture(ji.pics.background)
	case len(o.Background) == 1:
		out.Background = icon.Solid(o.Background[0])
	case len(o.Background) == 2:
		out.Background = icon.Gradient(o.Background[0], o.Background[1])
	}
	v := mdxrender.DefaultIconView()
	v.Team = job.Teams[0].Color
	v.Particles = job.View.Particles
	v.MissingTextures = job.View.MissingTextures
	out.View = &v
	return out
}

// writeIcons makes the icons of a unit model and writes them below
// IconDir, each in the game's form with a PNG beside it unless the
// options say not.
func (jr *jobRun) writeIcons() error {
	ji := jr.job.Icons
	if ji == nil {
		return nil
	}
	im, ok := jr.model.(IconMaker)
	if !ok {
		jr.res.Icons = &IconResult{Why: "the renderer makes no icons"}
		return nil
	}
	unit, why := im.IsUnit()
	res := &IconResult{Unit: unit, Why: why}
	jr.res.Icons = res
	if !unit {
		return nil
	}
	t := time.Now()
	set, warns, err := im.Icons(jr.ctx, ji.library(jr.job))
	jr.res.Timings.RenderMS += ms(time.Since(t))
	jr.addWarnings(warns)
	if err != nil {
		return fmt.Errorf("icons: %w", err)
	}
	res.Name, res.Framing = ji.Name, set.Framing
	if ji.Clash != "" {
		jr.addWarnings([]Warning{{Code: IconNameTaken, Message: fmt.Sprintf(
			"its icons are named %s: %s, earlier in the batch, has the name %s", clip.Quote(ji.Name), clip.Quote(ji.Clash),
			clip.Quote(mdxrender.IconName(ji.Clash)))}})
	}
	files := ji.Options.Files
	for _, ic := range set.Icons {
		t := time.Now()
		var b bytes.Buffer
		if err := mdxrender.EncodeIcon(&b, ic, files); err != nil {
			return fmt.Errorf("icons: %s: %w", ic.Kind, err)
		}
		var png []byte
		if !files.NoPNG {
			if png, err = encodePNG(ic.Image); err != nil {
				return fmt.Errorf("icons: %s: %w", ic.Kind, err)
			}
		}
		jr.res.Timings.EncodeMS += ms(time.Since(t))
		p := IconDir + "/" + mdxrender.IconPath(ic.Kind, ic.Size, ji.Name)
		of := OutputFile{Kind: KindIcon, Icon: ic.Kind.String(), Size: ic.Size}
		if err := jr.write(p, b.Bytes(), of); err != nil {
			return err
		}
		if png != nil {
			of.Kind = KindIconPNG
			if err := jr.write(mdxrender.IconPNGPath(p), png, of); err != nil {
				return err
			}
		}
	}
	return nil
}
