// This file prints TestGocolic<Func>Crashes, one subtest per crash:
// panics are reproduced in process, every other crash in a child process
// that re-executes the test binary.

package emit

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// returnedMarker is what a crash reproducer child prints when the function
// returned normally. The parent requires it when the child exits cleanly:
// a clean exit without it means the child ran no test at all (for example a
// -test.run pattern that matched nothing), which must not count as a pass.
const returnedMarker = "gocolic: reproducer returned normally"

// outputHead and outputTail bound how much of a reproducer's output the
// generated test quotes in its failure message. The tail shows how the
// child ended; the head is kept too because a fatal error states its
// cause first and then dumps every goroutine.
const (
	outputHead = 1024
	outputTail = 3072
)

// writeCrashes writes TestGocolic<Func>Crashes, one subtest per crash.
func (p *plan) writeCrashes(w *strings.Builder) {
	test := "TestGocolic" + p.fn + "Crashes"
	hasPanic, hasChild := p.crashKinds()
	fmt.Fprintf(w, "// %s fails while the crashes gocolic found are still present.\n", test)
	if hasChild {
		fmt.Fprintf(w, "// Crashes other than panics would kill or hang the test binary, so each\n"+
			"// is reproduced in a child process that re-executes the binary with\n"+
			"// %s set and runs only that subtest.\n", ReproEnv)
	}
	p.put(w, "func %s($t *testing.T) {\n", test)
	p.writeCrashTable(w)
	p.put(w, "for _, $tt := range $tests {\n")
	if hasChild {
		p.put(w, "$tt := $tt // each iteration needs its own copy: parallel subtests outlive it\n")
	}
	p.put(w, "$t.Run($tt.name, func($t *testing.T) {\n")
	p.writeBuild(w)
	if hasPanic {
		p.writePanic(w, hasChild)
	}
	if hasChild {
		p.writeChild(w)
		p.writeSpawn(w, test)
	}
	w.WriteString("})\n}\n}\n")
}

// crashKinds reports whether some crash is a panic, reproduced in
// process, and whether some is not, reproduced in a child process.
func (p *plan) crashKinds() (hasPanic, hasChild bool) {
	for _, c := range p.crashes {
		if c.kind == "panic" {
			hasPanic = true
		} else {
			hasChild = true
		}
	}
	return hasPanic, hasChild
}

// writeCrashTable writes the table of crashes.
func (p *plan) writeCrashTable(w *strings.Builder) {
	p.put(w, "$tests := []struct {\nname string\nkind string\nmsg string\n")
	p.writeFields(w)
	w.WriteString("}{\n")
	for _, c := range p.crashes {
		w.WriteString(strings.Join(commentLines(c.kind+": "+c.msg), "\n") + "\n")
		p.writeRow(w, []string{
			"name: " + strconv.Quote(c.name),
			"kind: " + strconv.Quote(c.kind),
			"msg: " + strconv.Quote(c.msg),
		}, c.args, c.build)
	}
	w.WriteString("}\n")
}

// writePanic writes the in-process reproduction of a panic: the call
// under a recover. With child crashes too, it is for panics only.
func (p *plan) writePanic(w *strings.Builder, hasChild bool) {
	if hasChild {
		p.put(w, "if $tt.kind == \"panic\" {\n")
	}
	p.recoverBlock(w)
	w.WriteString(p.call() + "\n")
	if hasChild {
		w.WriteString("return\n}\n")
	}
}

// writeChild writes what the child process runs: the call, crashing for
// real, and the marker that says the function returned.
func (p *plan) writeChild(w *strings.Builder) {
	p.put(w, "if os.Getenv(%q) == $t.Name() {\n", ReproEnv)
	w.WriteString("// This is the child: crash for real.\n")
	w.WriteString(p.call() + "\n")
	fmt.Fprintf(w, "os.Stdout.WriteString(%q)\n", "\n"+returnedMarker+"\n")
	w.WriteString("return\n}\n")
}

// writeSpawn writes what the parent runs: the child process of subtest
// test, under the timeout, and the failure that quotes its output.
func (p *plan) writeSpawn(w *strings.Builder, test string) {
	p.put(w, "$t.Parallel()\n")
	// The locals below are declared after the last call of the function,
	// so they cannot shadow it.
	fmt.Fprintf(w, "const timeout = %s\n", durationLit(p.timeout))
	w.WriteString("ctx, cancel := context.WithTimeout(context.Background(), timeout)\n")
	w.WriteString("defer cancel()\n")
	// The test name is an identifier and the subtest name is made of
	// [A-Za-z0-9_], so neither needs quoting in the pattern; QuoteMeta
	// keeps that true should the naming ever change.
	p.put(w, "cmd := exec.CommandContext(ctx, os.Args[0], %q+$tt.name+\"$\", \"-test.paniconexit0\")\n",
		"-test.run=^"+regexp.QuoteMeta(test)+"$/^")
	p.put(w, "cmd.Env = append(os.Environ(), %q+$t.Name())\n", ReproEnv+"=")
	w.WriteString("// Do not wait forever for output pipes that a killed child's own\n// children may hold open.\n")
	w.WriteString("cmd.WaitDelay = time.Second\n")
	w.WriteString("out, err := cmd.CombinedOutput()\n")
	fmt.Fprintf(w, "returned := bytes.Contains(out, []byte(%q))\n", returnedMarker)
	p.writeOutput(w)
	kind, msg := p.field("kind"), p.field("msg")
	w.WriteString("switch {\n")
	w.WriteString("case ctx.Err() != nil:\n")
	p.errorf(w, " did not return within %v (gocolic found %s: %s)\nreproducer output:\n%s", "timeout", kind, msg, "output")
	w.WriteString("case err != nil:\n")
	p.errorf(w, " crashed: %v (gocolic found %s: %s)\nreproducer output:\n%s", "err", kind, msg, "output")
	w.WriteString("case !returned:\n")
	p.errorf(w, ": reproducer exited without running the call (gocolic found %s: %s)\nreproducer output:\n%s", kind, msg, "output")
	w.WriteString("}\n")
}

// writeOutput writes the local output: the child's output, cut to its
// head and tail, or "(none)".
func (p *plan) writeOutput(w *strings.Builder) {
	w.WriteString("output := string(out)\n")
	fmt.Fprintf(w, "if n := len(output); n > %d {\n", outputHead+outputTail)
	fmt.Fprintf(w, "output = fmt.Sprintf(\"%%s\\n[... %%d bytes omitted ...]\\n%%s\", output[:%d], n-%d, output[n-%d:])\n}\n",
		outputHead, outputHead+outputTail, outputTail)
	w.WriteString("if output == \"\" {\noutput = \"(none)\"\n}\n")
}
