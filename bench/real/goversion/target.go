// Package goversion holds native fuzz targets (in its test files) of
// github.com/hashicorp/go-version: version and constraint parsing.
package goversion

import (
	version "github.com/hashicorp/go-version"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/hashicorp/go-version"

// CheckNewVersion parses s as a version. A version that parses must parse
// again from its String, and from its MarshalText, to an equal version;
// Compare must be antisymmetric against its Core, and a version of at
// most three segments and no prerelease equal to it; a string NewSemver
// accepts must be accepted by NewVersion too, as an equal version.
func CheckNewVersion(s string) {
	v, err := version.NewVersion(s)
	if sv, serr := version.NewSemver(s); serr == nil {
		if err != nil {
			prop.Failf("NewSemver(%q) ok, NewVersion fails: %v", s, err)
		}
		if !sv.Equal(v) {
			prop.Failf("NewSemver(%q) = %v, NewVersion = %v", s, sv, v)
		}
	}
	if err != nil {
		return
	}
	again, err := version.NewVersion(v.String())
	if err != nil || !again.Equal(v) || again.Compare(v) != 0 {
		prop.Failf("NewVersion(%q) = %v, whose String parses to %v, %v", s, v, again, err)
	}
	text, err := v.MarshalText()
	if err != nil {
		prop.Failf("NewVersion(%q).MarshalText: %v", s, err)
	}
	var u version.Version
	if err := u.UnmarshalText(text); err != nil || !u.Equal(v) {
		prop.Failf("NewVersion(%q) = %v, UnmarshalText(%q) = %v, %v", s, v, text, &u, err)
	}
	core := v.Core()
	if v.Compare(core) != -core.Compare(v) {
		prop.Failf("Compare(%v, %v) is not antisymmetric", v, core)
	}
	if v.Prerelease() == "" && len(v.Segments64()) <= 3 && v.Compare(core) != 0 {
		prop.Failf("%v has no prerelease but differs from its core %v", v, core)
	}
	_ = v.Segments64()
	_ = v.Metadata()
}

// CheckConstraint parses the constraint c and the version s. A
// constraint that parses must parse again from its String, and both must
// agree on s.
func CheckConstraint(c, s string) {
	cs, err := version.NewConstraint(c)
	if err != nil {
		return
	}
	again, err := version.NewConstraint(cs.String())
	if err != nil {
		prop.Failf("NewConstraint(%q).String() = %q does not parse: %v", c, cs.String(), err)
	}
	v, err := version.NewVersion(s)
	if err != nil {
		return
	}
	if cs.Check(v) != again.Check(v) {
		prop.Failf("NewConstraint(%q) and its String %q disagree on %v", c, cs.String(), v)
	}
	for _, one := range cs {
		_ = one.Prerelease()
	}
}
