// Package uuid holds native fuzz targets (in its test files) of
// github.com/google/uuid: UUID parsing and formatting.
package uuid

import (
	"github.com/google/uuid"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/google/uuid"

// CheckParse parses s as a UUID in every form Parse accepts. A UUID that
// parses must parse again from its String and URN forms to the same value;
// ParseBytes must agree with Parse, and a string Validate accepts must
// parse (Parse is documented to be more lenient than Validate: it does not
// look at the braces of the 38-byte form).
func CheckParse(s string) {
	u, err := uuid.Parse(s)
	ub, berr := uuid.ParseBytes([]byte(s))
	if (err == nil) != (berr == nil) || u != ub {
		prop.Failf("Parse(%q) = %v, %v; ParseBytes = %v, %v", s, u, err, ub, berr)
	}
	if verr := uuid.Validate(s); verr == nil && err != nil {
		prop.Failf("Parse(%q) error %v, Validate error %v", s, err, verr)
	}
	if err != nil {
		return
	}
	for _, form := range []string{u.String(), u.URN()} {
		again, err := uuid.Parse(form)
		if err != nil || again != u {
			prop.Failf("Parse(%q) = %v; Parse(%q) = %v, %v", s, u, form, again, err)
		}
	}
	_ = u.Version().String()
	_ = u.Variant().String()
}

// CheckFromBytes reads b as the 16 bytes of a UUID (FromBytes) and as its
// binary and text encodings (UnmarshalBinary, UnmarshalText). Each must
// accept b exactly when the other documents it should, and what they read
// must marshal back to the bytes read.
func CheckFromBytes(b []byte) {
	u, err := uuid.FromBytes(b)
	if (err == nil) != (len(b) == 16) {
		prop.Failf("FromBytes(%x) error %v for a slice of %d bytes", b, err, len(b))
	}
	if err == nil {
		bin, _ := u.MarshalBinary()
		if string(bin) != string(b) {
			prop.Failf("FromBytes(%x).MarshalBinary() = %x", b, bin)
		}
	}
	var t uuid.UUID
	if err := t.UnmarshalText(b); err == nil {
		p, perr := uuid.ParseBytes(b)
		if perr != nil || p != t {
			prop.Failf("UnmarshalText(%q) = %v, ParseBytes = %v, %v", b, t, p, perr)
		}
		text, _ := t.MarshalText()
		if again, err := uuid.ParseBytes(text); err != nil || again != t {
			prop.Failf("UnmarshalText(%q) = %v, its MarshalText %q parses to %v, %v", b, t, text, again, err)
		}
	}
	var n uuid.NullUUID
	if err := n.UnmarshalText(b); err == nil && n.Valid {
		if _, err := uuid.ParseBytes(b); err != nil {
			prop.Failf("NullUUID.UnmarshalText(%q) is valid, ParseBytes fails: %v", b, err)
		}
	}
}
