package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/report"
)

func TestClassify(t *testing.T) {
	const mod = "/w/mods/m"
	covered := &report.Report{
		Executions: 40,
		Bugs:       []report.Bug{{Kind: "panic"}},
		Branches: report.Branches{Covered: 3, Total: 4, Sites: []report.Site{
			{Pos: mod + "/a.go:3:5", True: true, False: true},
			{Pos: mod + "/sub/b.go:9:2", False: true},
		}},
	}
	internal := &report.Report{Executions: 7, InternalErrors: []report.InternalError{
		{Where: "solver", Message: "index out of range", Count: 2, Stack: "goroutine 1 [running]:\nwalk.pickVar()"},
	}}
	tests := []struct {
		name     string
		exit     int
		timedOut bool
		output   string
		rep      *report.Report
		want     FunctionResult // Detail is checked with detail
		detail   string         // a substring of Detail
	}{
		{
			name: "ok, outcomes relative to the module",
			rep:  covered,
			want: FunctionResult{Status: statusOK, Executions: 40, Bugs: 1, Total: 4, Covered: []string{"a.go:3:5 F", "a.go:3:5 T", "sub/b.go:9:2 F"}},
		},
		{
			name:   "refused with exit 2",
			exit:   2,
			output: "gocolic: warning: something\ngocolic: parameter f of Walk has type func(int) error: functions are not supported as inputs\n",
			want:   FunctionResult{Status: statusRefused, Exit: 2, Reason: "parameter: functions are not supported as inputs"},
			detail: "parameter f of Walk",
		},
		{
			name:   "a failed instrumented build",
			exit:   1,
			output: "gocolic: instrumented p (3 branch sites), building worker\ngocolic: building the instrumented worker failed:\n# p\n./p.go:3:1: undefined: _gcl_x\n",
			want:   FunctionResult{Status: statusBuild, Exit: 1, Reason: "instrumented build failed"},
			detail: "undefined: _gcl_x",
		},
		{
			name:   "a panic of gocolic exits 2 but is a crash",
			exit:   2,
			output: "gocolic: exploring p.F\npanic: runtime error: index out of range [0] with length 0\n\ngoroutine 7 [running]:\ngithub.com/gocolic/gocolic/solver/walk.(*search).pickVar(...)\n",
			want:   FunctionResult{Status: statusCrash, Exit: 2, Reason: crashPanic},
			detail: "pickVar",
		},
		{
			name:   "internal errors in the report of a run that exited 0",
			rep:    internal,
			output: "gocolic: 7 executions\n",
			want:   FunctionResult{Status: statusCrash, Reason: crashInternal, Executions: 7},
			detail: "solver: index out of range (2 times)",
		},
		{
			name:     "killed at the time limit",
			exit:     -1,
			timedOut: true,
			output:   "gocolic: exploring p.F\n",
			want:     FunctionResult{Status: statusCrash, Exit: -1, Reason: crashHang},
		},
		{
			name:   "exit 1 without a build error",
			exit:   1,
			output: "gocolic: run failed: the worker could not start\n",
			want:   FunctionResult{Status: statusCrash, Exit: 1, Reason: crashError},
			detail: "could not start",
		},
		{
			name:   "another exit status",
			exit:   137,
			output: "Killed\n",
			want:   FunctionResult{Status: statusCrash, Exit: 137, Reason: crashExit + " 137"},
		},
		{
			name:   "exit 0 and no report",
			output: "gocolic: 3 executions\n",
			want:   FunctionResult{Status: statusCrash, Reason: crashNoReport},
		},
		{
			name:   "a finding's panic is in the report, not a trace: ok",
			rep:    &report.Report{Executions: 2, Bugs: []report.Bug{{Kind: "panic", Message: "panic: boom"}}},
			output: "gocolic: 2 executions, 1 bugs\n  panic: boom\n    input: F(0)\n",
			want:   FunctionResult{Status: statusOK, Executions: 2, Bugs: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classify(tt.exit, tt.timedOut, []byte(tt.output), tt.rep, mod)
			if !strings.Contains(got.Detail, tt.detail) {
				t.Errorf("Detail = %q, want it to contain %q", got.Detail, tt.detail)
			}
			got.Detail = ""
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("classify = %+v\nwant       %+v", got, tt.want)
			}
		})
	}
}

