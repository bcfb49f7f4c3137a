package session

import (
	"fmt"

	"github.com/gocolic/gocolic/corpus"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// replaySeeds reads the corpus directories and turns their entries into
// inputs of the target. maxLen grows to fit the longest string.
func replaySeeds(dirs []string, t *Target, maxLen *int) ([]sym.Env, error) {
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
	offs := rt.Layout(t.rt, *maxLen)
	var envs []sym.Env
	for k, e := range entries {
		if len(e) != len(t.rt) {
			return nil, fmt.Errorf("%s: %d values for %d parameters of %s", names[k], len(e), len(t.rt), t.Func)
		}
		env := sym.Env{}
		for i, p := range t.rt {
			base := uint64(offs[i])
			v := e[i]
			if !kindMatches(p.Kind, v.Type) {
				return nil, fmt.Errorf("%s: value %d is a %s, parameter %s of %s is not", names[k], i+1, v.Type, p.Name, t.Func)
			}
			switch p.Kind {
			case rt.ParamInt:
				// One of Int and Uint is set, by the literal's type.
				env[base] = (v.Uint | uint64(v.Int)) & sym.Mask(p.Width)
			case rt.ParamBool:
				if v.Bool {
					env[base] = 1
				}
			case rt.ParamString, rt.ParamBytes:
				env[base] = uint64(len(v.Bytes))
				for j, c := range v.Bytes {
					env[base+1+uint64(j)] = uint64(c)
				}
			}
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
	}
	return k == rt.ParamInt
}
