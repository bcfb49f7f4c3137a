//go:build unix

package workdir

import (
	"os"
	"syscall"
)

// lock takes f's exclusive lock, which the kernel holds until f is
// closed or the process ends. It waits: a sweeping run may hold the
// lock of a directory being set up for the moment it takes to look.
func lock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
}

// tryLock reports whether f's lock could be taken, i.e. no live process
// holds it.
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
