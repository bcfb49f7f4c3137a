// Package tcas is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "linear integer decisions", the control case with
// no non-linear constraint at all: a resolution-advisory procedure in the
// style of the TCAS collision-avoidance logic, with many integer and
// boolean inputs, equality checks against constants and linear
// comparisons of altitudes and separations. Z3 models every condition
// exactly, so a concolic walk should not be needed here.
package tcas

// Advisories Advise returns.
const (
	Unresolved = iota // no advisory
	Climb             // climb, with enough separation
	Descend           // descend, with enough separation
	Weak              // a direction was chosen but gives too little separation
)

// Intents the intruder may have announced.
const (
	intentNone      = 0
	intentNoClimb   = 1
	intentNoDescend = 2
)

// capTCAS is the capability code of an intruder equipped with TCAS.
const capTCAS = 1

// required returns the vertical separation, in feet, required in an
// altitude layer (0 to 3).
func required(layer int) int {
	switch layer {
	case 0:
		return 400
	case 1:
		return 500
	case 2:
		return 640
	}
	return 740
}

// climbGain returns the separation a climb is assumed to give: an
// inhibited climb is credited with 100 feet more, as the aircraft is
// assumed to be able to do less than what the inhibition hides.
func climbGain(upSep int, inhibited bool) int {
	if inhibited {
		return upSep + 100
	}
	return upSep
}

// Advise chooses a vertical resolution advisory for the own aircraft (at
// ownAlt feet, climbing or descending at ownRate feet per minute) against
// an intruder at intrAlt feet, given the separations a climb (upSep) and
// a descent (downSep) would give, and returns one of the advisories.
func Advise(vertSep int, confident, reportsValid bool, ownAlt, ownRate, intrAlt, layer, upSep, downSep, intrIntent, intrCap int, climbInhibit bool) int {
	if layer < 0 || layer > 3 || upSep < 0 || downSep < 0 {
		return Unresolved
	}
	// The logic is enabled only with a confident track, a moderate
	// vertical rate and an intruder not yet too close.
	if !confident || ownRate > 600 || ownRate < -600 || vertSep <= 600 {
		return Unresolved
	}
	// An intruder with TCAS must have valid reports and no intent of its
	// own, or the two systems could choose the same direction.
	if intrCap == capTCAS && !(reportsValid && intrIntent == intentNone) {
		return Unresolved
	}
	limit := required(layer)
	up := climbGain(upSep, climbInhibit)
	above := ownAlt > intrAlt
	below := ownAlt < intrAlt
	// Climb when it separates more than a descent, without crossing the
	// intruder's altitude unless a descent would fall short anyway.
	climb := up > downSep && (above || downSep < limit) && intrIntent != intentNoClimb
	descend := downSep >= up && (below || up < limit) && intrIntent != intentNoDescend
	// No descent advisory close to the ground.
	if descend && ownAlt-downSep < 1000 {
		descend = false
	}
	switch {
	case climb && ownAlt+up-intrAlt >= limit:
		return Climb
	case descend && intrAlt-(ownAlt-downSep) >= limit:
		return Descend
	case climb || descend:
		return Weak
	}
	return Unresolved
}
