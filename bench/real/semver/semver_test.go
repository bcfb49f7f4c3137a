package semver

import (
	"testing"

	"github.com/Masterminds/semver/v3"
)

// FuzzNewVersion parses a version leniently and strictly. A version that
// parses must parse again from its canonical form, to an equal version;
// one that parses strictly must parse leniently too, to an equal version.
func FuzzNewVersion(f *testing.F) {
	f.Add("1.2.3-beta.1+build.5")
	f.Add("v2.0")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := semver.NewVersion(s)
		if err == nil {
			again, err := semver.NewVersion(v.String())
			if err != nil {
				t.Fatalf("NewVersion(%q).String() = %q does not parse: %v", s, v.String(), err)
			}
			if !v.Equal(again) || v.Compare(again) != 0 {
				t.Fatalf("NewVersion(%q) = %v, but its String parses to %v", s, v, again)
			}
		}
		sv, serr := semver.StrictNewVersion(s)
		if serr == nil {
			if err != nil {
				t.Fatalf("StrictNewVersion(%q) succeeds but NewVersion fails: %v", s, err)
			}
			if !sv.Equal(v) {
				t.Fatalf("StrictNewVersion(%q) = %v, NewVersion = %v", s, sv, v)
			}
		}
	})
}

// FuzzConstraint parses a constraint and a version and checks the version
// against the constraint: Check and Validate must agree.
func FuzzConstraint(f *testing.F) {
	f.Add(">= 1.2, < 3.0.0 || ^4.1", "2.5.0")
	f.Add("~1.2.x-0", "1.2.7-rc.1")
	f.Fuzz(func(t *testing.T, c, s string) {
		cs, err := semver.NewConstraint(c)
		if err != nil {
			return
		}
		_ = cs.String()
		v, err := semver.NewVersion(s)
		if err != nil {
			return
		}
		ok := cs.Check(v)
		valid, errs := cs.Validate(v)
		if ok != valid {
			t.Fatalf("constraint %q, version %q: Check = %v, Validate = %v %v", c, s, ok, valid, errs)
		}
	})
}
