// This file spreads a run's concolic executions over a NATS server
// (-nats): the session's side of package dist.

package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/dist"
	"github.com/gocolic/gocolic/solver"
)

// validateNATS checks the -nats flags and fills in Local.
func (c *Config) validateNATS() error {
	if c.NATS == "" {
		if c.NATSListen != "" || c.RunID != "" || c.Local > 0 || c.NATSSolve {
			return errors.New("-nats-listen, -run, -local and -nats-solve need -nats")
		}
		return nil
	}
	switch {
	case c.WithFuzzer:
		return errors.New("-nats and -with-fuzzer exclude each other")
	case c.NATSListen != "" && c.NATS != dist.EmbeddedURL:
		return errors.New("-nats-listen needs -nats embedded: a server of its own listens where it was told to")
	}
	if c.RunID != "" {
		if err := dist.CheckID(c.RunID); err != nil {
			return fmt.Errorf("-run: %w", err)
		}
	}
	if c.Local < 0 || c.Local > c.Workers {
		c.Local = c.Workers
	}
	if c.Local == 0 && c.NATS == dist.EmbeddedURL && c.NATSListen == "" {
		return errors.New("-local 0 with -nats embedded and no -nats-listen: no executor could join, nothing would run")
	}
	return nil
}

// probeNATS connects to the -nats server once, so that a wrong URL or a
// server that does not answer fails the command before the build.
func (c *Config) probeNATS() error {
	if c.NATS == "" || c.NATS == dist.EmbeddedURL {
		return nil
	}
	nc, err := dist.Connect(c.NATS, "gocolic probe")
	if err != nil {
		return fmt.Errorf("-nats: %w", err)
	}
	nc.Close()
	return nil
}

// startDist puts the run on the NATS server: the worker binary, the
// executors' spec, and this process's executors (Local). The returned
// function closes it and prints what went over the server.
//
// With -nats-solve the executors answer the queries too: the solver
// pool's goroutines get dist.Solvers, recorded in chains for the report.
func startDist(ctx context.Context, cfg Config, t *target, dcfg *coordinator.Config, chains *stacks, work string) (func(), error) {
	var end time.Time
	if cfg.Budget > 0 {
		end = time.Now().Add(cfg.Budget)
	}
	var solve *dist.SolveSpec
	if cfg.NATSSolve {
		solve = &dist.SolveSpec{Stack: cfg.Solver, Floats: floatVars(t.entry.rt, cfg.MaxLen)}
	}
	co, err := dist.Start(ctx, dist.Options{
		URL: cfg.NATS, Listen: cfg.NATSListen, StoreDir: filepath.Join(work, "nats"), ID: cfg.RunID,
		Target: t.pkg.PkgPath + "." + cfg.Func, Spec: dcfg.ExecSpec(), Solve: solve, Local: cfg.Local, End: end, Log: cfg.Stderr,
	})
	if err != nil {
		return nil, fmt.Errorf("-nats: %w", err)
	}
	dcfg.Remote = co.Remote()
	if solve != nil {
		dcfg.NewSolver = func() (solver.Solver, func(), error) {
			s := co.NewSolver()
			return s, chains.add(s, func() {}), nil
		}
	}
	// A coordinator that restarts a run runs the inputs its predecessor
	// kept first; this one logs its own for the next.
	if r := co.Resumed(); len(r) > 0 {
		fmt.Fprintf(cfg.Stderr, "gocolic: resuming run %s: first the %d inputs it kept before\n", co.ID(), len(r))
		dcfg.Seeds = append(dcfg.Seeds, r...)
	}
	dcfg.OnKeep = co.Keep
	return func() {
		n := co.Counts()
		fmt.Fprintf(cfg.Stderr, "gocolic: over NATS: %d items (%d bytes, %d of them queries, %d batches, %d sent again), %d results (%d bytes), %d duplicate or late results dropped, %d kept inputs logged\n",
			n.Items, n.ItemBytes, n.Queries, n.Batches, n.Republished, n.Results, n.ResultBytes, n.Dropped, n.Kept)
		if err := co.Close(); err != nil {
			fmt.Fprintf(cfg.Stderr, "gocolic: %v\n", err)
		}
	}, nil
}
