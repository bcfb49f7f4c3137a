// This file runs gocolic test on one function and keeps the results in a
// cache, so that a run that was interrupted, or one with more modules,
// does not run again what it has measured.

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	shared "github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/report"
)

// runSpec is what one gocolic test run depends on, besides the function.
type runSpec struct {
	bin     string        // the gocolic binary
	binHash string        // its content's hash, part of every cache key
	budget  time.Duration // -budget
	workers int           // -workers
	slack   time.Duration // time past the budget before the run is killed
	flags   []string      // more flags
	logs    string        // directory of the run logs
}

// args returns gocolic test's arguments for the function name of package
// pattern dir, writing its report to jsonPath.
func (s runSpec) args(dir, name, jsonPath string) []string {
	args := []string{"test", "-budget", s.budget.String(), "-workers", strconv.Itoa(s.workers),
		"-minimizetime", "0", "-seed", "1", "-notests", "-json", jsonPath}
	args = append(args, s.flags...)
	return append(args, dir, name)
}

// runFunction runs gocolic test on one function of mod and classifies the
// outcome.
func runFunction(ctx context.Context, s runSpec, mod *module, dir, name string) FunctionResult {
	base := safeName(mod.Path + "@" + mod.Version + "/" + strings.TrimPrefix(dir, "./") + "." + name)
	jsonPath := filepath.Join(s.logs, base+".json")
	os.Remove(jsonPath)
	r := shared.Run(ctx, s.budget+s.slack, mod.dir, filepath.Join(s.logs, base+".log"), s.bin, s.args(dir, name, jsonPath)...)
	rep, _ := report.ReadJSON(jsonPath)
	res := classify(r.ExitCode, r.TimedOut, r.Output, rep, mod.dir)
	res.Name, res.WallMS = name, r.Wall.Milliseconds()
	return res
}

// safeName turns s into a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_', r == '@':
			return r
		}
		return '_'
	}, s)
}

// hashFile returns the hex SHA-256 of a file's content.
func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cache keeps results as one JSON file per key, under dir. Files are
// written to a temporary name and renamed, so that runners sharing the
// directory never read a half-written file; a key computed twice at once
// is written twice, with equal content.
type cache struct{ dir string }

// key returns the cache key of a result that depends on parts.
func (c cache) key(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:16])
}

// get reads the value of key into v; false if there is none.
func (c cache) get(key string, v any) bool {
	if c.dir == "" {
		return false
	}
	data, err := os.ReadFile(filepath.Join(c.dir, key+".json"))
	if err != nil {
		return false
	}
	return json.Unmarshal(data, v) == nil
}

// put stores v under key.
func (c cache) put(key string, v any) error {
	if c.dir == "" {
		return nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(c.dir, key+".tmp*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), filepath.Join(c.dir, key+".json")); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}
