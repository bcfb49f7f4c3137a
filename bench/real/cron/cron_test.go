package cron

import "testing"

// FuzzParse runs CheckParse.
func FuzzParse(f *testing.F) {
	f.Add("*/15 0-6,22 1,15 JAN-MAR,DEC mon-fri")
	f.Add("@every 1h30m")
	f.Add("TZ=UTC 5 4 * * SUN")
	f.Fuzz(func(t *testing.T, spec string) { CheckParse(spec) })
}
