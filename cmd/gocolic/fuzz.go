package main

import (
	"context"
	"io"

	"github.com/gocolic/gocolic/session"
)

const fuzzUsage = "gocolic fuzz [flags] <package> <FuzzXxx>"

var cmdFuzz = &command{
	name:  "fuzz",
	usage: fuzzUsage,
	short: "explore a native fuzz target and add to its corpus",
	run:   runFuzz,
}

func runFuzz(ctx context.Context, args []string, stderr io.Writer) int {
	cfg := new(session.Config)
	fs := commandFlags(cfg, session.CmdFuzz, stderr, fuzzUsage,
		"Fuzz explores the function that FuzzXxx gives to f.Fuzz, every argument after the",
		"*testing.T symbolic, starting from the f.Add seeds and testdata/fuzz/FuzzXxx. t.Fatal,",
		"t.Error and panics are findings, t.Skip is not. Each input that covered something new",
		"or failed (failing ones minimised first) is written to testdata/fuzz/FuzzXxx in the",
		"go test fuzz v1 format, so that go test replays it. -with-fuzzer runs go test -fuzz",
		"alongside, each side taking the other's new corpus entries.")
	return runExplore(ctx, fs, cfg, args, stderr, session.Fuzz)
}
