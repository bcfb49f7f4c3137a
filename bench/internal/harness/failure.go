package harness

import (
	"fmt"
	"regexp"
	"strings"
)

// RunFailure says why a run failed, or returns "" for a good run. gocolic
// exits with 0 when its run completed, bugs found or not (bugs have no
// exit status of their own), with 2 for bad input (a target that does not
// build, an unknown flag such as a -solver gocolic does not have yet) and
// with 1 when it failed itself; so any other status than 0 is a failure,
// and so is a run that left no readable report.
func RunFailure(exitCode int, timedOut bool, reportErr error) string {
	switch {
	case timedOut:
		return "killed at the time limit"
	case exitCode != 0:
		return fmt.Sprintf("exit status %d", exitCode)
	case reportErr != nil:
		return "no usable JSON report: " + reportErr.Error()
	}
	return ""
}

// gocolicMsgRE matches gocolic's own error line.
var gocolicMsgRE = regexp.MustCompile(`(?m)^gocolic: (.*)$`)

// LastMessage returns the last error line gocolic printed ("gocolic: …"
// that is not a status or summary line), or else the first non-empty line
// of its output (the flag package's complaint about an unknown flag comes
// first, before the usage).
func LastMessage(out []byte) string {
	var last string
	for _, m := range gocolicMsgRE.FindAllStringSubmatch(string(out), -1) {
		if strings.HasPrefix(m[1], "elapsed:") || strings.Contains(m[1], " executions, ") {
			continue
		}
		last = m[1]
	}
	if last != "" {
		return strings.TrimSpace(last)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
