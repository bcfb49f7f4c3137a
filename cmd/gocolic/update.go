package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gocolic/gocolic/session"
)

const updateUsage = "gocolic update [flags] <package> [Func|FuzzXxx]"

var cmdUpdate = &command{
	name:  "update",
	usage: updateUsage,
	short: "bring generated suites up to date with changed code",
	run:   runUpdate,
}

func runUpdate(ctx context.Context, args []string, stderr io.Writer) int {
	cfg := new(session.Config)
	fs := commandFlags(cfg, session.CmdUpdate, stderr, updateUsage,
		"Update re-runs the inputs saved by gocolic test (or fuzz) in testdata/gocolic/<func>.state.json",
		"on the changed code, keeps the tests whose paths still exist, explores with the solver only",
		"the ranges of paths that changed, and rewrites the generated tests, corpus entries and state.",
		"Without a function it updates every saved suite of the package. The settings that shape",
		"the paths are the saved run's (strategy, seed, depth and length bounds, -stdlib, -instrument,",
		"-impure, -solver); to change them, run gocolic test (or fuzz) again. With -check it rewrites",
		"nothing and exits 1 when a kept test's results changed or tests were added or dropped.")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	var targets []string
	switch fs.NArg() {
	case 2:
		targets = []string{fs.Arg(1)}
	case 1:
		dir, _ := os.Getwd()
		var err error
		if targets, err = session.SavedTargets(ctx, dir, fs.Arg(0)); err != nil {
			fmt.Fprintf(stderr, "gocolic: %v\n", err)
			return 2
		}
	default:
		fs.Usage()
		return 2
	}
	// The worst exit status of all: 2 (the user's input) over 1.
	code := 0
	for _, fn := range targets {
		c := *cfg
		c.Package, c.Func = fs.Arg(0), fn
		code = max(code, runOne(ctx, &c, stderr, session.Update))
	}
	return code
}
