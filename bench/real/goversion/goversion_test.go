package goversion

import "testing"

// FuzzNewVersion runs CheckNewVersion.
func FuzzNewVersion(f *testing.F) {
	f.Add("v1.2.3-beta.1+exp.sha.5114f85")
	f.Add("1.0.0.4-rc1")
	f.Fuzz(func(t *testing.T, s string) { CheckNewVersion(s) })
}

// FuzzConstraint runs CheckConstraint.
func FuzzConstraint(f *testing.F) {
	f.Add(">= 1.0, < 1.4", "1.2.9")
	f.Add("~> 2.1-beta, != 2.1.4", "2.1.0-beta.2")
	f.Fuzz(func(t *testing.T, c, s string) { CheckConstraint(c, s) })
}
