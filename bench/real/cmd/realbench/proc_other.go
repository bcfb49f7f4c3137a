//go:build !unix

package main

import "os/exec"

// setProcessGroup is a no-op where there are no process groups: only the
// command itself is killed at its limit.
func setProcessGroup(cmd *exec.Cmd) {}
