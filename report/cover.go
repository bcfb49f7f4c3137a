// This file reads statement coverage profiles (go test -coverprofile) and
// has go tool cover draw its own page of one.

package report

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Block is one basic block of a coverage profile: a range of source
// positions (lines and columns 1-based) holding NumStmts statements that
// ran Count times (in mode set, 0 or 1).
type Block struct {
	File                string // as the profile names it: import path and base name
	StartLine, StartCol int
	EndLine, EndCol     int
	NumStmts, Count     int
}

// Profile is a parsed coverage profile.
type Profile struct {
	Mode   string
	Blocks []Block
}

// ParseProfile reads a coverage profile in the format of go test
// -coverprofile: a "mode:" line, then one line per block,
// "file:startLine.startCol,endLine.endCol numStmts count".
func ParseProfile(r io.Reader) (*Profile, error) {
	p := &Profile{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if p.Mode == "" && len(p.Blocks) == 0 {
			mode, ok := strings.CutPrefix(line, "mode:")
			if !ok {
				return nil, fmt.Errorf("line %d: want the mode line, got %q", n, line)
			}
			p.Mode = strings.TrimSpace(mode)
			continue
		}
		b, err := parseBlock(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		p.Blocks = append(p.Blocks, b)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if p.Mode == "" {
		return nil, fmt.Errorf("no mode line")
	}
	return p, nil
}

// parseBlock parses "file:1.2,3.4 5 6".
func parseBlock(line string) (Block, error) {
	bad := fmt.Errorf("malformed block %q", line)
	// The file name may hold colons; the rest cannot.
	colon := strings.LastIndexByte(line, ':')
	if colon <= 0 {
		return Block{}, bad
	}
	f := strings.Fields(line[colon+1:])
	if len(f) != 3 {
		return Block{}, bad
	}
	start, end, ok := strings.Cut(f[0], ",")
	if !ok {
		return Block{}, bad
	}
	b := Block{File: line[:colon]}
	var err error
	if b.StartLine, b.StartCol, err = lineCol(start); err != nil {
		return Block{}, bad
	}
	if b.EndLine, b.EndCol, err = lineCol(end); err != nil {
		return Block{}, bad
	}
	if b.NumStmts, err = strconv.Atoi(f[1]); err != nil {
		return Block{}, bad
	}
	if b.Count, err = strconv.Atoi(f[2]); err != nil {
		return Block{}, bad
	}
	return b, nil
}

func lineCol(s string) (int, int, error) {
	l, c, ok := strings.Cut(s, ".")
	if !ok {
		return 0, 0, fmt.Errorf("no column")
	}
	line, err := strconv.Atoi(l)
	if err != nil {
		return 0, 0, err
	}
	col, err := strconv.Atoi(c)
	return line, col, err
}

// modulePath reads the module path from dir/go.mod, "" if it cannot.
func modulePath(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			if p, err := strconv.Unquote(f[1]); err == nil {
				return p
			}
			return f[1]
		}
	}
	return ""
}

// fileMapper maps the file names of a profile (import path and base name)
// to files on disk.
type fileMapper struct {
	moduleDir, modPath string
	pkg                string
	known              []string // files on disk the sites name
}

func newFileMapper(r *Report, known []string) *fileMapper {
	m := &fileMapper{moduleDir: r.ModuleDir, pkg: r.Package, known: known}
	if m.moduleDir != "" {
		m.modPath = modulePath(m.moduleDir)
	}
	return m
}

// path returns the file on disk of the profile's file name, "" if none is
// found: through the module's path and directory first, then the package
// path and the directories of the sites' files, then a unique base name
// among the sites' files.
func (m *fileMapper) path(name string) string {
	exists := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.Mode().IsRegular()
	}
	if m.modPath != "" {
		if rest, ok := strings.CutPrefix(name, m.modPath+"/"); ok {
			if p := filepath.Join(m.moduleDir, filepath.FromSlash(rest)); exists(p) {
				return p
			}
		}
	}
	base := filepath.Base(filepath.FromSlash(name))
	if m.pkg != "" && name == m.pkg+"/"+base {
		for _, k := range m.known {
			if p := filepath.Join(filepath.Dir(k), base); exists(p) {
				return p
			}
		}
	}
	found := ""
	for _, k := range m.known {
		if filepath.Base(k) == base {
			if found != "" && found != k {
				return "" // ambiguous
			}
			found = k
		}
	}
	return found
}

// lineCover is the statement coverage of one line.
type lineCover uint8

const (
	noStmt lineCover = iota // no statement starts or ends on the line
	stmtMiss
	stmtHit
)

// lineCoverage returns, per file on disk and per line (1-based index), the
// statement coverage the profiles give: a line is hit when a block that
// ran covers it, missed when only blocks that did not run do. lines reads
// a file's lines, to leave out the lines where a block holds nothing but
// a brace. unmapped lists the profile's files that could not be found on
// disk.
func lineCoverage(profiles []*Profile, mappers []*fileMapper, lines func(string) []string) (cov map[string][]lineCover, unmapped []string) {
	cov = map[string][]lineCover{}
	seen := map[string]bool{}
	for i, p := range profiles {
		paths := map[string]string{}
		for _, b := range p.Blocks {
			disk, ok := paths[b.File]
			if !ok {
				disk = mappers[i].path(b.File)
				paths[b.File] = disk
				if disk == "" && !seen[b.File] {
					seen[b.File] = true
					unmapped = append(unmapped, b.File)
				}
			}
			if disk == "" || b.NumStmts == 0 {
				continue
			}
			src := lines(disk)
			end := min(b.EndLine, len(src)) // the file may have changed
			c := cov[disk]
			if len(c) < end+1 {
				c = append(c, make([]lineCover, end+1-len(c))...)
			}
			for l := max(b.StartLine, 1); l <= end; l++ {
				if b.EndLine > b.StartLine {
					// Skip a first line where the block holds only its
					// opening brace, and a last line where it holds only
					// the closing one.
					text := src[l-1]
					if l == b.StartLine && b.StartCol >= len(strings.TrimRight(text, " \t\r")) {
						continue
					}
					if l == b.EndLine && b.EndCol >= 1 && b.EndCol-1 <= len(text) && strings.TrimSpace(text[:b.EndCol-1]) == "}" {
						continue
					}
				}
				if b.Count > 0 {
					c[l] = stmtHit
				} else if c[l] == noStmt {
					c[l] = stmtMiss
				}
			}
			cov[disk] = c
		}
	}
	return cov, unmapped
}

// coverHTML runs go tool cover -html on the profile of run, writing out,
// in the run's module directory (or the directory of its sources).
func coverHTML(ctx context.Context, run *Run, out string) error {
	dir := run.Report.ModuleDir
	if dir == "" {
		for _, s := range run.Report.Branches.Sites {
			if f, _, _, ok := splitPos(s.Pos); ok {
				dir = filepath.Dir(f)
				break
			}
		}
	}
	if dir == "" {
		return fmt.Errorf("the report names no module directory")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("module directory %s is not there", dir)
	}
	profile, err := filepath.Abs(run.Profile)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "tool", "cover", "-html="+profile, "-o", abs)
	cmd.Dir = dir
	outb, err := cmd.CombinedOutput()
	if err != nil {
		msg := string(bytes.TrimSpace(outb))
		if len(msg) > 500 {
			msg = msg[:500] + "…"
		}
		if msg != "" {
			return fmt.Errorf("go tool cover -html: %v: %s", err, msg)
		}
		return fmt.Errorf("go tool cover -html: %v", err)
	}
	return nil
}
