package report

import (
	"path/filepath"
	"strings"

	"golang.org/x/mod/module"
)

// Places shortens the paths of source files for people to read: the
// summary of a run and the HTML page write every file through it, while
// report.json keeps absolute paths.
type Places struct {
	// Dir is the directory paths below it are written relative to (the
	// module's, or the working directory).
	Dir string
	// GoRoot and ModCache are go env GOROOT and GOMODCACHE of the run;
	// "" when unknown, and their files then keep absolute paths.
	GoRoot, ModCache string
}

// Places returns how the paths of the run of r are shown.
func (r *Report) Places() Places {
	return Places{Dir: r.ModuleDir, GoRoot: r.GoRoot, ModCache: r.ModCache}
}

// Path returns file as a reader wants it: module@version/file.go for a
// file of the module cache, $GOROOT/src/pkg/file.go for one of the Go
// installation, relative to Dir for one below Dir, else file itself.
// The module cache and GOROOT come first: they may lie below Dir (a
// working directory of $HOME).
func (p Places) Path(file string) string {
	if rel, ok := below(p.ModCache, file); ok {
		if s, ok := cachePath(rel); ok {
			return s
		}
	}
	if rel, ok := below(p.GoRoot, file); ok {
		return "$GOROOT/" + rel
	}
	if rel, ok := below(p.Dir, file); ok {
		return rel
	}
	return file
}

// below returns file relative to dir, with slashes, when it is inside
// dir.
func below(dir, file string) (string, bool) {
	if dir == "" {
		return "", false
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// cachePath turns a path relative to the module cache,
// github.com/!some/mod@v1.2.3/dir/file.go, into module@version/dir/file.go
// with the module path and version unescaped; false if rel has no
// module@version element.
func cachePath(rel string) (string, bool) {
	elems := strings.Split(rel, "/")
	for i, e := range elems {
		path, version, found := strings.Cut(e, "@")
		if !found {
			continue
		}
		mod, err := module.UnescapePath(strings.Join(append(elems[:i:i], path), "/"))
		if err != nil {
			return "", false
		}
		ver, err := module.UnescapeVersion(version)
		if err != nil {
			return "", false
		}
		return mod + "@" + ver + "/" + strings.Join(elems[i+1:], "/"), true
	}
	return "", false
}
