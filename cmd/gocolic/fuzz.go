package main

import (
	"context"
	"fmt"
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
	fs, cfg := exploreFlags("fuzz", stderr)
	fs.BoolVar(&cfg.NoTests, "nocorpus", false, "do not write corpus entries (with -with-fuzzer, also drop the failures the fuzzer wrote)")
	fs.BoolVar(&cfg.FuzzCache, "fuzzcache", false, "also take the entries go test -fuzz keeps in its cache as seeds")
	fs.BoolVar(&cfg.WithFuzzer, "with-fuzzer", false, "run go test -fuzz on the target alongside, exchanging corpus entries (splits -workers between the two)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\n", fuzzUsage)
		fmt.Fprintln(stderr, "Fuzz explores the function that FuzzXxx gives to f.Fuzz, every argument after the")
		fmt.Fprintln(stderr, "*testing.T symbolic, starting from the f.Add seeds and testdata/fuzz/FuzzXxx. t.Fatal,")
		fmt.Fprintln(stderr, "t.Error and panics are findings, t.Skip is not. Each input that covered something new")
		fmt.Fprintln(stderr, "or failed (failing ones minimised first) is written to testdata/fuzz/FuzzXxx in the")
		fmt.Fprintln(stderr, "go test fuzz v1 format, so that go test replays it. -with-fuzzer runs go test -fuzz")
		fmt.Fprintln(stderr, "alongside, each side taking the other's new corpus entries.\n\nFlags:")
		fs.PrintDefaults()
	}
	return runExplore(ctx, fs, cfg, args, stderr, session.Fuzz)
}
