package batch

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// walkFiles calls add for every regular file below the folder root whose
// slash path relative to root want accepts, in sorted order. Unlike
// filepath.WalkDir it follows symbolic links, to folders too (root itself
// may be one: a linked input folder must not silently hold no models),
// and it never stalls: a link back to a folder above it is not followed
// again, and a FIFO, device or socket (which would block or never end
// when read) is skipped. Each thing skipped that want would have taken is
// told to warn.
func walkFiles(root string, want func(rel string) bool, add func(p, rel string), warn func(string)) error {
	fi, err := os.Stat(root)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", root)
	}
	return walkDir(root, "", []os.FileInfo{fi}, want, add, warn)
}

func walkDir(dir, rel string, above []os.FileInfo, want func(string) bool, add func(p, rel string), warn func(string)) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		p, r := filepath.Join(dir, e.Name()), path.Join(rel, e.Name())
		t := e.Type()
		var info os.FileInfo
		if t&fs.ModeSymlink != 0 {
			if info, err = os.Stat(p); err != nil {
				if want(r) {
					warn(fmt.Sprintf("%s: a symbolic link that leads nowhere (%v); skipped", p, unwrapPath(err)))
				}
				continue
			}
			t = info.Mode().Type()
		}
		switch {
		case t.IsDir():
			if info == nil {
				if info, err = os.Stat(p); err != nil {
					return err
				}
			}
			if loops(above, info) {
				warn(fmt.Sprintf("%s: a link back to a folder above it; not followed again", p))
				continue
			}
			if err := walkDir(p, r, append(above[:len(above):len(above)], info), want, add, warn); err != nil {
				return err
			}
		case t.IsRegular():
			if want(r) {
				add(p, r)
			}
		default:
			if want(r) {
				warn(fmt.Sprintf("%s: not a regular file (%s); skipped", p, fileKind(t)))
			}
		}
	}
	return nil
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
