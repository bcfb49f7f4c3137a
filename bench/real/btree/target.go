// Package btree holds native fuzz targets (in its test files) of
// github.com/google/btree: an in-memory B-tree.
package btree

import (
	"github.com/google/btree"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/google/btree"

// CheckOps decodes a byte slice into a sequence of operations on a B-tree
// of small degree (two bytes an operation: opcode, key) and runs them
// against a reference model, a set of bytes. After every operation the
// results must match the model; at the end, so must every iteration.
func CheckOps(degree uint8, ops []byte) {
	tr := btree.NewOrderedG[byte](2 + int(degree%4))
	var model [256]bool
	count := 0
	var clone *btree.BTreeG[byte]
	var cloneModel [256]bool
	for i := 0; i+1 < len(ops); i += 2 {
		k := ops[i+1]
		switch ops[i] % 8 {
		case 0, 1: // insert
			old, replaced := tr.ReplaceOrInsert(k)
			if replaced != model[k] || (replaced && old != k) {
				prop.Failf("op %d: ReplaceOrInsert(%d) = %d, %v; present: %v", i/2, k, old, replaced, model[k])
			}
			if !model[k] {
				model[k] = true
				count++
			}
		case 2: // delete
			old, ok := tr.Delete(k)
			if ok != model[k] || (ok && old != k) {
				prop.Failf("op %d: Delete(%d) = %d, %v; present: %v", i/2, k, old, ok, model[k])
			}
			if model[k] {
				model[k] = false
				count--
			}
		case 3: // delete the minimum
			want, ok := modelMin(&model)
			got, gok := tr.DeleteMin()
			if gok != ok || got != want {
				prop.Failf("op %d: DeleteMin() = %d, %v; want %d, %v", i/2, got, gok, want, ok)
			}
			if ok {
				model[want] = false
				count--
			}
		case 4: // delete the maximum
			want, ok := modelMax(&model)
			got, gok := tr.DeleteMax()
			if gok != ok || got != want {
				prop.Failf("op %d: DeleteMax() = %d, %v; want %d, %v", i/2, got, gok, want, ok)
			}
			if ok {
				model[want] = false
				count--
			}
		case 5: // lookup
			if got, ok := tr.Get(k); ok != model[k] || (ok && got != k) || tr.Has(k) != model[k] {
				prop.Failf("op %d: Get(%d) = %d, %v; present: %v", i/2, k, got, ok, model[k])
			}
		case 6: // clone; the clone must not see later changes
			clone, cloneModel = tr.Clone(), model
		case 7: // range: keys in [k, k+16)
			hi := int(k) + 16
			var got []byte
			if hi > 255 {
				tr.AscendGreaterOrEqual(k, func(x byte) bool { got = append(got, x); return true })
			} else {
				tr.AscendRange(k, byte(hi), func(x byte) bool { got = append(got, x); return true })
			}
			var want []byte
			for x := int(k); x < hi && x < 256; x++ {
				if model[x] {
					want = append(want, byte(x))
				}
			}
			if string(got) != string(want) {
				prop.Failf("op %d: AscendRange(%d, %d) = %v, want %v", i/2, k, hi, got, want)
			}
		}
		if tr.Len() != count {
			prop.Failf("op %d: Len() = %d, want %d", i/2, tr.Len(), count)
		}
	}
	check("tree", tr, &model)
	if clone != nil {
		check("clone", clone, &cloneModel)
	}
}

func modelMin(m *[256]bool) (byte, bool) {
	for x := 0; x < 256; x++ {
		if m[x] {
			return byte(x), true
		}
	}
	return 0, false
}

func modelMax(m *[256]bool) (byte, bool) {
	for x := 255; x >= 0; x-- {
		if m[x] {
			return byte(x), true
		}
	}
	return 0, false
}

// check compares every ascending and descending iteration of tr with the
// model.
func check(name string, tr *btree.BTreeG[byte], m *[256]bool) {
	var want []byte
	for x := 0; x < 256; x++ {
		if m[x] {
			want = append(want, byte(x))
		}
	}
	var up, down []byte
	tr.Ascend(func(x byte) bool { up = append(up, x); return true })
	tr.Descend(func(x byte) bool { down = append(down, x); return true })
	if string(up) != string(want) {
		prop.Failf("%s: Ascend = %v, want %v", name, up, want)
	}
	for i := range down {
		if down[i] != want[len(want)-1-i] {
			prop.Failf("%s: Descend = %v, want the reverse of %v", name, down, want)
		}
	}
	if len(down) != len(want) || tr.Len() != len(want) {
		prop.Failf("%s: Descend gave %d keys, Len %d, want %d", name, len(down), tr.Len(), len(want))
	}
	if len(want) > 0 {
		if mn, ok := tr.Min(); !ok || mn != want[0] {
			prop.Failf("%s: Min() = %d, %v, want %d", name, mn, ok, want[0])
		}
		if mx, ok := tr.Max(); !ok || mx != want[len(want)-1] {
			prop.Failf("%s: Max() = %d, %v, want %d", name, mx, ok, want[len(want)-1])
		}
		pivot := want[len(want)/2]
		var below []byte
		tr.DescendLessOrEqual(pivot, func(x byte) bool { below = append(below, x); return true })
		if len(below) != len(want)/2+1 {
			prop.Failf("%s: DescendLessOrEqual(%d) gave %d keys, want %d", name, pivot, len(below), len(want)/2+1)
		}
	}
}
