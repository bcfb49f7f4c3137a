//go:build unix

package harness

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in a process group of its own and makes the
// context's cancellation kill the whole group: `go test` runs the test
// binary (and the fuzzer its workers) as children, which killing the go
// command alone would leave running.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
