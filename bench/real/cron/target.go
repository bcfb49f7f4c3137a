// Package cron holds native fuzz targets (in its test files) of
// github.com/robfig/cron/v3: cron schedule specifications.
package cron

import (
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/robfig/cron/v3"

// optional is the parser of specs with an optional seconds field, which
// reads a standard spec as the standard parser does.
var optional = cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// start is the fixed time the schedules are evaluated from.
var start = time.Date(2024, time.February, 28, 23, 59, 30, 0, time.UTC)

// CheckParse parses spec as a standard cron spec ("*/5 0-6 * JAN-MAR
// MON", "@hourly", "@every 90s"). A spec that parses must parse with the
// optional-seconds parser too, to a schedule with the same next times;
// the next times from a fixed start must increase, and a standard
// schedule's must fall on whole minutes. A "TZ=" or "CRON_TZ=" prefix
// with no space after it is left out: it panics (a known bug of v3.0.1).
func CheckParse(spec string) {
	if tz, ok := strings.CutPrefix(spec, "TZ="); ok && !strings.Contains(tz, " ") {
		// v3.0.1 slices spec[3:-1] here and panics: a known bug, which
		// go test -fuzz finds within a second and which would end its
		// runs there.
		return
	}
	if tz, ok := strings.CutPrefix(spec, "CRON_TZ="); ok && !strings.Contains(tz, " ") {
		return
	}
	std, err := cron.ParseStandard(spec)
	if err != nil {
		_ = err.Error()
		return
	}
	opt, err := optional.Parse(spec)
	if err != nil {
		prop.Failf("ParseStandard(%q) ok, the optional-seconds parser fails: %v", spec, err)
	}
	t := start
	for i := 0; i < 3; i++ {
		n, m := std.Next(t), opt.Next(t)
		if !n.Equal(m) {
			prop.Failf("%q: after %v, standard parser: %v, optional-seconds parser: %v", spec, t, n, m)
		}
		if n.IsZero() {
			return // no time in the next five years
		}
		if !n.After(t) {
			prop.Failf("%q: Next(%v) = %v", spec, t, n)
		}
		if _, every := std.(cron.ConstantDelaySchedule); !every && n.Second() != 0 {
			prop.Failf("%q: Next(%v) = %v, not a whole minute", spec, t, n)
		}
		t = n
	}
}
