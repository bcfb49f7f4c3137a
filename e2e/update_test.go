package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/state"
)

// midV1 is the mid function of seed 003's Program 1 (Figure 1): the middle
// of three integers, six paths.
const midV1 = `package mid

// Mid returns the middle of x, y and z.
func Mid(x, y, z int) int {
	if x < y {
		if y < z {
			return y
		} else if x < z {
			return z
		} else {
			return x
		}
	} else if x < z {
		return x
	} else if y < z {
		return z
	} else {
		return y
	}
}
`

// midV2 is the seed's Program 2 as far as our copy of it shows (its
// operators are lost): two lines of the x >= y side change, a condition
// and the last result, so the tree of that side changes (Figure 2) while
// the x < y side stays as it was.
var midV2 = strings.NewReplacer(
	"} else if x < z {\n\t\treturn x", "} else if x <= z {\n\t\treturn x",
	"} else {\n\t\treturn y\n\t}\n}", "} else {\n\t\treturn x\n\t}\n}",
).Replace(midV1)

// midV3 changes only the result of one path (x < y, z <= y, x < z), for
// every input of it (z+1, not y, which z may equal there): no
// path changes.
var midV3 = strings.Replace(midV1, "} else if x < z {\n\t\t\treturn z", "} else if x < z {\n\t\t\treturn z + 1", 1)

var dfsFlags = append([]string{"-solver", "z3"}, updateFlags...)

// updateFlags are dfsFlags but the solver mode, which an update takes from
// the saved suite.
var updateFlags = []string{"-workers", "1", "-solvers", "1", "-lanes", "concolic"}

