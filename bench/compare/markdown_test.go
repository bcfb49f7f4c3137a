package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/report"
)

// testRows are the runs of three examples: one where every contender
// found something, one where every contender failed, one with nothing
// planted.
func testRows() []row {
	magic := &harness.Example{Name: "magic", Package: "magic", Func: "Check", Fuzz: "FuzzCheck", Planted: []string{"a", "b"}}
	bits := &harness.Example{Name: "bits", Package: "bits", Func: "F", Fuzz: "FuzzF", Planted: []string{"c"}}
	none := &harness.Example{Name: "none", Package: "none", Func: "G", Fuzz: "FuzzG"}
	return []row{
		{ex: magic,
			g: &gocolicRun{found: []string{"a"}, other: []string{"x|y"}, firstMS: 12, covered: 5, total: 8, execsPerSec: 1234.5, executions: 99, elapsedMS: 1000, stopped: "budget"},
			f: &fuzzRun{failed: true, failAt: "1.2s", found: []string{"b"}, execs: 500, execsPerSec: 77, haveRate: true,
				cov: replayCov{covered: 3, total: 8, replayed: 4, inputs: 5, notes: []string{"replay ran 4 of 5 inputs"}}},
			targets: map[string]*targetRun{cHybrid: {found: []string{"a", "b"}, firstMS: 40, replayOnly: []string{"b"}, haveOwn: true, ownCovered: 6, ownTotal: 8,
				executions: 50, elapsedMS: 900, stopped: "budget", cacheFiles: 7, cov: replayCov{covered: 7, total: 8, replayed: 9},
				hybrid: &report.HybridStats{Rounds: 3, FromFuzzer: 4, ToFuzzer: 5, FuzzerFailed: 1, Note: "oops\nmore"}},
				cGFuzz:   {firstMS: -1, haveOwn: true, ownCovered: 2, ownTotal: 8, execsPerSec: 3.3, stopped: "exhausted", cov: replayCov{err: errors.New("no inputs")}},
				cGMutate: {firstMS: -1, haveOwn: true, ownCovered: 4, ownTotal: 8, execsPerSec: 50000, executions: 450000, elapsedMS: 9000, stopped: "budget", cov: replayCov{covered: 4, total: 8, replayed: 3}},
			},
		},
		{ex: bits,
			g:       &gocolicRun{err: errors.New("boom\nline2"), firstMS: -1},
			f:       &fuzzRun{err: errors.New("fuzz broke"), cov: replayCov{err: errors.New("replay broke")}},
			targets: map[string]*targetRun{cHybrid: {err: errors.New("hy err"), firstMS: -1, cov: replayCov{err: errors.New("x")}}},
		},
		{ex: none,
			g:       &gocolicRun{err: errors.New("late"), covered: 1, total: 2, firstMS: -1},
			f:       &fuzzRun{cov: replayCov{covered: 1, total: 1, replayed: 1}},
			targets: map[string]*targetRun{cHybrid: {firstMS: -1, haveOwn: true}}},
	}
}

func TestMarkdownReport(t *testing.T) {
	tests := []struct {
		name       string
		contenders []string
		want       []string // lines of the report
		absent     []string // substrings it must not hold
	}{
		{"gocolic alone", []string{cGocolic}, []string{
			"| example | planted bugs | gocolic: bugs found | gocolic: branch cov | gocolic: execs/s |",
			"| magic | 2 | 1 (+1 other) | 5/8 | 1,235 |",
			"| bits | 1 | error | error | error |",
			"| none | 0 | 0 | 1/2 | 0 |",
			"| **total** | **3** | **1** | **6/10 (60%)** |  |",
			"| magic | magic.Check | `a`, other: `x\\|y` (first at 12 ms) | budget after 1000 ms, 99 execs |",
			"- bits: gocolic: boom",
			"- none: gocolic: late",
		}, []string{"hybrid", "fuzz:", "¹"}},
		{"all", allContenders, []string{
			"| magic | 2 | 1 (+1 other) | 5/8 | 1,235 | 1 | 3/8 ² | 77 | 2 ³ | 7/8 | 3 / 4 / 5 | 0 | error | 3 | — | — | — | 0 | 4/8 | 50,000 |",
			"| bits | 1 | error | error | error | error | error | — | error | error | — | — | — | — | — | — | — | — | — | — |",
			"| none | 0 | 0 | 1/2 | 0 | 0 | 1/1 | — ¹ | 0 | 0/0 | — | — | — | — | — | — | — | — | — | — |",
			"| **total** | **3** | **1** | **6/10 (60%)** |  | **1** | **4/9 (44%)** |  | **2** | **7/8 (88%)** | **3 / 4 / 5** | **0** | **0/0** |  | **0** | **0/0** |  | **0** | **4/8 (50%)** |  |",
			"Details of mutation lane (`gocolic fuzz -lanes mutate -budget B -workers W -minimizetime 0 ./NAME FuzzNAME`).",
			"| magic | magic.FuzzCheck | — | budget after 9000 ms, 450000 execs | 4/8 | 3 |",
			"| magic | magic.Check | `a`, other: `x\\|y` (first at 12 ms) | budget after 1000 ms, 99 execs | `b` | stopped at first failure, 1.2s, 500 execs | 4 |",
			"| magic | magic.FuzzCheck | `a`, `b` (first at 40 ms); only in the replay of its outputs: `b` | budget after 900 ms, 50 execs | 6/8 | 9 | 3 | 4 | 5 | 1 | 7 |",
			"| bits | bits.FuzzF | — | — | — | — | — | — | — | — | 0 |",
			"| magic | magic.FuzzCheck | — | exhausted after 0 ms, 0 execs | 2/8 | — |",
			"| bits | bits.FuzzF |  |  |  |  |",
			"- magic: fuzz coverage: replay ran 4 of 5 inputs",
			"- magic: hybrid: the fuzzer side stopped early: oops",
			"- magic: gocolic fuzz coverage replay: no inputs",
			"- bits: go test -fuzz: fuzz broke",
			"- bits: hybrid: hy err",
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md, err := markdownReport(testRows(), tt.contenders, 10*time.Second, 3)
			if err != nil {
				t.Fatal(err)
			}
			lines := map[string]bool{}
			for _, l := range strings.Split(md, "\n") {
				lines[l] = true
			}
			for _, w := range tt.want {
				if !lines[w] {
					t.Errorf("no line %q in the report:\n%s", w, md)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(md, a) {
					t.Errorf("the report holds %q:\n%s", a, md)
				}
			}
		})
	}
}
