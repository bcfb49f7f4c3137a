package guard

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func indexEmpty() error {
	var xs []int
	_ = xs[len(xs)-1] // index out of range [-1]
	return nil
}

// TestDo checks that Do passes f's result through and turns a panic into
// an *Error with the message and the stack of the panic.
func TestDo(t *testing.T) {
	plain := errors.New("plain")
	wrapped := fmt.Errorf("outer: %w", &Error{Where: "below", Value: 1})
	tests := []struct {
		name      string
		f         func() error
		wantErr   error  // returned as is, when not a panic
		wantWhere string // of the *Error in the result's chain; "" for none
		wantMsg   string // of a recovered panic
		wantFrame string // in the stack of a recovered panic
	}{
		{"no error", func() error { return nil }, nil, "", "", ""},
		{"error passes through", func() error { return plain }, plain, "", "", ""},
		{"guard error passes through", func() error { return wrapped }, wrapped, "below", "", ""},
		{"panic with a string", func() error { panic("boom") }, nil, "here", "internal error in here: panic: boom", "guard.TestDo"},
		{"runtime error", indexEmpty, nil, "here", "internal error in here: panic: runtime error: index out of range [-1]", "guard.indexEmpty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Do("here", tt.f)
			if tt.wantErr != nil || tt.wantMsg == "" {
				if err != tt.wantErr {
					t.Fatalf("got %v, want %v", err, tt.wantErr)
				}
			} else if err == nil || err.Error() != tt.wantMsg {
				t.Fatalf("got %v, want %q", err, tt.wantMsg)
			}
			g := As(err)
			switch {
			case tt.wantWhere == "" && g != nil:
				t.Fatalf("As(%v) = %v, want nil", err, g)
			case tt.wantWhere != "" && (g == nil || g.Where != tt.wantWhere):
				t.Fatalf("As(%v) = %v, want an *Error from %s", err, g, tt.wantWhere)
			}
			if tt.wantFrame != "" && !strings.Contains(g.Stack, tt.wantFrame) {
				t.Errorf("stack has no frame %s:\n%s", tt.wantFrame, g.Stack)
			}
		})
	}
	var re runtime.Error
	if err := Do("here", indexEmpty); !errors.As(err, &re) {
		t.Errorf("the *Error of a runtime error does not unwrap to it: %v", err)
	}
}
