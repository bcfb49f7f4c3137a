package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gocolic/gocolic/session"
)

const learnUsage = "gocolic learn [flags] <package> <Func|FuzzXxx> -o heuristic.json"

var cmdLearn = &command{
	name:  "learn",
	usage: learnUsage,
	short: "learn the weights of -strategy learned for a function or fuzz target",
	run:   runLearn,
}

func runLearn(ctx context.Context, args []string, stderr io.Writer) int {
	cfg := new(session.Config)
	fs := commandFlags(cfg, session.CmdLearn, stderr, learnUsage,
		"Learn finds weights of the learned search strategy for Func (or the fuzz target FuzzXxx):",
		"each round draws -samples weight vectors and runs each once, runs the -top best -checks",
		"times more from other seeds, and draws the next round's vectors around the two best;",
		"it stops when a round does not improve on the last. Every run explores -runs executions",
		"with one worker; -workers runs go at once; the target is built once. -budget bounds the",
		"whole learning: the best weights found by then are written. The weight file (-o) is read",
		"by gocolic test|fuzz -strategy learned -heuristic FILE.")
	// Flags may follow the arguments (the -o of the usage line).
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) != 2 {
		fs.Usage()
		return 2
	}
	cfg.Package, cfg.Func = pos[0], pos[1]
	cfg.Stderr = stderr
	cfg.Dir, _ = os.Getwd()
	out, err := session.Learn(ctx, *cfg)
	if err != nil {
		fmt.Fprintf(stderr, "gocolic: %v\n", err)
		return exitCode(err)
	}
	r := out.Result
	score := fmt.Sprintf("%.1f branch outcomes on average in the check", r.Score)
	if !r.Checked {
		score = fmt.Sprintf("%.0f branch outcomes in its one run (no check was reached)", r.Score)
	}
	fmt.Fprintf(stderr, "gocolic: learned in %d rounds, %d runs, %d executions, %s: %s\n",
		r.Rounds, r.Runs, r.Execs, r.Elapsed.Round(time.Second), score)
	if r.Failed > 0 {
		fmt.Fprintf(stderr, "gocolic: %d runs failed and were left out\n", r.Failed)
	}
	fmt.Fprintf(stderr, "gocolic: wrote %s\n", out.File)
	return 0
}
