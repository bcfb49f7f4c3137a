package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/gocolic/gocolic/dist"
)

const workerUsage = "gocolic worker -nats URL [-run ID] [-workers N] [-dir DIR]"

var cmdWorker = &command{
	name:  "worker",
	usage: workerUsage,
	short: "run executors for runs spread over a NATS server (gocolic test|fuzz -nats)",
	run:   runWorker,
}

func runWorker(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o dist.WorkOptions
	fs.StringVar(&o.URL, "nats", "", "URL of the NATS server the runs are on (nats://host:4222)")
	fs.StringVar(&o.ID, "run", "", "join only this run, and stop when it ends (default: every run announced on the server, one after the other, until interrupted)")
	fs.IntVar(&o.Workers, "workers", 0, "executors, each a worker process of the run's binary (0: number of CPUs)")
	fs.StringVar(&o.Dir, "dir", "", "directory for the runs' worker binaries, where their workers run (default: gocolic-worker in the user's cache directory)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\n", workerUsage)
		fmt.Fprintln(stderr, "Worker runs executors for the runs a coordinator (gocolic test|fuzz -nats URL) puts on a")
		fmt.Fprintln(stderr, "NATS server: it fetches each run's worker binary, checks its SHA-256, and runs the inputs")
		fmt.Fprintln(stderr, "the coordinator publishes. An executor killed mid-input loses nothing: the input goes to")
		fmt.Fprintln(stderr, "another after 30 seconds.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 0 || o.URL == "" {
		if o.URL == "" {
			fmt.Fprintln(stderr, "gocolic worker: -nats URL is required")
		}
		fs.Usage()
		return 2
	}
	if o.Workers < 0 {
		fmt.Fprintln(stderr, "gocolic worker: -workers must not be negative")
		return 2
	}
	if o.Workers == 0 {
		o.Workers = runtime.NumCPU()
	}
	if o.Dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			fmt.Fprintf(stderr, "gocolic worker: no cache directory (%v): give -dir\n", err)
			return 2
		}
		o.Dir = filepath.Join(cache, "gocolic-worker")
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "gocolic worker: %v\n", err)
		return 1
	}
	o.Log = stderr
	if err := dist.Work(ctx, o); err != nil {
		fmt.Fprintf(stderr, "gocolic worker: %v\n", err)
		return 1
	}
	return 0
}
