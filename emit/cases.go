// This file prints TestGocolic<Func>, the table of regression cases:
// each calls the function and compares its pinned results.

package emit

import (
	"fmt"
	"strconv"
	"strings"
)

// writeCases writes TestGocolic<Func>, the table of regression cases.
func (p *plan) writeCases(w *strings.Builder) {
	p.put(w, "func TestGocolic%s($t *testing.T) {\n", p.fn)
	if p.writeCaseTable(w) {
		p.put(w, "// $errText maps an error to the message the table pins.\n")
		p.put(w, "$errText := func(err error) string {\nif err == nil {\nreturn \"\"\n}\nreturn err.Error()\n}\n")
	}
	p.put(w, "for _, $tt := range $tests {\n$t.Run($tt.name, func($t *testing.T) {\n")
	p.recoverBlock(w)
	p.writeBuild(w)
	p.writeCaseCall(w)
	for i, r := range p.results {
		if r.pinned {
			p.writeCheck(w, i, r)
		}
	}
	w.WriteString("})\n}\n}\n\n")
}

// writeCaseTable writes the table of cases, and reports whether it pins
// an error message.
func (p *plan) writeCaseTable(w *strings.Builder) (hasErr bool) {
	p.put(w, "$tests := []struct {\nname string\n")
	p.writeFields(w)
	for i, r := range p.results {
		switch {
		case !r.pinned:
		case r.cmp == cmpError:
			hasErr = true
			fmt.Fprintf(w, "want%d string // error message; \"\" means nil\n", i)
		default:
			fmt.Fprintf(w, "want%d %s\n", i, r.typ)
		}
	}
	w.WriteString("}{\n")
	for _, c := range p.cases {
		if c.note != "" {
			w.WriteString(strings.Join(commentLines(c.note), "\n") + "\n")
		}
		var wants []string
		for j, r := range p.results {
			if r.pinned {
				wants = append(wants, fmt.Sprintf("want%d: %s", j, c.results[j]))
			}
		}
		p.writeRow(w, []string{fmt.Sprintf("name: %q", c.name)}, c.args, c.build, wants...)
	}
	w.WriteString("}\n")
	return hasErr
}

// writeCaseCall writes the call of a case, which declares got<i> for
// each pinned result i.
func (p *plan) writeCaseCall(w *strings.Builder) {
	gots := make([]string, len(p.results))
	anyPinned := false
	for i, r := range p.results {
		gots[i] = "_"
		if r.pinned {
			// The got<i> variables are declared by the call itself, so
			// they cannot shadow the function.
			gots[i] = "got" + strconv.Itoa(i)
			anyPinned = true
		}
	}
	if anyPinned {
		fmt.Fprintf(w, "%s := %s\n", strings.Join(gots, ", "), p.call())
	} else {
		w.WriteString(p.call() + "\n")
	}
}

// writeCheck writes the comparison of pinned result i, r, with the
// table's want<i>.
func (p *plan) writeCheck(w *strings.Builder, i int, r result) {
	got, want := "got"+strconv.Itoa(i), p.field("want"+strconv.Itoa(i))
	label := " = "
	if len(p.results) > 1 {
		label = " result " + strconv.Itoa(i) + " = "
	}
	switch r.cmp {
	case cmpError:
		p.put(w, "if got, want := $errText(%s), %s; got != want {\n", got, want)
		p.errorf(w, " error = %q, want %q", "got", "want")
	case cmpBytes:
		fmt.Fprintf(w, "if !bytes.Equal(%s, %s) {\n", got, want)
		p.errorf(w, label+"%q, want %q", got, want)
	case cmpFloat:
		w.WriteString("// NaN never equals itself, but a pinned NaN is still the expected value.\n")
		fmt.Fprintf(w, "if %[1]s != %[2]s && !(%[1]s != %[1]s && %[2]s != %[2]s) {\n", got, want)
		p.errorf(w, label+"%#v, want %#v", got, want)
	case cmpDeep:
		fmt.Fprintf(w, "if !reflect.DeepEqual(%s, %s) {\n", got, want)
		p.errorf(w, label+"%#v, want %#v", got, want)
	default:
		fmt.Fprintf(w, "if %s != %s {\n", got, want)
		p.errorf(w, label+"%#v, want %#v", got, want)
	}
	w.WriteString("}\n")
}