func TestNormalizeReason(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"function Map is generic; gocolic tests only non-generic functions (test a function that calls an instance of it)", "generic function"},
		{"parameter ch of Pipe has type chan int: channels are not supported as inputs", "parameter: channels are not supported as inputs"},
		{"parameter v of Marshal has type interface{}: no type declared in package toml implements the interface", "parameter: no type declared in package P implements the interface"},
		{"receiver of Tree.Walk has type *Tree: the type cannot be named in the package", "receiver: the type cannot be named in the package"},
		{"parameter #2 of F has type complex128: complex128 is not supported as input", "parameter: complex128 is not supported as input"},
		{"Reader.Read is an interface method; gocolic tests methods with a body", "interface method"},
		{"method Len of Set is promoted from another package; test it there", "method promoted from another package"},
		{"package example.com/p uses cgo, which gocolic does not support\nmore", "package P uses cgo, which gocolic does not support"},
	}
	for _, tt := range tests {
		if got := normalizeReason(tt.msg); got != tt.want {
			t.Errorf("normalizeReason(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		m    ModuleResult
		want Summary
	}{
		{
			name: "a module that could not be loaded",
			m:    ModuleResult{Path: "m", Version: "v1", Kind: "text", Error: "go mod download m@v1: not found\ndetail"},
			want: Summary{Module: "m@v1", Kind: "text", Reasons: map[string]int{"module: go mod download m@v1: not found": 1}},
		},
		{
			name: "coverage is the union over a package's functions, and counts only packages with a run",
			m: ModuleResult{Path: "m", Version: "v1", Packages: []PackageResult{
				{Path: "m/a", Build: "ok", Outcomes: 10, Funcs: []FunctionResult{
					{Name: "F", Status: statusOK, Executions: 5, Covered: []string{"a.go:1:1 T", "a.go:2:1 F"}, Total: 10},
					{Name: "G", Status: statusOK, Executions: 7, Bugs: 1, Covered: []string{"a.go:1:1 T", "a.go:3:1 T"}, Total: 10},
					{Name: "H", Status: statusRefused, Reason: "generic function"},
					{Name: "I", Status: statusSkipped, Reason: "-funcs limit"},
				}},
				{Path: "m/b", Build: "ok", Outcomes: 20, Funcs: []FunctionResult{
					{Name: "J", Status: statusSkipped, Reason: "-time limit"},
				}},
				{Path: "m/c", Refused: "package m/c uses cgo, which gocolic does not support"},
			}},
			want: Summary{Module: "m@v1", Packages: 3, PkgRefused: 1, Functions: 5, FuncRefused: 1, Run: 2, NotRun: 2,
				Executions: 12, Bugs: 1, Covered: 3, Outcomes: 10,
				Reasons: map[string]int{"generic function": 1, "package: package P uses cgo, which gocolic does not support": 1}},
		},
		{
			name: "build failures count once per package, crashes once each",
			m: ModuleResult{Path: "m", Version: "v1", Packages: []PackageResult{
				{Path: "m/a", Build: statusBuild, Outcomes: 8, Funcs: []FunctionResult{
					{Name: "F", Status: statusSkipped, Reason: "its package's instrumented build failed"},
				}},
				{Path: "m/b", Build: "ok", Outcomes: 6, Funcs: []FunctionResult{
					{Name: "F", Status: statusBuild},
					{Name: "G", Status: statusBuild},
					{Name: "H", Status: statusCrash, Reason: crashPanic, Executions: 3, Covered: []string{"b.go:1:1 T"}, Total: 6},
				}},
				{Path: "m/c", Build: statusCrash, Funcs: []FunctionResult{
					{Name: "K", Status: statusCrash, Reason: crashInstrumentr},
				}},
			}},
			want: Summary{Module: "m@v1", Packages: 3, BuildFailed: 2, Crashes: 3, Functions: 5, NotRun: 1,
				Executions: 3, Covered: 1, Outcomes: 6, Reasons: map[string]int{}},
		},
		{
			name: "a report's total outcomes above the package's count wins",
			m: ModuleResult{Path: "m", Version: "v1", Packages: []PackageResult{
				{Path: "m/a", Build: "ok", Outcomes: 4, Funcs: []FunctionResult{
					{Name: "F", Status: statusOK, Executions: 1, Total: 6},
				}},
			}},
			want: Summary{Module: "m@v1", Packages: 1, Functions: 1, Run: 1, Executions: 1, Outcomes: 6, Reasons: map[string]int{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := summarize(tt.m); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("summarize =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestTotal(t *testing.T) {
	rows := []Summary{
		{Module: "a@v1", Packages: 2, PkgRefused: 1, BuildFailed: 1, Crashes: 2, Functions: 10, FuncRefused: 4, Run: 5, NotRun: 1,
			Executions: 100, Bugs: 1, Covered: 30, Outcomes: 60, Reasons: map[string]int{"generic function": 3, "x": 1}},
		{Module: "b@v2", Packages: 1, Functions: 3, FuncRefused: 1, Run: 2, Executions: 10, Covered: 5, Outcomes: 8,
			Reasons: map[string]int{"generic function": 1}},
	}
	want := Summary{Module: "total", Packages: 3, PkgRefused: 1, BuildFailed: 1, Crashes: 2, Functions: 13, FuncRefused: 5, Run: 7, NotRun: 1,
		Executions: 110, Bugs: 1, Covered: 35, Outcomes: 68, Reasons: map[string]int{"generic function": 4, "x": 1}}
	if got := total(rows); !reflect.DeepEqual(got, want) {
		t.Errorf("total =\n%+v\nwant\n%+v", got, want)
	}
}

func TestSelectModules(t *testing.T) {
	tests := []struct {
		list    string
		want    []string
		wantErr string
	}{
		{list: "shlex,github.com/tidwall/gjson", want: []string{"github.com/google/shlex", "github.com/tidwall/gjson"}},
		{list: "semver, yaml.v3", want: []string{"github.com/Masterminds/semver/v3", "gopkg.in/yaml.v3"}},
		{list: "nosuch", wantErr: `no module "nosuch"`},
	}
	for _, tt := range tests {
		got, err := selectModules(tt.list)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("selectModules(%q) error %v, want %q", tt.list, err, tt.wantErr)
			}
			continue
		}
		var paths []string
		for _, m := range got {
			paths = append(paths, m.Path)
		}
		if err != nil || !reflect.DeepEqual(paths, tt.want) {
			t.Errorf("selectModules(%q) = %v, %v; want %v", tt.list, paths, err, tt.want)
		}
	}
}

func TestCache(t *testing.T) {
	c := cache{dir: t.TempDir()}
	k := c.key("function", "bin", "m", "v1", "p", "F")
	if k == c.key("function", "bin", "m", "v1", "p", "G") || k == c.key("function", "bin", "m", "v1", "pF") {
		t.Errorf("distinct parts give the key %s", k)
	}
	var got FunctionResult
	if c.get(k, &got) {
		t.Fatal("get of a key never put succeeded")
	}
	want := FunctionResult{Name: "F", Status: statusOK, Executions: 3, Covered: []string{"a.go:1:1 T"}}
	if err := c.put(k, want); err != nil {
		t.Fatal(err)
	}
	if !c.get(k, &got) || !reflect.DeepEqual(got, want) {
		t.Errorf("get = %+v, want %+v", got, want)
	}
	// No cache directory: nothing is stored.
	var none cache
	if err := none.put(k, want); err != nil || none.get(k, &got) {
		t.Errorf("a cache without a directory stored a value (put error %v)", err)
	}
}
