package session

import (
	"fmt"

	"github.com/gocolic/gocolic/corpus"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// replaySeeds reads the corpus directories and turns their entries into
// inputs of the target. maxLen grows to fit the longest string.
func replaySeeds(dirs []string, t *Entry, maxLen *int) ([]sym.Env, error) {
	var entries [][]corpus.Value
	var names []string
	for _, d := range dirs {
		es, ns, err := corpus.ReadDir(d)
		if err != nil {
			return nil, err
		}
		entries = append(entries, es...)
		names = append(names, ns...)
	}
	for _, e := range entries {
		for _, v := range e {
			*maxLen = max(*maxLen, len(v.Bytes))
		}
	}
	if *maxLen > maxMaxLen {
		return nil, fmt.Errorf("corpus holds a value of %d bytes; at most %d are supported", *maxLen, maxMaxLen)
	}
	var envs []sym.Env
	for k, e := range entries {
		env, err := entryEnv(e, t, *maxLen)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", names[k], err)
		}
		envs = append(envs, env)
	}
	if len(envs) == 0 {
		return nil, fmt.Errorf("no corpus entries in %v", dirs)
	}
	return envs, nil
}

// kindMatches reports whether a corpus value of type typ can stand for a
// parameter of kind k.
func kindMatches(k rt.ParamKind, typ string) bool {
	switch typ {
	case "bool":
		return k == rt.ParamBool
	case "string", "[]byte":
		return k == rt.ParamString || k == rt.ParamBytes
	case "float32", "float64":
		return k == rt.ParamFloat
	}
	return k == rt.ParamInt
}
