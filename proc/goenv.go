package proc

import (
	"os"
	"slices"
	"strings"
)

// GoEnv returns the environment of go commands that must build with the
// extra build tags: this process's environment, with the tags added to
// the -tags of GOFLAGS (which every go command reads, and which keeps the
// tags the user gave there). Nil when tags is empty: the commands then
// inherit the environment as it is.
func GoEnv(tags []string) []string {
	if len(tags) == 0 {
		return nil
	}
	flags := AddTags(os.Getenv("GOFLAGS"), tags)
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GOFLAGS=") })
	return append(env, "GOFLAGS="+flags)
}

// AddTags returns the GOFLAGS value goflags with tags added to its -tags
// flag (appended as one if it has none), each tag once.
func AddTags(goflags string, tags []string) string {
	fields := strings.Fields(goflags)
	for i, f := range fields {
		for _, prefix := range []string{"-tags=", "--tags="} {
			if v, ok := strings.CutPrefix(f, prefix); ok {
				fields[i] = prefix + joinTags(strings.Split(v, ","), tags)
				return strings.Join(fields, " ")
			}
		}
	}
	return strings.Join(append(fields, "-tags="+joinTags(nil, tags)), " ")
}

// joinTags joins have and add with commas, without empty or repeated tags.
func joinTags(have, add []string) string {
	var out []string
	for _, t := range append(slices.Clone(have), add...) {
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return strings.Join(out, ",")
}
