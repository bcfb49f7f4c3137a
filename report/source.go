// This file annotates the target's source with the branch outcomes the
// runs covered and, where there is a profile, with statement coverage.

package report

import (
	"cmp"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// splitPos splits "file:line:col"; the file may hold colons.
func splitPos(pos string) (file string, line, col int, ok bool) {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	j := strings.LastIndexByte(pos[:i], ':')
	if j <= 0 {
		return "", 0, 0, false
	}
	l, err1 := strconv.Atoi(pos[j+1 : i])
	c, err2 := strconv.Atoi(pos[i+1:])
	if err1 != nil || err2 != nil || l < 1 || c < 1 {
		return "", 0, 0, false
	}
	return pos[:j], l, c, true
}

// Outcome classes of a site: both outcomes covered, only the true one,
// only the false one, neither.
const (
	classBoth  = "both"
	classTrue  = "true"
	classFalse = "false"
	classNone  = "none"
)

func outcomeClass(t, f bool) string {
	switch {
	case t && f:
		return classBoth
	case t:
		return classTrue
	case f:
		return classFalse
	}
	return classNone
}

// unionSite is a condition of the source with the outcomes of every run.
type unionSite struct {
	File      string
	Line, Col int
	Func      string
	Cond      string
	True      bool
	False     bool
	PerRun    []string // per run: its outcome class, "" when the run lacks the site
	// TrueBy and FalseBy name the proof that the outcome is unreachable
	// (Unreachable.By) in some run, "" when none proved it.
	TrueBy, FalseBy string
}

func (s *unionSite) class() string { return outcomeClass(s.True, s.False) }

// proved reports whether an outcome no run covered is proved
// unreachable: the page marks such a condition apart.
func (s *unionSite) proved() bool {
	return !s.True && s.TrueBy != "" || !s.False && s.FalseBy != ""
}

// segClass is the CSS class of the site's span: its outcome class, and
// "proved" when an uncovered outcome is proved unreachable.
func (s *unionSite) segClass() string {
	if s.proved() {
		return s.class() + " proved"
	}
	return s.class()
}

func (s *unionSite) title(labels []string) string {
	yes := func(b bool) string {
		if b {
			return "covered"
		}
		return "not covered"
	}
	var b strings.Builder
	side := func(covered bool, by string) string {
		if !covered && by != "" {
			return "not covered, proved unreachable (" + by + ")"
		}
		return yes(covered)
	}
	fmt.Fprintf(&b, "%s\ntrue: %s, false: %s", s.Cond, side(s.True, s.TrueBy), side(s.False, s.FalseBy))
	if s.Func != "" {
		fmt.Fprintf(&b, "\nin %s", s.Func)
	}
	if len(labels) > 1 {
		for i, c := range s.PerRun {
			if c == "" {
				c = "not in this run"
			} else {
				c = describeClass(c)
			}
			fmt.Fprintf(&b, "\n%s: %s", labels[i], c)
		}
	}
	return b.String()
}

func describeClass(c string) string {
	switch c {
	case classBoth:
		return "both outcomes"
	case classTrue:
		return "only true"
	case classFalse:
		return "only false"
	}
	return "neither outcome"
}

// unionSites merges the sites of the runs by position and condition: an
// outcome is covered when some run covered it. It also returns the sites
// whose position cannot be read.
func unionSites(runs []*Run) (placed []*unionSite, unplaced int) {
	byKey := map[string]*unionSite{}
	for i, r := range runs {
		// The run's proofs, by site and outcome.
		proofs := map[uint32][2]string{}
		for _, u := range r.Report.Unreachable {
			p := proofs[u.ID]
			p[btoi(u.Outcome)] = u.Proof()
			proofs[u.ID] = p
		}
		for _, s := range r.Report.Branches.Sites {
			file, line, col, ok := splitPos(s.Pos)
			if !ok {
				unplaced++
				continue
			}
			key := s.Pos + "\x00" + s.Cond
			u := byKey[key]
			if u == nil {
				u = &unionSite{File: file, Line: line, Col: col, Func: s.Func, Cond: s.Cond, PerRun: make([]string, len(runs))}
				byKey[key] = u
				placed = append(placed, u)
			}
			u.True = u.True || s.True
			u.False = u.False || s.False
			if p, ok := proofs[s.ID]; ok {
				u.FalseBy, u.TrueBy = cmp.Or(u.FalseBy, p[0]), cmp.Or(u.TrueBy, p[1])
			}
			prev := u.PerRun[i]
			t, f := s.True || prev == classBoth || prev == classTrue, s.False || prev == classBoth || prev == classFalse
			u.PerRun[i] = outcomeClass(t, f)
		}
	}
	sort.SliceStable(placed, func(a, b int) bool {
		x, y := placed[a], placed[b]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Col < y.Col
	})
	return placed, unplaced
}

// segment is a piece of a source line: plain text, or the text of a site.
type segment struct {
	Text  string
	Site  bool
	Class string
	Title string
}

type srcLine struct {
	N     int
	Cover string // "", "hit" or "miss": statement coverage
	Segs  []segment
	Sites int
}

type srcFile struct {
	Path    string // as shown
	Anchor  string
	Err     string // why the file cannot be shown
	Lines   []srcLine
	Counts  map[string]int // sites per outcome class
	Sites   int
	Missing int // sites past the end of the file
}

// spanEnd returns the end (byte offset, exclusive) of the text of cond in
// line from start: cond matched ignoring white space, or else the token
// that starts there.
func spanEnd(line string, start int, cond string) int {
	i, j := start, 0
	for j < len(cond) && i <= len(line) {
		cj, wj := utf8.DecodeRuneInString(cond[j:])
		if unicode.IsSpace(cj) {
			j += wj
			continue
		}
		if i == len(line) {
			break
		}
		ci, wi := utf8.DecodeRuneInString(line[i:])
		if unicode.IsSpace(ci) {
			i += wi
			continue
		}
		if ci != cj {
			break
		}
		i += wi
		j += wj
	}
	if j == len(cond) && i > start {
		return i
	}
	// The token at start: a word, a quoted literal, or one character.
	i = start
	r, w := utf8.DecodeRuneInString(line[i:])
	switch {
	case r == '"' || r == '\'' || r == '`':
		i += w
		for i < len(line) {
			c, w := utf8.DecodeRuneInString(line[i:])
			i += w
			if c == '\\' && r != '`' && i < len(line) {
				_, w = utf8.DecodeRuneInString(line[i:])
				i += w
				continue
			}
			if c == r {
				break
			}
		}
		return i
	case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
		for i < len(line) {
			c, w := utf8.DecodeRuneInString(line[i:])
			if c != '_' && c != '.' && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
				break
			}
			i += w
		}
		return i
	}
	return i + w
}

