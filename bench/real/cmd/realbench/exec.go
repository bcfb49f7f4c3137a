package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// result is the outcome of one command.
type result struct {
	out      []byte // stdout and stderr, interleaved
	err      error  // nil if the command exited with status 0
	exitCode int    // -1 if it did not exit by itself
	timedOut bool   // killed at its wall-clock limit
	wall     time.Duration
}

// run runs name with args in dir, with a wall-clock limit, and writes what
// it printed to logPath (if not empty). At the limit, or when ctx is
// cancelled, the command's whole process group is killed: go test runs the
// test binary and the fuzzer's workers as children, and gocolic its
// workers, which killing the parent alone would leave running.
func run(ctx context.Context, limit time.Duration, dir, logPath string, env []string, name string, args ...string) result {
	lctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(lctx, name, args...)
	cmd.Dir = dir
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	setProcessGroup(cmd)
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := result{out: out.Bytes(), err: err, exitCode: -1, wall: time.Since(start)}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.exitCode = ee.ExitCode()
	} else if err == nil {
		r.exitCode = 0
	}
	if lctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		r.timedOut = true
		r.err = fmt.Errorf("%s did not finish within %v and was killed", name, limit)
	}
	if logPath != "" {
		header := fmt.Sprintf("$ (cd %s && %s %s)\n", dir, name, strings.Join(args, " "))
		footer := fmt.Sprintf("\n[exit: %v, wall %v]\n", err, r.wall.Round(time.Millisecond))
		_ = os.WriteFile(logPath, []byte(header+out.String()+footer), 0o644)
	}
	return r
}

// tail returns the last n non-empty lines of out.
func tail(out []byte, n int) string {
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
