//go:build !unix

package harness

import "os/exec"

// setProcessGroup does nothing here: on timeout only the command itself is
// killed.
func setProcessGroup(cmd *exec.Cmd) {}
