package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gocolic/gocolic/report"
)

const reportUsage = "gocolic report [-o report.html] [-label name]... [-title text] <run-dir>..."

var cmdReport = &command{
	name:  "report",
	usage: reportUsage,
	short: "write an HTML report of run directories",
	run:   runReport,
}

func runReport(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the HTML `file` to write (default: report.html in the first run directory)")
	title := fs.String("title", "", "`title` of the page (default: names the function)")
	var labels []string
	fs.Func("label", "the `name` of the next run in the legend and tables (repeatable, in the order of the run directories)", func(s string) error {
		labels = append(labels, s)
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\n", reportUsage)
		fmt.Fprintln(stderr, "Report writes one self-contained HTML page of the run directories that gocolic test")
		fmt.Fprintln(stderr, "and gocolic fuzz leave with -rundir: a summary per run, branch outcomes covered over")
		fmt.Fprintln(stderr, "time (one curve per run), the findings, and the source annotated with the outcomes")
		fmt.Fprintln(stderr, "covered. With a cover.out in a run directory, it also writes go tool cover's page")
		fmt.Fprintln(stderr, "next to the report.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if len(labels) > fs.NArg() {
		fmt.Fprintf(stderr, "gocolic: %d labels for %d run directories\n", len(labels), fs.NArg())
		return 2
	}
	var runs []*report.Run
	for _, dir := range fs.Args() {
		r, err := report.Load(dir)
		if err != nil {
			fmt.Fprintf(stderr, "gocolic: %v\n", err)
			return 2
		}
		runs = append(runs, r)
	}
	path := *out
	if path == "" {
		path = filepath.Join(fs.Arg(0), "report.html")
	}
	if err := report.WriteFile(ctx, path, runs, report.Options{Labels: labels, Title: *title}); err != nil {
		fmt.Fprintf(stderr, "gocolic: %v\n", err)
		return 1
	}
	for _, r := range runs {
		if r.CoverNote != "" {
			fmt.Fprintf(stderr, "gocolic: no go tool cover page for %s: %s\n", r.Dir, r.CoverNote)
		}
	}
	fmt.Fprintf(stderr, "gocolic: wrote %s\n", path)
	return 0
}
