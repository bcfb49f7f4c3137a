package workdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestSweep checks which directories a sweep removes: only those whose
// lock file names a run that is gone.
func TestSweep(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	root := t.TempDir()
	live, err := create(root)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	kept, err := create(root)
	if err != nil {
		t.Fatal(err)
	}
	kept.Keep()

	mk := func(name string, lockData *string, age time.Duration) string {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(p, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if lockData != nil {
			l := filepath.Join(p, lockName)
			if err := os.WriteFile(l, []byte(*lockData), 0o644); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-age)
			os.Chtimes(l, old, old)
		}
		return p
	}
	pid, empty := "12345\n", ""
	dead := mk(Prefix+"dead", &pid, 0)
	settingUp := mk(Prefix+"setup", &empty, time.Minute)
	stuck := mk(Prefix+"stuck", &empty, 2*setupGrace)
	noLock := mk(Prefix+"nolock", nil, 0)
	other := mk("other-dead", &pid, 0)

	n, err := Sweep(root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		gone       bool
	}{
		{"live run", live.Path, false},
		{"kept with -keepwork", kept.Path, false},
		{"dead run", dead, true},
		{"run setting up", settingUp, false},
		{"empty lock past the grace", stuck, true},
		{"no lock file", noLock, false},
		{"not a gocolic directory", other, false},
	}
	want := 0
	for _, tt := range tests {
		_, err := os.Stat(tt.path)
		if gone := os.IsNotExist(err); gone != tt.gone {
			t.Errorf("%s: removed %t, want %t", tt.name, gone, tt.gone)
		}
		if tt.gone {
			want++
		}
	}
	if n != want {
		t.Errorf("Sweep says it removed %d, want %d", n, want)
	}
}

// TestSweepKilledRun kills a process that holds a work directory and
// checks that the next sweep removes the directory, and not before.
func TestSweepKilledRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	if root := os.Getenv("WORKDIR_TEST_HOLD"); root != "" {
		d, err := create(root)
		if err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString(d.Path + "\n")
		time.Sleep(time.Minute) // killed before
		os.Exit(4)
	}
	root := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSweepKilledRun$")
	cmd.Env = append(os.Environ(), "WORKDIR_TEST_HOLD="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	k, _ := out.Read(buf)
	path := strings.TrimSpace(string(buf[:k]))
	if !strings.HasPrefix(path, filepath.Join(root, Prefix)) {
		cmd.Process.Kill()
		t.Fatalf("holder printed %q", path)
	}
	if n, err := Sweep(root); n != 0 || err != nil {
		t.Errorf("sweep while the run lives: removed %d, %v", n, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if n, err := Sweep(root); n != 1 || err != nil {
		t.Errorf("sweep after the kill: removed %d, %v", n, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("%s still there after the sweep: %v", path, err)
	}
}

// TestClose checks that Close removes the directory.
func TestClose(t *testing.T) {
	d, err := create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Path, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d.Path); !os.IsNotExist(err) {
		t.Errorf("%s left after Close: %v", d.Path, err)
	}
}
