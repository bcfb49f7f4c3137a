// Package proc is where gocolic handles the processes it starts: each
// runs in a process group of its own, so that ending it also ends what it
// started (go test runs the test binary and the fuzzer's workers as
// children, gocolic its workers), which signalling the command alone would
// leave running. GoEnv gives the go commands it runs the build tags a
// run adds.
//
// On unix systems the group is a POSIX process group (Setpgid) and is
// signalled as a whole. Elsewhere there is no group: the command itself is
// killed, and an interrupt that the system cannot deliver becomes a kill.
package proc

import (
	"context"
	"errors"
	"os/exec"
	"time"
)

// errNotStarted is the error of signalling a command that was not started.
var errNotStarted = errors.New("proc: the command was not started")

// Command returns the command that runs name with args in a process group
// of its own.
func Command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	setGroup(cmd)
	return cmd
}

// CommandContext is Command for a command that ctx ends: when ctx is done,
// the command's whole group is killed, not only the command as
// exec.CommandContext does.
func CommandContext(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	setGroup(cmd)
	cmd.Cancel = func() error { return Kill(cmd) }
	return cmd
}

// Kill kills the started command's whole process group at once.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return errNotStarted
	}
	return killGroup(cmd)
}

// Interrupt asks the started command's whole process group to stop, as
// Ctrl-C in a terminal does (SIGINT).
func Interrupt(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return errNotStarted
	}
	return interruptGroup(cmd)
}

// Stop interrupts the started command's process group and, if exited is
// not closed within grace (or the interrupt cannot be sent), kills the
// group. exited is closed by whoever waits for the command, once it has
// exited. Stop reports whether it had to kill; it does not wait for the
// command after a kill.
func Stop(cmd *exec.Cmd, exited <-chan struct{}, grace time.Duration) (killed bool) {
	if err := Interrupt(cmd); err != nil {
		select {
		case <-exited:
			return false // it had exited already
		default:
		}
		Kill(cmd)
		return true
	}
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-exited:
		return false
	case <-timer.C:
		Kill(cmd)
		return true
	}
}
