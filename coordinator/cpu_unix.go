//go:build unix

package coordinator

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) this process has
// used so far: the coordinator, the solvers that run in it and whatever
// else it runs, but not the worker processes. Zero if it cannot be read.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
