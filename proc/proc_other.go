//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

// setGroup does nothing here: there are no process groups to start in.
func setGroup(cmd *exec.Cmd) {}

// killGroup kills the command itself: what it started keeps running.
func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// interruptGroup sends the command itself an interrupt, which some systems
// (Windows) cannot deliver; Stop then kills it.
func interruptGroup(cmd *exec.Cmd) error { return cmd.Process.Signal(os.Interrupt) }
