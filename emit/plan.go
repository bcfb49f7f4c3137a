// This file plans a test file: it validates a Suite and works out the
// table fields, types, comparisons and subtest names of the generated
// code.

package emit

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"time"
)

// maxNameLen bounds the length of a crash subtest name so that `go test -v`
// output stays readable; uniqueness suffixes may add a few characters.
const maxNameLen = 50

// cmpKind is how a pinned result is compared with its expected value.
type cmpKind int

const (
	cmpEqual cmpKind = iota // got != want
	cmpError                // by message, nil being ""
	cmpBytes                // bytes.Equal
	cmpFloat                // got != want, but NaN equals NaN
	cmpDeep                 // reflect.DeepEqual: == does not compile
)

// param is a parameter as it appears in the generated code.
type param struct {
	field    string // table field name
	typ      string // table field type ([]T for a variadic ...T)
	variadic bool
}

// result is a result as it appears in the generated code.
type result struct {
	typ    string
	pinned bool
	cmp    cmpKind
}

// row is a validated Case with its literals normalised.
type row struct {
	name    string // subtest name
	args    []string
	results []string // indexed like plan.results; "" where not pinned
	note    string
	build   string // a builder of the arguments, or ""
}

// crashRow is a validated Crash with its subtest name.
type crashRow struct {
	name, kind, msg string
	args            []string
	build           string
}

// plan is a validated Suite, ready to be written out.
type plan struct {
	pkg, fn string
	method  string
	params  []param
	results []result
	cases   []row
	crashes []crashRow
	timeout time.Duration
	build   bool // some row has a builder: the tables get a build field
	// locals expands the placeholders of put. A generated local that is in
	// scope where the function is called must not shadow it, so a local
	// named like the function gets a trailing underscore.
	locals *strings.Replacer
}

