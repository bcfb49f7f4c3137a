// Command gocolic is a concolic testing engine for Go packages: it runs a
// function of your package compiled, tracks symbolic constraints as it
// runs, solves them with Z3 to reach new paths, and writes ordinary Go
// tests for what it found.
//
// Usage:
//
//	gocolic test [flags] <package> <Func>
//	gocolic fuzz [flags] <package> <FuzzXxx>
//	gocolic update [flags] <package> [Func|FuzzXxx]
//	gocolic learn [flags] <package> <Func|FuzzXxx> -o heuristic.json
//	gocolic report [flags] <rundir>...
//
// Run `gocolic help <command>` for the flags.
//
// A run goes through the packages of this module in pipeline order: load
// (the package, typed) → instrument (the rewrite) → build (the worker
// binary) → coordinator (execution tree and strategy, package explore,
// ⇄ the solver stack, package solver and below) → emit (the test file),
// corpus (fuzz entries) and report (report.json, the HTML page). Package
// session runs one command through them; this command only parses flags.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/session"
)

// command is one subcommand.
type command struct {
	name  string
	usage string
	short string
	run   func(ctx context.Context, args []string, stderr io.Writer) int
}

var commands = []*command{cmdTest, cmdFuzz, cmdUpdate, cmdLearn, cmdReport, cmdWorker}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stderr))
}

func run(ctx context.Context, args []string, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage(stderr)
		return 2
	}
	if args[0] == "help" {
		if len(args) > 1 {
			for _, c := range commands {
				if c.name == args[1] {
					c.run(ctx, []string{"-h"}, stderr)
					return 0
				}
			}
		}
		usage(stderr)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stderr)
		}
	}
	fmt.Fprintf(stderr, "gocolic: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "gocolic is a concolic testing engine for Go packages.\n\nUsage:\n\n\tgocolic <command> [flags] [arguments]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-8s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w, "\nRun 'gocolic help <command>' for its flags.")
}

// exitCode maps an error to the process's exit status: 2 for problems with
// the user's input (a package that does not build, an unknown function,
// an unsupported parameter), 1 for failures of gocolic itself and for a
// suite that gocolic update -check finds out of date.
func exitCode(err error) int {
	var be *build.Error
	if errors.As(err, &be) {
		return 1
	}
	if errors.Is(err, session.ErrRun) || errors.Is(err, session.ErrChanged) {
		return 1
	}
	return 2
}
