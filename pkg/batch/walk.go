package batch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// walkFiles calls add for every regular file below the folder root whose
// slash path relative to root want accepts, in no set order (the input
// set sorts them). It reads the folder through an os.Root opened on it,
// so that nothing outside the folder the user named is listed or taken:
// a symbolic link is followed, to a folder too, while it stays inside
// (root itself may be a link: a linked input folder must not silently
// hold no models), and one that leads out of the folder, or is absolute,
// is skipped. It never stalls: a link back to a folder above it is not
// followed again, and a FIFO, device or socket (which would block or
// never end when read) is skipped. Each thing skipped that want would
// have taken is told to warn, in sorted order once the walk is done.
func walkFiles(root string, want func(rel string) bool, add func(p, rel string), warn func(string)) error {
	fi, err := os.Stat(root)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", root)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	w := &folderWalk{r: r, root: root, want: want, add: add}
	err = w.dir(".", []os.FileInfo{fi})
	slices.Sort(w.warnings)
	for _, s := range w.warnings {
		warn(s)
	}
	return err
}

type folderWalk struct {
	r        *os.Root
	root     string
	want     func(string) bool
	add      func(p, rel string)
	warnings []string
}

func (w *folderWalk) warn(s string) { w.warnings = append(w.warnings, s) }

// walkChunk is how many entries of a folder the walk reads at a time: a
// folder of a hundred thousand models is never held whole.
const walkChunk = 256

// subdir is a folder found in a folder, walked once the folder's
// listing is read through.
type subdir struct {
	rel  string
	info os.FileInfo
}

func (w *folderWalk) dir(rel string, above []os.FileInfo) error {
	f, err := w.r.Open(rel)
	if err != nil {
		return err
	}
	var subs []subdir
	for {
		ents, err := f.ReadDir(walkChunk)
		for _, e := range ents {
			s, ok, serr := w.entry(rel, e)
			if serr != nil {
				f.Close()
				return serr
			}
			if ok {
				subs = append(subs, s)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			f.Close()
			return err
		}
	}
	f.Close()
	// In order, so that which of two links to one folder is the loop
	// does not depend on the order the system lists them in.
	slices.SortFunc(subs, func(a, b subdir) int { return strings.Compare(a.rel, b.rel) })
	for _, s := range subs {
		if loops(above, s.info) {
			w.warn(fmt.Sprintf("%s: a link back to a folder above it; not followed again", filepath.Join(w.root, filepath.FromSlash(s.rel))))
			continue
		}
		if err := w.dir(s.rel, append(above[:len(above):len(above)], s.info)); err != nil {
			return err
		}
	}
	return nil
}

// entry takes one entry of the folder rel: a file is added (or warned
// about), a folder returned to be walked.
func (w *folderWalk) entry(rel string, e fs.DirEntry) (subdir, bool, error) {
	r := path.Join(rel, e.Name())
	p := filepath.Join(w.root, filepath.FromSlash(r))
	t := e.Type()
	var info os.FileInfo
	var err error
	if t&fs.ModeSymlink != 0 {
		if info, err = w.r.Stat(r); err != nil {
			if w.want(r) || isEscape(err) {
				w.warn(linkProblem(p, err))
			}
			return subdir{}, false, nil
		}
		t = info.Mode().Type()
	}
	switch {
	case t.IsDir():
		if info == nil {
			if info, err = w.r.Stat(r); err != nil {
				return subdir{}, false, err
			}
		}
		return subdir{r, info}, true, nil
	case t.IsRegular():
		if w.want(r) {
			w.add(p, r)
		}
	default:
		if w.want(r) {
			w.warn(fmt.Sprintf("%s: not a regular file (%s); skipped", p, fileKind(t)))
		}
	}
	return subdir{}, false, nil
}

// isEscape reports whether err is os.Root's refusal of a name or link
// that leads outside it.
func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// linkProblem says why the link at p was not followed, without naming
// where it points (an input folder's links may point at places the log's
// reader should not learn about).
func linkProblem(p string, err error) string {
	if isEscape(err) {
		return fmt.Sprintf("%s: a symbolic link that leads outside the input folder, or is absolute; not followed", p)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("%s: a symbolic link that leads nowhere; skipped", p)
	}
	return fmt.Sprintf("%s: a symbolic link that cannot be followed (%v); skipped", p, unwrapPath(err))
}

// loops reports whether dir is one of the folders above it.
func loops(above []os.FileInfo, dir os.FileInfo) bool {
	for _, a := range above {
		if os.SameFile(a, dir) {
			return true
		}
	}
	return false
}

// fileKind names a non-regular file type for a message.
func fileKind(t fs.FileMode) string {
	switch {
	case t&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDevice != 0:
		return "a device"
	}
	return "type " + t.String()
}

// unwrapPath drops the path a *fs.PathError repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
