package tcas

import "testing"

// FuzzTcas is a native fuzz target of Advise, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzTcas(f *testing.F) {
	f.Add(0, false, false, 0, 0, 0, 0, 0, 0, 0, 0, false)
	f.Fuzz(func(t *testing.T, vertSep int, confident bool, reportsValid bool, ownAlt int, ownRate int, intrAlt int, layer int, upSep int, downSep int, intrIntent int, intrCap int, climbInhibit bool) {
		Advise(vertSep, confident, reportsValid, ownAlt, ownRate, intrAlt, layer, upSep, downSep, intrIntent, intrCap, climbInhibit)
	})
}
