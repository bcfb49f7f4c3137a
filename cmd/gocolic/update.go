package main

import (
	"context"
	"io"

	"github.com/gocolic/gocolic/session"
)

const updateUsage = "gocolic update [flags] <package> <Func|FuzzXxx>"

var cmdUpdate = &command{
	name:  "update",
	usage: updateUsage,
	short: "bring a generated suite up to date with changed code",
	run:   runUpdate,
}

func runUpdate(ctx context.Context, args []string, stderr io.Writer) int {
	cfg := new(session.Config)
	fs := commandFlags(cfg, session.CmdUpdate, stderr, updateUsage,
		"Update re-runs the inputs saved by gocolic test (or fuzz) in testdata/gocolic/<func>.state.json",
		"on the changed code, keeps the tests whose paths still exist, explores with the solver only",
		"the ranges of paths that changed, and rewrites the generated tests, corpus entries and state.",
		"Strategy, seed, depth and length bounds are the saved run's; -stdlib, -instrument and -impure",
		"must be those it was given. With -check it rewrites nothing and exits 1 when a kept test's",
		"results changed or tests were added or dropped.")
	return runExplore(ctx, fs, cfg, args, stderr, session.Update)
}
