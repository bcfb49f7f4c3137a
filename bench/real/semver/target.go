// Package semver holds native fuzz targets (in its test files) of
// github.com/Masterminds/semver/v3: version and constraint parsing.
package semver

import (
	"github.com/Masterminds/semver/v3"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/Masterminds/semver/v3"

// CheckNewVersion parses s as a version leniently and strictly. A version
// that parses must parse again from its canonical form, to an equal
// version; one that parses strictly must parse leniently too, to an equal
// version.
func CheckNewVersion(s string) {
	v, err := semver.NewVersion(s)
	if err == nil {
		again, err := semver.NewVersion(v.String())
		if err != nil {
			prop.Failf("NewVersion(%q).String() = %q does not parse: %v", s, v.String(), err)
		} else if !v.Equal(again) || v.Compare(again) != 0 {
			prop.Failf("NewVersion(%q) = %v, but its String parses to %v", s, v, again)
		}
	}
	sv, serr := semver.StrictNewVersion(s)
	if serr == nil {
		if err != nil {
			prop.Failf("StrictNewVersion(%q) succeeds but NewVersion fails: %v", s, err)
		}
		if !sv.Equal(v) {
			prop.Failf("StrictNewVersion(%q) = %v, NewVersion = %v", s, sv, v)
		}
	}
}

// CheckConstraint parses a constraint c and a version s and checks the
// version against the constraint: Check and Validate must agree.
func CheckConstraint(c, s string) {
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
		prop.Failf("constraint %q, version %q: Check = %v, Validate = %v %v", c, s, ok, valid, errs)
	}
}
