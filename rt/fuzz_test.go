package rt

import (
	"reflect"
	"testing"
)

// TestFuzzBatchSubtests runs a batch of a fuzz target's inputs with the
// test's own t.Run and checks each input's status, that inputs share a
// subtest while its T stays fresh, and that an input that skips or
// registers a cleanup ends its subtest, so that the cleanup runs before
// the next input. (A failing input would fail this test too: the e2e
// TestFuzz covers t.Error and t.Fatal.)
func TestFuzzBatchSubtests(t *testing.T) {
	saved := registered
	defer func() { registered = saved }()
	registered = Entry{Params: []Param{{Name: "n", Kind: ParamInt, Width: 8}}, Sites: 2}

	const (
		ok = iota
		panics
		skips
		cleans
	)
	var (
		subtests    []*testing.T
		cleanupsRan int
		seenRan     []int // cleanupsRan when each input started
	)
	run := func(t any, in *Input) {
		tt := t.(*testing.T)
		if len(subtests) == 0 || subtests[len(subtests)-1] != tt {
			subtests = append(subtests, tt)
		}
		seenRan = append(seenRan, cleanupsRan)
		switch InputInt[uint8](in, 0).C {
		case panics:
			panic("boom")
		case skips:
			tt.Skip("skipped")
		case cleans:
			tt.Cleanup(func() { cleanupsRan++ })
		}
	}
	inputs := []uint64{ok, ok, panics, ok, skips, ok, cleans, ok, ok}
	q := &Batch{MaxLen: 4}
	for _, v := range inputs {
		q.Inputs = append(q.Inputs, []uint64{v})
	}
	res := make([]BatchResult, len(inputs))
	subType := reflect.FuncOf([]reflect.Type{reflect.TypeOf(t)}, nil, false)
	runFuzzBatch(q, res, subType, reflect.ValueOf(t).MethodByName("Run"), run)

	want := []Status{StatusOK, StatusOK, StatusPanic, StatusOK, StatusSkip, StatusOK, StatusOK, StatusOK, StatusOK}
	for i, r := range res {
		if r.Status != want[i] {
			t.Errorf("input %d (%d): status %v, want %v (%q)", i, inputs[i], r.Status, want[i], r.Panic)
		}
	}
	if res[2].Panic != "boom" || res[2].Stack == "" {
		t.Errorf("panic %q, stack %d bytes; want boom and a stack", res[2].Panic, len(res[2].Stack))
	}
	// Subtests: inputs 0-4 (the panic is recovered, the skip ends it),
	// 5-6 (the cleanup ends it), 7-8.
	if len(subtests) != 3 {
		t.Errorf("%d subtests, want 3", len(subtests))
	}
	if seenRan[7] != 1 {
		t.Errorf("the cleanup of input 6 had run %d times when input 7 started, want 1", seenRan[7])
	}
}
