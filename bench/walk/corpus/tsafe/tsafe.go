// Package tsafe is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "trigonometric geometry in aviation code": a
// horizontal conflict probe between two aircraft in the style of the
// TSAFE trajectory-safety monitor. Velocities come from headings through
// sin and cos, the closest approach from dot products and a square root,
// and the resolution turn from atan2, a modulo and a bank angle's tangent.
package tsafe

import "math"

const (
	sepNM      = 5.0        // horizontal separation minimum, nautical miles
	lookahead  = 300.0      // seconds ahead the probe looks
	stdRate    = 3.0        // standard turn rate, degrees per second
	nmPerKtSec = 1.0 / 3600 // nautical miles per second per knot
	mpsPerKt   = 0.514444   // metres per second per knot
	gravity    = 9.81       // metres per second squared
	deg        = math.Pi / 180
)

// Outcomes of Probe.
const (
	Invalid     = iota // inputs out of range
	LostSep            // already closer than the minimum
	Parallel           // no relative motion
	Diverging          // the closest approach lies in the past
	BeyondLook         // the closest approach lies beyond the look-ahead
	Clear              // the closest approach keeps the minimum
	NoBank             // a conflict, but no usable bank angle
	OverRate           // a conflict, the turn would exceed the standard rate
	HeadOnRight        // a conflict, intruder ahead: turn right by convention
	TurnLeft           // a conflict, intruder on the right
	TurnRight          // a conflict, intruder on the left
)

// Probe checks the own aircraft, at the origin with heading hOwn degrees
// (0 is north, clockwise) and speed vOwn knots, against an intruder at
// (x, y) nautical miles east and north with heading hInt and speed vInt,
// and returns one of the outcomes; bank is the bank angle in degrees the
// own aircraft would use to turn away.
func Probe(x, y, hOwn, vOwn, hInt, vInt, bank float64) int {
	if !(hOwn >= 0 && hOwn < 360 && hInt >= 0 && hInt < 360) ||
		!(vOwn > 0 && vOwn < 1000 && vInt > 0 && vInt < 1000) ||
		!(math.Abs(x) < 1000 && math.Abs(y) < 1000) {
		return Invalid
	}
	dist := math.Sqrt(x*x + y*y)
	if dist < sepNM {
		return LostSep
	}
	// Velocities east and north, in nautical miles per second, and the
	// intruder's velocity relative to the own aircraft.
	ox, oy := vOwn*nmPerKtSec*math.Sin(hOwn*deg), vOwn*nmPerKtSec*math.Cos(hOwn*deg)
	ix, iy := vInt*nmPerKtSec*math.Sin(hInt*deg), vInt*nmPerKtSec*math.Cos(hInt*deg)
	rx, ry := ix-ox, iy-oy
	rv2 := rx*rx + ry*ry
	if rv2 < 1e-12 {
		return Parallel
	}
	tca := -(x*rx + y*ry) / rv2
	if tca < 0 {
		return Diverging
	}
	if tca > lookahead {
		return BeyondLook
	}
	mx, my := x+rx*tca, y+ry*tca
	if math.Sqrt(mx*mx+my*my) >= sepNM {
		return Clear
	}
	if !(bank > 0 && bank < 60) {
		return NoBank
	}
	// Rate of a coordinated turn: g·tan(bank)/v, in degrees per second.
	rate := gravity * math.Tan(bank*deg) / (vOwn * mpsPerKt) / deg
	if rate > stdRate {
		return OverRate
	}
	// Bearing of the intruder relative to the own heading, in [-180, 180).
	bearing := math.Atan2(x, y) / deg
	rel := math.Mod(bearing-hOwn+540, 360) - 180
	switch {
	case math.Abs(rel) < 10:
		return HeadOnRight
	case rel > 0:
		return TurnLeft
	}
	return TurnRight
}
