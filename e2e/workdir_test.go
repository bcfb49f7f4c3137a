package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestKilledRunWorkDir kills a run with SIGKILL, which leaves its work
// directory behind, and checks that the next run removes it and leaves
// nothing of its own.
func TestKilledRunWorkDir(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGKILL")
	}
	dir := copyExamples(t)
	tmp := t.TempDir()
	env := append(os.Environ(), "TMPDIR="+tmp)
	workDirs := func() []string {
		m, _ := filepath.Glob(filepath.Join(tmp, "gocolic-*"))
		return m
	}
	cmd, _ := startExploring(t, dir, env, "test", "-budget", "5m", "-notests", "./scanner", "Tokens")
	cmd.Process.Kill()
	cmd.Wait()
	left := workDirs()
	if len(left) != 1 {
		t.Fatalf("after SIGKILL: work directories %v, want the killed run's one", left)
	}

	next := exec.Command(gocolic, "test", "-runs", "5", "-notests", "./scanner", "Tokens")
	next.Dir, next.Env = dir, env
	if b, err := next.CombinedOutput(); err != nil {
		t.Fatalf("next run: %v\n%s", err, b)
	}
	if now := workDirs(); len(now) != 0 {
		t.Errorf("after the next run: work directories %v, want none (the killed run's %s removed)", now, left[0])
	}
}
