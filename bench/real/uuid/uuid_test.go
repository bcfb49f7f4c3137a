package uuid

import (
	"testing"

	"github.com/google/uuid"
)

// FuzzParse parses a UUID in every form Parse accepts. A UUID that parses
// must parse again from its String and URN forms to the same value;
// ParseBytes must agree with Parse, and a string Validate accepts must
// parse (Parse is documented to be more lenient than Validate: it does not
// look at the braces of the 38-byte form).
func FuzzParse(f *testing.F) {
	f.Add("f47ac10b-58cc-4372-a567-0e02b2c3d479")
	f.Add("urn:uuid:{00000000-0000-0000-0000-000000000000}")
	f.Fuzz(func(t *testing.T, s string) {
		u, err := uuid.Parse(s)
		ub, berr := uuid.ParseBytes([]byte(s))
		if (err == nil) != (berr == nil) || u != ub {
			t.Fatalf("Parse(%q) = %v, %v; ParseBytes = %v, %v", s, u, err, ub, berr)
		}
		if verr := uuid.Validate(s); verr == nil && err != nil {
			t.Fatalf("Parse(%q) error %v, Validate error %v", s, err, verr)
		}
		if err != nil {
			return
		}
		for _, form := range []string{u.String(), u.URN()} {
			again, err := uuid.Parse(form)
			if err != nil || again != u {
				t.Fatalf("Parse(%q) = %v; Parse(%q) = %v, %v", s, u, form, again, err)
			}
		}
		_ = u.Version().String()
		_ = u.Variant().String()
	})
}
