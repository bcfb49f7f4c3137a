// Package workdir makes the temporary directories gocolic's runs build
// and work in, and removes the ones that runs killed from outside left
// behind.
//
// A run holds an advisory lock on a file in its directory for as long as
// the directory is in use; the kernel drops the lock when the process
// dies, however it dies. A directory whose lock can be taken therefore
// belongs to no live run, and the next run removes it. Directories
// without the lock file (kept with -keepwork, or made by other tools)
// are never touched.
package workdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Prefix starts the name of every work directory.
const Prefix = "gocolic-"

// lockName is the lock file inside a work directory.
const lockName = ".gocolic-run.lock"

// setupGrace is how long an empty lock file is taken for a run still
// setting its directory up (it writes its pid right after locking).
const setupGrace = time.Hour

// A Dir is a work directory in use.
type Dir struct {
	// Path is the directory.
	Path string
	lock *os.File
}

// New creates a work directory in the system's temporary directory,
// after removing those of runs that died without cleaning up. It
// returns how many it removed, so that the caller can say so.
func New() (*Dir, int, error) {
	root := os.TempDir()
	removed, _ := Sweep(root)
	d, err := create(root)
	return d, removed, err
}

func create(root string) (*Dir, error) {
	path, err := os.MkdirTemp(root, Prefix)
	if err != nil {
		return nil, fmt.Errorf("creating work directory: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(path, lockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err == nil {
		if err = lock(f); err == nil {
			_, err = f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		os.RemoveAll(path)
		return nil, fmt.Errorf("locking work directory: %w", err)
	}
	return &Dir{Path: path, lock: f}, nil
}

// Close removes the directory and everything in it.
func (d *Dir) Close() error {
	d.lock.Close()
	return os.RemoveAll(d.Path)
}

// Keep leaves the directory in place for the user (-keepwork): the lock
// file goes, so no later run removes it.
func (d *Dir) Keep() {
	os.Remove(d.lock.Name())
	d.lock.Close()
}

// Sweep removes the work directories under root whose run is gone: their
// lock file can be locked, and it names a process (or is empty and older
// than a run's set-up can take). It returns how many it removed; a
// directory it cannot read or remove is left and named in the error.
func Sweep(root string) (int, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", root, err)
	}
	removed := 0
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), Prefix) {
			continue
		}
		path := filepath.Join(root, e.Name())
		stale, err := abandoned(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !stale {
			continue
		}
		if err := os.RemoveAll(path); err != nil {
			errs = append(errs, fmt.Errorf("removing %s: %w", path, err))
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}

// abandoned reports whether the work directory at path belongs to no
// live run.
func abandoned(path string) (bool, error) {
	f, err := os.OpenFile(filepath.Join(path, lockName), os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil // not a run's, or kept
	}
	if err != nil {
		return false, fmt.Errorf("opening %s's lock: %w", path, err)
	}
	defer f.Close()
	if !tryLock(f) {
		return false, nil // its run is alive
	}
	// Removing the directory while holding the lock is safe: a run
	// never locks the file again once it has let go.
	info, err := f.Stat()
	if err != nil {
		return false, err
	}
	if info.Size() == 0 && time.Since(info.ModTime()) < setupGrace {
		return false, nil // a run between creating and locking it
	}
	return true, nil
}
