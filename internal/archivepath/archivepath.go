// Package archivepath reads the way the command line and the library name
// a file inside an archive: "maps/Hero.w3x:war3mapImported/Hero.mdx", the
// archive's path, a colon, and the file's path inside it (either slash).
//
// The colon is taken as the separator only right after a name that ends
// in an archive extension (.w3x, .w3m, .mpq), so Windows drive letters
// ("C:\models\a.mdx") and colons elsewhere in a name are left alone.
package archivepath

import (
	"errors"
	"path/filepath"
	"strings"
)

// Exts are the archive extensions, lower case.
var Exts = []string{".w3x", ".w3m", ".mpq"}

// IsArchive reports whether name ends in an archive extension, any case.
func IsArchive(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range Exts {
		if ext == e {
			return true
		}
	}
	return false
}

// Split splits p at the colon that follows an archive name: archive is
// the archive's path and inner the slash path inside it. ok is false when
// p names no file inside an archive.
func Split(p string) (archive, inner string, ok bool) {
	lower := strings.ToLower(p)
	for i := 0; i < len(p); i++ {
		if p[i] != ':' {
			continue
		}
		for _, e := range Exts {
			if strings.HasSuffix(lower[:i], e) {
				in := strings.TrimLeft(strings.ReplaceAll(p[i+1:], `\`, "/"), "/")
				return p[:i], in, in != ""
			}
		}
	}
	return "", "", false
}

// Join is Split's inverse: it names the file inner inside archive.
func Join(archive, inner string) string { return archive + ":" + inner }

// Clean turns a file's name inside an archive into a slash path that
// stays inside any folder it is joined to: '\' becomes '/' and empty and
// "." elements (a leading or doubled separator) are dropped. A name with
// a ".." element, a drive letter ("C:") or a NUL byte is refused, as is
// one with nothing left. The archive's names are a stranger's: every
// file written or named after one goes through Clean.
func Clean(name string) (string, error) {
	var elems []string
	for _, e := range strings.Split(strings.ReplaceAll(name, `\`, "/"), "/") {
		switch {
		case e == "" || e == ".":
			continue
		case e == "..":
			return "", errors.New(`a ".." element would climb out of the output folder`)
		case strings.ContainsRune(e, 0) || len(e) >= 2 && e[1] == ':':
			return "", errors.New("a drive letter or NUL byte in the name")
		}
		elems = append(elems, e)
	}
	if len(elems) == 0 {
		return "", errors.New("an empty name")
	}
	return strings.Join(elems, "/"), nil
}
