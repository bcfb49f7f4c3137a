package z3

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// TestInterruptReachesGo checks that a SIGINT sent while Z3 is checking a
// query reaches the Go program: Z3 must not catch it for itself, or Ctrl-C
// during a query would be lost.
func TestInterruptReachesGo(t *testing.T) {
	s, err := New(Options{Timeout: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)

	b := sym.NewBuilder()
	cs, goal := factoring(b)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Solve(context.Background(), solver.Query{Constraints: cs, Goal: goal})
	}()
	time.Sleep(300 * time.Millisecond) // well inside the check
	select {
	case <-done:
		t.Skip("the query finished before the signal could be sent")
	default:
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-sigs:
	case <-time.After(3 * time.Second):
		t.Fatal("SIGINT sent during a Z3 check never reached the Go program")
	}
	<-done
}
