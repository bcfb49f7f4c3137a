// This file prints the planned test file as Go source: its head, and the
// pieces both tests use (calls, table fields and rows, failure messages,
// comments); cases.go and crashes.go print the tests themselves.

package emit

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// head returns the start of the test file of package pkg: the Header,
// the package clause and the imports.
func head(pkg string, imports []fileImport) string {
	var w strings.Builder
	fmt.Fprintf(&w, "%s\n\npackage %s\n\n", Header, pkg)
	if len(imports) == 0 {
		return w.String()
	}
	w.WriteString("import (\n")
	for _, imp := range imports {
		if imp.name == lastElem(imp.path) {
			fmt.Fprintf(&w, "\t%q\n", imp.path)
		} else {
			fmt.Fprintf(&w, "\t%s %q\n", imp.name, imp.path)
		}
	}
	w.WriteString(")\n\n")
	return w.String()
}

// body returns the test functions of the file: TestGocolic<Func> when
// there are cases, TestGocolic<Func>Crashes when there are crashes.
func (p *plan) body() string {
	var w strings.Builder
	if len(p.cases) > 0 {
		p.writeCases(&w)
	}
	if len(p.crashes) > 0 {
		p.writeCrashes(&w)
	}
	return w.String()
}

// commentLines renders text as // comment lines, escaping anything that is
// not printable so that the comment stays on the lines it claims.
func commentLines(text string) []string {
	var lines []string
	for _, line := range strings.Split(strings.TrimRight(text, "\r\n"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		var b strings.Builder
		for i := 0; i < len(line); {
			r, size := utf8.DecodeRuneInString(line[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				fmt.Fprintf(&b, `\x%02x`, line[i])
			case r == '\t' || unicode.IsPrint(r):
				b.WriteRune(r)
			case r < 0x10000:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
			i += size
		}
		lines = append(lines, strings.TrimRightFunc("// "+b.String(), unicode.IsSpace))
	}
	return lines
}

// put writes one piece of generated code. In format, the placeholders $t,
// $tt, $tests and $errText stand for the generated locals of those names
// (see newPlan); they are expanded before args are substituted, so text
// coming from the suite is never mistaken for a placeholder.
func (p *plan) put(w *strings.Builder, format string, args ...any) {
	format = p.locals.Replace(format)
	if len(args) == 0 {
		w.WriteString(format)
		return
	}
	fmt.Fprintf(w, format, args...)
}

// field returns the expression reading a table field in a subtest.
func (p *plan) field(name string) string {
	return p.locals.Replace("$tt.") + name
}

// callFormat returns the printf format of a call, e.g. "F(%#v, %#v)", and
// the table fields it formats.
func (p *plan) callFormat() (string, []string) {
	verbs := make([]string, len(p.params))
	fields := make([]string, len(p.params))
	for i, prm := range p.params {
		verbs[i] = "%#v"
		fields[i] = p.field(prm.field)
	}
	if p.method != "" {
		return verbs[0] + "." + p.method + "(" + strings.Join(verbs[1:], ", ") + ")", fields
	}
	return p.fn + "(" + strings.Join(verbs, ", ") + ")", fields
}

// call returns the Go call of the function on the table fields.
func (p *plan) call() string {
	args := make([]string, len(p.params))
	for i, prm := range p.params {
		args[i] = p.field(prm.field)
		if prm.variadic {
			args[i] += "..."
		}
	}
	if p.method != "" {
		return args[0] + "." + p.method + "(" + strings.Join(args[1:], ", ") + ")"
	}
	return p.fn + "(" + strings.Join(args, ", ") + ")"
}

// errorf writes a t.Errorf statement whose message starts with the call.
func (p *plan) errorf(w *strings.Builder, suffix string, extra ...string) {
	format, args := p.callFormat()
	args = append(args, extra...)
	p.put(w, "$t.Errorf(%s, %s)\n", strconv.Quote(format+suffix), strings.Join(args, ", "))
}

// recoverBlock writes the deferred recover that turns a panic of the
// function into a failure of the current subtest only.
func (p *plan) recoverBlock(w *strings.Builder) {
	w.WriteString("defer func() {\nif r := recover(); r != nil {\n")
	p.errorf(w, " panicked: %v", "r")
	w.WriteString("}\n}()\n")
}

// writeFields writes the table fields holding the arguments, and the
// builder's when some row has one.
func (p *plan) writeFields(w *strings.Builder) {
	types := make([]string, len(p.params))
	for i, prm := range p.params {
		fmt.Fprintf(w, "%s %s\n", prm.field, prm.typ)
		types[i] = prm.typ
	}
	if p.build {
		fmt.Fprintf(w, "build func() (%s) // when set, the arguments\n", strings.Join(types, ", "))
	}
}

// writeRow writes one table entry from its leading fields and arguments,
// or its builder.
func (p *plan) writeRow(w *strings.Builder, fields, args []string, build string, trailing ...string) {
	if build != "" {
		fields = append(fields, "build: "+build)
	} else {
		for j, prm := range p.params {
			fields = append(fields, prm.field+": "+args[j])
		}
	}
	fields = append(fields, trailing...)
	fmt.Fprintf(w, "{%s},\n", strings.Join(fields, ", "))
}

// writeBuild writes the statement that takes a subtest's arguments from
// its row's builder, if the tables have builders.
func (p *plan) writeBuild(w *strings.Builder) {
	if !p.build {
		return
	}
	fields := make([]string, len(p.params))
	for i, prm := range p.params {
		fields[i] = p.field(prm.field)
	}
	p.put(w, "if $tt.build != nil {\n%s = $tt.build()\n}\n", strings.Join(fields, ", "))
}

// durationLit renders d as a readable Go expression of type time.Duration.
func durationLit(d time.Duration) string {
	units := []struct {
		d    time.Duration
		name string
	}{
		{time.Hour, "time.Hour"},
		{time.Minute, "time.Minute"},
		{time.Second, "time.Second"},
		{time.Millisecond, "time.Millisecond"},
		{time.Microsecond, "time.Microsecond"},
	}
	for _, u := range units {
		if d%u.d == 0 {
			return fmt.Sprintf("%d * %s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("time.Duration(%d)", int64(d))
}