// stateOf reads the suite state gocolic left for Mid in dir.
func stateOf(t *testing.T, dir string) *state.State {
	t.Helper()
	st, err := state.Read(state.Path(filepath.Join(dir, "mid"), "Mid"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// pathsOf returns the paths of a state, each written out with its
// conditions' hashes, sorted.
func pathsOf(st *state.State) []string {
	var out []string
	for _, in := range st.Inputs {
		var steps []string
		for _, s := range in.Path {
			steps = append(steps, s.String())
		}
		out = append(out, strings.Join(steps, ", "))
	}
	slices.Sort(out)
	return out
}

// dfsMid makes a module holding midV1 and runs gocolic test on Mid with a
// DFS there, leaving its tests and state; it returns the module's
// directory and the arguments of that run, without the target.
func dfsMid(t *testing.T) (dir string, test []string) {
	t.Helper()
	dir = module(t, map[string]string{"mid/mid.go": midV1})
	test = append([]string{"test", "-strategy", "dfs", "-seed", "1"}, dfsFlags...)
	if res := run(t, dir, 2*time.Minute, gocolic, append(test, "./mid", "Mid")...); res.code != 0 {
		t.Fatalf("gocolic test exited %d:\n%s", res.code, res.stderr)
	}
	return dir, test
}

func writeMid(t *testing.T, dir, src string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "mid", "mid.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestUpdateMid is seed 003's example: the suite of mid, made by a DFS
// run, is updated after the seed's change, and must equal what a full DFS
// run on the new version makes (the same paths, with the same path
// conditions), for fewer solver queries; the generated tests pass.
func TestUpdateMid(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir, test := dfsMid(t)
	if st := stateOf(t, dir); len(st.Inputs) != 6 || !st.Exhausted {
		t.Fatalf("saved suite has %d inputs (exhausted %t), want mid's 6 paths, exhausted", len(st.Inputs), st.Exhausted)
	}

	writeMid(t, dir, midV2)
	full := module(t, map[string]string{"mid/mid.go": midV2})
	if res := run(t, full, 2*time.Minute, gocolic, append(test, "-json", "full.json", "./mid", "Mid")...); res.code != 0 {
		t.Fatalf("full gocolic test exited %d:\n%s", res.code, res.stderr)
	}
	update := append([]string{"update", "-json", "update.json"}, updateFlags...)
	res := run(t, dir, 2*time.Minute, gocolic, append(update, "./mid", "Mid")...)
	if res.code != 0 {
		t.Fatalf("gocolic update exited %d:\n%s", res.code, res.stderr)
	}
	got, want := pathsOf(stateOf(t, dir)), pathsOf(stateOf(t, full))
	if !slices.Equal(got, want) {
		t.Errorf("updated suite's paths differ from a full run's:\n got %q\nwant %q", got, want)
	}
	up := readReport(t, filepath.Join(dir, "update.json"))
	fr := readReport(t, filepath.Join(full, "full.json"))
	if up.Update == nil {
		t.Fatal("the update's report has no update section")
	}
	u := up.Update
	if u.Queries >= fr.Solver.Queries || u.Queries != up.Solver.Queries {
		t.Errorf("update asked %d solver queries (report %d), the full run %d: want fewer", u.Queries, up.Solver.Queries, fr.Solver.Queries)
	}
	if u.Saved.Queries == 0 || u.Saved.Executions == 0 {
		t.Errorf("update reports nothing of the saved run's cost: %+v", u.Saved)
	}
	// The x < y side keeps its three tests. On the other side the
	// condition x < z became another branch, x <= z: the three paths
	// through it are new paths (two of them taken by saved inputs again,
	// one found in the range, which is that side), the old ones dropped.
	if u.Kept != 3 || u.Dropped != 3 || u.Added != 3 || u.Ranges != 1 {
		t.Errorf("update kept %d, dropped %d, added %d tests in %d ranges; want 3, 3, 3 in 1", u.Kept, u.Dropped, u.Added, u.Ranges)
	}
	if !slices.Equal(u.FuncsChanged, []string{"Mid"}) {
		t.Errorf("functions changed: %v, want [Mid]", u.FuncsChanged)
	}
	if up.Branches.Covered != fr.Branches.Covered {
		t.Errorf("update covers %d branch outcomes, the full run %d", up.Branches.Covered, fr.Branches.Covered)
	}
	if names, out := failingTests(t, dir, "./mid"); len(names) > 0 {
		t.Errorf("updated tests fail: %v\n%s", names, out)
	}
}

// TestUpdateCheck: update -check exits 0 on a suite that is up to date,
// 1 on one that is not, listing the changed result old against new, and
// rewrites nothing; a corrupt state is one error line.
func TestUpdateCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir, _ := dfsMid(t)
	check := append([]string{"update", "-check"}, updateFlags...)
	check = append(check, "./mid", "Mid")
	stateFile := state.Path(filepath.Join(dir, "mid"), "Mid")
	testFile := filepath.Join(dir, "mid", "mid_gocolic_test.go")
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	savedState, savedTests := read(stateFile), read(testFile)

	// A comment and formatting change nothing; without a function,
	// every saved suite of the package is checked.
	writeMid(t, dir, strings.Replace(midV1, "// Mid returns", "// Mid, as in the paper, returns", 1))
	if res := run(t, dir, 2*time.Minute, gocolic, check[:len(check)-1]...); res.code != 0 || !strings.Contains(res.stderr, "updating the suite of Mid") {
		t.Errorf("update -check on an unchanged function exited %d:\n%s", res.code, res.stderr)
	} else if strings.Contains(res.stderr, "functions changed") {
		t.Errorf("a comment counted as a change:\n%s", res.stderr)
	}

	// An update that changes nothing leaves the state as it was, though
	// its run cost something else.
	update := append([]string{"update"}, updateFlags...)
	if res := run(t, dir, 2*time.Minute, gocolic, append(update, "./mid", "Mid")...); res.code != 0 {
		t.Fatalf("gocolic update exited %d:\n%s", res.code, res.stderr)
	}
	if read(stateFile) != savedState {
		t.Error("an update that changed nothing rewrote the state")
	}

	// One result changes, no path does.
	writeMid(t, dir, midV3)
	res := run(t, dir, 2*time.Minute, gocolic, check...)
	if res.code != 1 {
		t.Errorf("update -check on a changed result exited %d, want 1:\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stderr, "result changed: Mid(") || !strings.Contains(res.stderr, "1 results changed") {
		t.Errorf("the changed result is not listed:\n%s", res.stderr)
	}
	if read(stateFile) != savedState || read(testFile) != savedTests {
		t.Error("update -check rewrote the state or the tests")
	}

	// Without -check the suite is rewritten, and is then up to date.
	if res := run(t, dir, 2*time.Minute, gocolic, append(update, "./mid", "Mid")...); res.code != 0 {
		t.Fatalf("gocolic update exited %d:\n%s", res.code, res.stderr)
	}
	if read(stateFile) == savedState {
		t.Error("update did not rewrite the state")
	}
	if res := run(t, dir, 2*time.Minute, gocolic, check...); res.code != 0 {
		t.Errorf("update -check after update exited %d:\n%s", res.code, res.stderr)
	}

	// A truncated state: one line, exit 2, nothing written.
	data := read(stateFile)
	if err := os.WriteFile(stateFile, []byte(data[:len(data)/2]), 0o644); err != nil {
		t.Fatal(err)
	}
	res = run(t, dir, 2*time.Minute, gocolic, append(update, "./mid", "Mid")...)
	if res.code != 2 {
		t.Errorf("update on a truncated state exited %d, want 2:\n%s", res.code, res.stderr)
	}
	if lines := strings.Split(strings.TrimSpace(res.stderr), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "corrupt state file") {
		t.Errorf("want one error line about the corrupt state, got:\n%s", res.stderr)
	}
}

// classifyV1 has a side no input reaches (x%4 == 5, which only a solver
// refutes: the execution tree settles a bound the prefix's bounds exclude,
// such as x < 50 under x > 100, without a query) in a part of the function
// that the change (y == 7 becomes y == 8) leaves alone.
const classifyV1 = `package mid

func Classify(x, y int) int {
	if x > 100 {
		if x%4 == 5 {
			return -1
		}
		if y > x {
			return 1
		}
		return 2
	}
	if y == 7 {
		return 3
	}
	return 0
}
`

// TestUpdateSettles: a side the saved run refuted, in a node whose path
// condition did not change, is settled by the saved suite without a
// query, and the updated suite still equals a full run's.
func TestUpdateSettles(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	classifyV2 := strings.Replace(classifyV1, "y == 7", "y == 8", 1)
	dir := module(t, map[string]string{"mid/mid.go": classifyV1})
	full := module(t, map[string]string{"mid/mid.go": classifyV2})
	test := append([]string{"test", "-strategy", "dfs", "-seed", "1"}, dfsFlags...)
	for _, d := range []string{dir, full} {
		if res := run(t, d, 2*time.Minute, gocolic, append(test, "-json", "full.json", "./mid", "Classify")...); res.code != 0 {
			t.Fatalf("gocolic test exited %d:\n%s", res.code, res.stderr)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "mid", "mid.go"), []byte(classifyV2), 0o644); err != nil {
		t.Fatal(err)
	}
	update := append([]string{"update", "-json", "update.json"}, updateFlags...)
	if res := run(t, dir, 2*time.Minute, gocolic, append(update, "./mid", "Classify")...); res.code != 0 {
		t.Fatalf("gocolic update exited %d:\n%s", res.code, res.stderr)
	}
	read := func(d string) *state.State {
		st, err := state.Read(state.Path(filepath.Join(d, "mid"), "Classify"))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if got, want := pathsOf(read(dir)), pathsOf(read(full)); !slices.Equal(got, want) {
		t.Errorf("updated suite's paths differ from a full run's:\n got %q\nwant %q", got, want)
	}
	u := readReport(t, filepath.Join(dir, "update.json")).Update
	fr := readReport(t, filepath.Join(full, "full.json"))
	if u == nil {
		t.Fatal("no update section")
	}
	if u.Settled < 1 {
		t.Errorf("update settled %d sides by the saved run, want the refuted x%%4 == 5", u.Settled)
	}
	if u.Queries >= fr.Solver.Queries {
		t.Errorf("update asked %d queries, the full run %d: want fewer", u.Queries, fr.Solver.Queries)
	}
	if u.Ranges != 1 || u.Sides != 1 {
		t.Errorf("update explored %d sides in %d ranges, want the side y == 8 alone", u.Sides, u.Ranges)
	}
}

// TestUpdateContinues: a suite saved by a run that was cut short (cover,
// -runs 3, not exhausted) keeps every saved test on unchanged code, and
// the update goes on exploring what the saved run had not tried until it
// has all six paths of mid; -nostate writes no state.
func TestUpdateContinues(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"mid/mid.go": midV1})
	test := append([]string{"test", "-strategy", "cover", "-seed", "1", "-minimizetime", "0"}, dfsFlags...)
	if res := run(t, dir, 2*time.Minute, gocolic, append(test, "-nostate", "./mid", "Mid")...); res.code != 0 {
		t.Fatalf("gocolic test -nostate exited %d:\n%s", res.code, res.stderr)
	}
	if _, err := os.Stat(state.Path(filepath.Join(dir, "mid"), "Mid")); err == nil {
		t.Error("gocolic test -nostate wrote a state")
	}
	if res := run(t, dir, 2*time.Minute, gocolic, append(test, "-runs", "3", "./mid", "Mid")...); res.code != 0 {
		t.Fatalf("gocolic test exited %d:\n%s", res.code, res.stderr)
	}
	saved := stateOf(t, dir)
	if saved.Exhausted || len(saved.Inputs) != 3 {
		t.Fatalf("saved run: %d inputs, exhausted %t; want 3, not exhausted", len(saved.Inputs), saved.Exhausted)
	}
	// The code did not change: -check does not count the paths the saved
	// run had not tried as changes.
	check := append([]string{"update", "-check"}, updateFlags...)
	if res := run(t, dir, 2*time.Minute, gocolic, append(check, "./mid", "Mid")...); res.code != 0 {
		t.Errorf("gocolic update -check on unchanged code exited %d:\n%s", res.code, res.stderr)
	}
	update := append([]string{"update", "-json", "update.json"}, updateFlags...)
	if res := run(t, dir, 2*time.Minute, gocolic, append(update, "./mid", "Mid")...); res.code != 0 {
		t.Fatalf("gocolic update exited %d:\n%s", res.code, res.stderr)
	}
	u := readReport(t, filepath.Join(dir, "update.json")).Update
	if u == nil || u.Kept != 3 || u.Dropped != 0 || u.Added != 3 || u.Settled != 0 {
		t.Errorf("update %+v: want the 3 saved tests kept, the 3 other paths added, nothing settled", u)
	}
	if st := stateOf(t, dir); len(st.Inputs) != 6 || !st.Exhausted {
		t.Errorf("updated suite: %d inputs, exhausted %t; want mid's 6 paths, exhausted", len(st.Inputs), st.Exhausted)
	}
}

// TestStateBound: a suite whose paths take more branches than -maxstate
// leaves no state. gocolic test says so, writes its tests and removes the
// state an earlier run left (it described other tests); gocolic update
// fails with the reason and rewrites nothing.
func TestStateBound(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir, test := dfsMid(t)
	path := state.Path(filepath.Join(dir, "mid"), "Mid")
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	writeMid(t, dir, midV2)
	res := run(t, dir, 2*time.Minute, gocolic, append(append([]string{"update", "-maxstate", "5"}, updateFlags...), "./mid", "Mid")...)
	if res.code == 0 || !strings.Contains(res.stderr, "more than -maxstate 5: nothing was rewritten") {
		t.Errorf("gocolic update -maxstate 5 exited %d, want a failure that says nothing was rewritten:\n%s", res.code, res.stderr)
	}
	if now, err := os.ReadFile(path); err != nil || string(now) != string(saved) {
		t.Errorf("update over -maxstate changed the state file (err %v)", err)
	}

	res = run(t, dir, 2*time.Minute, gocolic, append(append(test, "-maxstate", "5"), "./mid", "Mid")...)
	if res.code != 0 {
		t.Fatalf("gocolic test -maxstate 5 exited %d:\n%s", res.code, res.stderr)
	}
	for _, want := range []string{"suite state not written: the suite's 6 paths take", "the earlier state file, which described other tests, was removed"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("gocolic test -maxstate 5 does not say %q:\n%s", want, res.stderr)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the earlier state file is still there (stat: %v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "mid", "mid_gocolic_test.go")); err != nil {
		t.Errorf("no tests written beside the unwritten state: %v", err)
	}
}
