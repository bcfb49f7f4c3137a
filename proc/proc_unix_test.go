//go:build unix

package proc

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// started starts sh -c script, which must print a line when it is ready
// to be signalled, and returns the command, that line, and a channel
// closed when the command has exited.
func started(t *testing.T, cmd *exec.Cmd) (string, <-chan struct{}) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	line, err := bufio.NewReader(out).ReadString('\n')
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		Kill(cmd)
		<-exited
	})
	if err != nil {
		t.Fatalf("reading the child's first line: %v", err)
	}
	return strings.TrimSpace(line), exited
}

// gone reports whether the process pid no longer runs: it does not exist,
// or it is a zombie waiting for its parent.
func gone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// waitGone waits up to five seconds for pid to stop running.
func waitGone(pid int) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if gone(pid) {
			return true
		}
	}
	return false
}

func TestStop(t *testing.T) {
	const grace = 300 * time.Millisecond
	tests := []struct {
		name       string
		script     string
		wantKilled bool
	}{
		{"a child that stops on interrupt is not killed", "trap 'exit 0' INT; echo ready; while :; do sleep 0.05; done", false},
		{"a child that ignores interrupt is killed after the grace", "trap '' INT; echo ready; sleep 30", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := Command("sh", "-c", tt.script)
			_, exited := started(t, cmd)
			start := time.Now()
			killed := Stop(cmd, exited, grace)
			if killed != tt.wantKilled {
				t.Errorf("Stop killed = %v, want %v", killed, tt.wantKilled)
			}
			if took := time.Since(start); killed && took < grace {
				t.Errorf("Stop killed after %v, before the grace of %v", took, grace)
			}
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
				t.Fatal("the child still runs after Stop")
			}
		})
	}
}

// TestGrandchildrenDie checks that ending a command's group also ends
// what the command started. (A background job of sh ignores SIGINT, so
// an interrupt alone does not end it.)
func TestGrandchildrenDie(t *testing.T) {
	const script = "sleep 30 & echo $!; wait"
	tests := []struct {
		name string
		cmd  func(ctx context.Context) *exec.Cmd                                                  // makes the command, which starts a grandchild
		end  func(t *testing.T, cmd *exec.Cmd, cancel context.CancelFunc, exited <-chan struct{}) // ends the command's group
	}{
		{"Kill",
			func(context.Context) *exec.Cmd { return Command("sh", "-c", script) },
			func(_ *testing.T, cmd *exec.Cmd, _ context.CancelFunc, _ <-chan struct{}) { Kill(cmd) }},
		{"Stop of a command that ignores interrupt",
			func(context.Context) *exec.Cmd { return Command("sh", "-c", "trap '' INT; "+script) },
			func(t *testing.T, cmd *exec.Cmd, _ context.CancelFunc, exited <-chan struct{}) {
				if !Stop(cmd, exited, 100*time.Millisecond) {
					t.Error("Stop did not kill a command that ignores interrupt")
				}
			}},
		{"CommandContext cancelled",
			func(ctx context.Context) *exec.Cmd { return CommandContext(ctx, "sh", "-c", script) },
			func(_ *testing.T, _ *exec.Cmd, cancel context.CancelFunc, _ <-chan struct{}) { cancel() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cmd := tt.cmd(ctx)
			line, exited := started(t, cmd)
			grandchild, err := strconv.Atoi(line)
			if err != nil {
				t.Fatalf("the child printed %q, not the grandchild's pid", line)
			}
			tt.end(t, cmd, cancel, exited)
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
				t.Fatal("the child still runs")
			}
			if !waitGone(grandchild) {
				t.Errorf("the grandchild %d still runs after its group was ended", grandchild)
			}
		})
	}
}

func TestNotStarted(t *testing.T) {
	for name, signal := range map[string]func(*exec.Cmd) error{"Kill": Kill, "Interrupt": Interrupt} {
		if err := signal(Command("true")); err == nil {
			t.Errorf("%s of a command not started succeeded", name)
		}
	}
}
