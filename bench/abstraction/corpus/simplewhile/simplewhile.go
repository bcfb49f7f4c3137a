// Package simplewhile is the "simple-while" program of seed 002 (Crabs),
// written afresh in Go: a loop of 30 iterations reads one input each and
// sets a flag unless the input is exactly what its iteration wants; the
// goal after the loop needs the flag clear. Depth-first and CFG-directed
// concolic search miss it (they flip the loop's branches in an order
// that never leaves all 30 right at once); an abstraction with the flag
// as a predicate prunes every path that set it.
package simplewhile

// iterations is the number of inputs the loop reads.
const iterations = 30

// at is input i: byte i of in, 0 past its end.
func at(in []byte, i int) byte {
	if i < len(in) {
		return in[i]
	}
	return 0
}

// Goal returns 1 when every input but the seventh is 4 and the seventh
// is not (the goal), else 0.
func Goal(in []byte) int {
	set := false
	for i := 0; i < iterations; i++ {
		x := at(in, i)
		if i == 6 && x == 4 {
			set = true
		}
		if i != 6 && x != 4 {
			set = true
		}
	}
	if !set {
		return 1 // goal
	}
	return 0
}
