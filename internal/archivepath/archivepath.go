// Package archivepath reads the way the command line and the library name
// a file inside an archive: "maps/Hero.w3x:war3mapImported/Hero.mdx", the
// archive's path, a colon, and the file's path inside it (either slash).
//
// The colon is taken as the separator only right after a name that ends
// in an archive extension (.w3x, .w3m, .mpq), so Windows drive letters
// ("C:\models\a.mdx") and colons elsewhere in a name are left alone.
package archivepath

import (
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
