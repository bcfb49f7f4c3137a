// Command orig runs package p on the input rows read as JSON from stdin
// and writes the outputs as JSON to stdout. The test builds it twice: with
// the original p, and with the instrumented p laid over it.
package main

import (
	"encoding/json"
	"os"

	"example.com/semantics/p"
)

// row is one row of inputs; the strings are []byte so that JSON carries
// invalid UTF-8 unchanged.
type row struct {
	A, B  int64
	S, Bs []byte
}

type report struct {
	Names []string
	Out   [][]string // by function, then by row
}

func main() {
	var rows []row
	if err := json.NewDecoder(os.Stdin).Decode(&rows); err != nil {
		panic(err)
	}
	var rep report
	for fn := 0; fn < p.N; fn++ {
		rep.Names = append(rep.Names, p.FuncName(fn))
		var outs []string
		for _, r := range rows {
			bs := make([]byte, len(r.Bs))
			copy(bs, r.Bs)
			outs = append(outs, p.Run(fn, r.A, r.B, string(r.S), bs))
		}
		rep.Out = append(rep.Out, outs)
	}
	if err := json.NewEncoder(os.Stdout).Encode(rep); err != nil {
		panic(err)
	}
}
