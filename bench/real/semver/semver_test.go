package semver

import "testing"

// FuzzNewVersion runs CheckNewVersion.
func FuzzNewVersion(f *testing.F) {
	f.Add("1.2.3-beta.1+build.5")
	f.Add("v2.0")
	f.Fuzz(func(t *testing.T, s string) { CheckNewVersion(s) })
}

// FuzzConstraint runs CheckConstraint.
func FuzzConstraint(f *testing.F) {
	f.Add(">= 1.2, < 3.0.0 || ^4.1", "2.5.0")
	f.Add("~1.2.x-0", "1.2.7-rc.1")
	f.Fuzz(func(t *testing.T, c, s string) { CheckConstraint(c, s) })
}
