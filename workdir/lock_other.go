//go:build !unix

package workdir

import "os"

// Without flock, a directory's lock cannot tell a live run from a dead
// one, so none is ever taken for abandoned.
func lock(*os.File) error { return nil }

func tryLock(*os.File) bool { return false }