// newPlan validates s and works out the names, types and comparisons of
// the generated code.
func newPlan(s Suite) (*plan, error) {
	if err := checkNames(s); err != nil {
		return nil, err
	}
	p := &plan{pkg: s.Package, fn: s.Func, method: s.Method, timeout: s.ReproTimeout, locals: localNames(s.Func)}
	if p.timeout <= 0 {
		p.timeout = DefaultReproTimeout
	}
	for _, add := range []func(Suite) error{p.addParams, p.addResults, p.addCases, p.addCrashes} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// checkNames validates the package, function and method names of s and
// that it has something to test.
func checkNames(s Suite) error {
	if !token.IsIdentifier(s.Package) || s.Package == "_" {
		return fmt.Errorf("invalid package name %q", s.Package)
	}
	if !token.IsIdentifier(s.Func) || s.Func == "_" || s.Func == "init" {
		return fmt.Errorf("invalid function name %q", s.Func)
	}
	if len(s.Cases) == 0 && len(s.Crashes) == 0 {
		return errors.New("suite has neither cases nor crashes")
	}
	if s.Method != "" && (!token.IsIdentifier(s.Method) || len(s.Params) == 0) {
		return fmt.Errorf("invalid method %q: a method needs a name and a receiver", s.Method)
	}
	return nil
}

// localNames returns the replacer of the placeholders of plan.put: each
// generated local keeps its name unless that is fn's, which would shadow
// the function where it is called; it then gets a trailing underscore.
func localNames(fn string) *strings.Replacer {
	var pairs []string
	// Longer placeholders first: the replacer tries them in this order.
	for _, name := range []string{"errText", "tests", "tt", "t"} {
		local := name
		if local == fn {
			local += "_"
		}
		pairs = append(pairs, "$"+name, local)
	}
	return strings.NewReplacer(pairs...)
}

// addParams plans the table fields of the parameters of s.
func (p *plan) addParams(s Suite) error {
	for i, sp := range s.Params {
		typ, variadic := strings.CutPrefix(strings.TrimSpace(sp.Type), "...")
		if variadic && i != len(s.Params)-1 {
			return fmt.Errorf("parameter %d: only the last parameter can be variadic", i)
		}
		_, norm, err := parseNode(typ)
		if err != nil {
			return fmt.Errorf("parameter %d: type %q: %w", i, sp.Type, err)
		}
		if variadic {
			norm = "[]" + norm
		}
		field, err := paramField(i, sp.Name, s.Method != "")
		if err != nil {
			return fmt.Errorf("parameter %d: %w", i, err)
		}
		p.params = append(p.params, param{field: field, typ: norm, variadic: variadic})
	}
	return nil
}

// paramField returns the table field of parameter i, named name. Every
// field gets a prefix so that no parameter name can collide with the
// table's own fields (name, kind, msg, want<i>); unnamed parameters are
// numbered instead. A method's receiver is the field receiver, which no
// prefixed name can be.
func paramField(i int, name string, method bool) (string, error) {
	switch {
	case i == 0 && method:
		return "receiver", nil
	case name == "" || name == "_":
		return "in" + strconv.Itoa(i), nil
	case token.IsIdentifier(name):
		return "in_" + name, nil
	}
	return "", fmt.Errorf("invalid name %q", name)
}

// addResults plans the results of s and how each is compared.
func (p *plan) addResults(s Suite) error {
	for i, sr := range s.Results {
		expr, norm, err := parseNode(sr.Type)
		if err != nil {
			return fmt.Errorf("result %d: type %q: %w", i, sr.Type, err)
		}
		r := result{typ: norm, pinned: sr.Pinned}
		switch {
		case sr.IsError:
			r.cmp = cmpError
		case isByteSlice(expr):
			r.cmp = cmpBytes
		case isFloat(expr):
			r.cmp = cmpFloat
		case !comparable(expr):
			// != would not compile; reflect.DeepEqual is the standard
			// library's general equality.
			r.cmp = cmpDeep
		}
		p.results = append(p.results, r)
	}
	return nil
}

// addCases plans the rows of the regression table, with their subtest
// names.
func (p *plan) addCases(s Suite) error {
	names := make([]string, len(s.Cases))
	for i, c := range s.Cases {
		names[i] = caseName(c, p.results)
	}
	names = uniqueNames(names)
	for i, c := range s.Cases {
		args, err := literals(c.Args, len(p.params))
		if err != nil {
			return fmt.Errorf("case %d: %w", i, err)
		}
		build, err := p.builder(c.Build)
		if err != nil {
			return fmt.Errorf("case %d: %w", i, err)
		}
		results, err := p.wants(c.Results)
		if err != nil {
			return fmt.Errorf("case %d: %w", i, err)
		}
		note := coversNote(c.Covers)
		if c.Note != "" {
			note = strings.TrimPrefix(note+"\n"+c.Note, "\n")
		}
		p.cases = append(p.cases, row{name: names[i], args: args, results: results, note: note, build: build})
	}
	return nil
}

// wants validates and normalises the literals of a case's pinned
// results; the others are "".
func (p *plan) wants(lits []string) ([]string, error) {
	out := make([]string, len(p.results))
	for j, r := range p.results {
		if !r.pinned {
			continue
		}
		if j >= len(lits) {
			return nil, fmt.Errorf("no value for pinned result %d", j)
		}
		_, lit, err := parseNode(lits[j])
		if err != nil {
			return nil, fmt.Errorf("result %d: %w", j, err)
		}
		if r.cmp == cmpError && lit == "nil" {
			// The table pins error messages; a nil error has none.
			lit = `""`
		}
		out[j] = lit
	}
	return out, nil
}

// addCrashes plans the rows of the crash table, with their subtest names.
func (p *plan) addCrashes(s Suite) error {
	names := crashNames(s.Crashes)
	for i, c := range s.Crashes {
		args, err := literals(c.Args, len(p.params))
		if err != nil {
			return fmt.Errorf("crash %d: %w", i, err)
		}
		build, err := p.builder(c.Build)
		if err != nil {
			return fmt.Errorf("crash %d: %w", i, err)
		}
		p.crashes = append(p.crashes, crashRow{name: names[i], kind: c.Kind, msg: c.Message, args: args, build: build})
	}
	return nil
}

// crashNames names the crashes' subtests: by kind and message
// (crashName), crashes alike told apart by where they happened when that
// differs (panics_interface_conversion_in_IncMinor rather than …_2), and
// by a number last (uniqueNames).
func crashNames(crashes []Crash) []string {
	names := make([]string, len(crashes))
	where := map[string]map[string]bool{}
	for i, c := range crashes {
		names[i] = crashName(c.Kind, c.Message)
		if where[names[i]] == nil {
			where[names[i]] = map[string]bool{}
		}
		where[names[i]][c.Where] = true
	}
	for i, c := range crashes {
		if len(where[names[i]]) > 1 {
			names[i] = withPlace(names[i], c.Where)
		}
	}
	return uniqueNames(names)
}

// builder validates and normalises a Build function literal, and notes
// that the tables need a build field.
func (p *plan) builder(src string) (string, error) {
	if src == "" {
		return "", nil
	}
	e, norm, err := parseNode(src)
	if err != nil {
		return "", fmt.Errorf("build: %w", err)
	}
	if _, ok := e.(*ast.FuncLit); !ok {
		return "", fmt.Errorf("build: %q is not a function literal", src)
	}
	p.build = true
	return norm, nil
}

// coversNote lists the outcomes a case covers first, wrapped after
// about eighty columns: "covers: p.go:31 c == '=' true, ...". The lines
// after the first are not indented, which gofmt would take for code.
func coversNote(cs []Cond) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	line := 0
	for i, c := range cs {
		item := c.String()
		switch {
		case i == 0:
			b.WriteString("covers: ")
			line = len("covers: ")
		case line+len(item) > 80:
			b.WriteString(",\n")
			line = 0
		default:
			b.WriteString(", ")
			line += 2
		}
		b.WriteString(item)
		line += len(item)
	}
	return b.String()
}

// uniqueNames appends _2, _3, ... to repeated names, keeping the first
// occurrence unchanged and never producing a name used elsewhere.
func uniqueNames(names []string) []string {
	used := make(map[string]bool, len(names))
	for _, n := range names {
		used[n] = true
	}
	taken := make(map[string]bool, len(names))
	out := make([]string, len(names))
	for i, n := range names {
		name := n
		// A suffixed name must also avoid the names of later crashes,
		// which keep their names if they are not duplicates themselves.
		for k := 2; taken[name] || (name != n && used[name]); k++ {
			name = n + "_" + strconv.Itoa(k)
		}
		taken[name] = true
		out[i] = name
	}
	return out
}