// annotateLine cuts a source line into segments at its sites, which are in
// column order; a site that overlaps the one before it gets an empty span
// at its column.
func annotateLine(text string, sites []*unionSite, labels []string) []segment {
	var segs []segment
	pos := 0
	for _, s := range sites {
		start := s.Col - 1
		if start > len(text) {
			start = len(text)
		}
		if start < pos {
			start = pos
		}
		for start < len(text) && !utf8.RuneStart(text[start]) {
			start++
		}
		end := start
		if start < len(text) {
			end = spanEnd(text, start, s.Cond)
		}
		if start > pos {
			segs = append(segs, segment{Text: text[pos:start]})
		}
		segs = append(segs, segment{Text: text[start:end], Site: true, Class: s.segClass(), Title: s.title(labels)})
		pos = end
	}
	if pos < len(text) {
		segs = append(segs, segment{Text: text[pos:]})
	}
	return segs
}

// readLines reads a file's lines, without their line ends.
func readLines(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n"), nil
}

// annotatedSource is the source section of the page.
type annotatedSource struct {
	Files       []srcFile
	Union       bool   // several runs: outcomes are their union
	Unplaced    int    // sites without a readable position
	HasProfile  bool   // statement coverage shading is shown
	ProfileNote string // why profiles were not (all) used
	Proved      bool   // some uncovered outcome is proved unreachable
}

// annotate reads the files the runs' sites name and annotates them.
func annotate(runs []*Run, labels []string) *annotatedSource {
	out := &annotatedSource{Union: len(runs) > 1}
	sites, unplaced := unionSites(runs)
	out.Unplaced = unplaced
	for _, s := range sites {
		out.Proved = out.Proved || s.proved()
	}
	var places Places
	for _, r := range runs {
		if r.Report.ModuleDir != "" {
			places = r.Report.Places()
			break
		}
	}
	var files []string
	byFile := map[string][]*unionSite{}
	for _, s := range sites {
		if byFile[s.File] == nil {
			files = append(files, s.File)
		}
		byFile[s.File] = append(byFile[s.File], s)
	}

	cache := map[string][]string{}
	errs := map[string]error{}
	lines := func(path string) []string {
		if l, ok := cache[path]; ok {
			return l
		}
		l, err := readLines(path)
		cache[path], errs[path] = l, err
		return l
	}

	// Statement coverage from the runs' profiles, as a union.
	var profiles []*Profile
	var mappers []*fileMapper
	var notes []string
	for i, r := range runs {
		if r.Profile == "" {
			continue
		}
		f, err := os.Open(r.Profile)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", labels[i], err))
			continue
		}
		p, err := ParseProfile(f)
		f.Close()
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %s: %v", labels[i], r.Profile, err))
			continue
		}
		profiles = append(profiles, p)
		mappers = append(mappers, newFileMapper(&r.Report, files))
	}
	cov, unmapped := lineCoverage(profiles, mappers, lines)
	out.HasProfile = len(profiles) > 0 && len(cov) > 0
	if len(unmapped) > 0 {
		notes = append(notes, fmt.Sprintf("statement coverage not shown for %s: no such file found on disk", strings.Join(unmapped, ", ")))
	}
	out.ProfileNote = strings.Join(notes, "; ")

	for k, file := range files {
		sf := srcFile{
			Path:   places.Path(file),
			Anchor: fmt.Sprintf("src-%d", k+1),
			Counts: map[string]int{},
		}
		fs := byFile[file]
		sf.Sites = len(fs)
		for _, s := range fs {
			sf.Counts[s.class()]++
		}
		text := lines(file)
		if err := errs[file]; err != nil {
			sf.Err = fmt.Sprintf("cannot read %s: %v", file, unwrapPathErr(err))
			out.Files = append(out.Files, sf)
			continue
		}
		onLine := map[int][]*unionSite{}
		for _, s := range fs {
			if s.Line > len(text) {
				sf.Missing++
				continue
			}
			onLine[s.Line] = append(onLine[s.Line], s)
		}
		lc := cov[file]
		for n, t := range text {
			l := srcLine{N: n + 1, Sites: len(onLine[n+1])}
			if n+1 < len(lc) {
				switch lc[n+1] {
				case stmtHit:
					l.Cover = "hit"
				case stmtMiss:
					l.Cover = "miss"
				}
			}
			l.Segs = annotateLine(t, onLine[n+1], labels)
			sf.Lines = append(sf.Lines, l)
		}
		out.Files = append(out.Files, sf)
	}
	return out
}

// unwrapPathErr drops the path an *os.PathError repeats.
func unwrapPathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
