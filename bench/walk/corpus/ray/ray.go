// Package ray is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "floating-point geometry with square roots": a
// ray–sphere intersection whose outcome depends on dot products of the
// inputs and on the square root of the discriminant, so that reaching the
// tangent, head-on and grazing regions means solving non-linear
// inequalities over floats.
package ray

import "math"

// The centre of the sphere; its radius is an input.
const cx, cy, cz = 0.0, 0.0, 10.0

// Outcomes of Trace.
const (
	Invalid = iota // no sphere (radius out of range) or no direction
	NearCentre
	Inside
	Miss
	Tangent
	Behind
	TooFar
	HeadOn
	Grazing
	Pole
	Hit
)

// Trace shoots the ray o + t·d, t ≥ 0, at the sphere of radius r centred
// at (0, 0, 10), and returns which region the ray and its first hit fall
// into, one of the outcome constants.
func Trace(ox, oy, oz, dx, dy, dz, r float64) int {
	if !(r > 0 && r < 1000) {
		return Invalid
	}
	a := dx*dx + dy*dy + dz*dz
	if !(a > 1e-12 && a < 1e12) {
		return Invalid
	}
	lx, ly, lz := ox-cx, oy-cy, oz-cz
	b := 2 * (dx*lx + dy*ly + dz*lz)
	c := lx*lx + ly*ly + lz*lz - r*r
	if c < 0 {
		// The origin is inside the sphere.
		if math.Sqrt(lx*lx+ly*ly+lz*lz) < r/100 {
			return NearCentre
		}
		return Inside
	}
	disc := b*b - 4*a*c
	if !(disc >= 0) {
		return Miss
	}
	sq := math.Sqrt(disc)
	if sq < 1e-3*a {
		// The two intersections (nearly) coincide.
		return Tangent
	}
	t0 := (-b - sq) / (2 * a)
	if t0 < 0 {
		return Behind
	}
	if t0*math.Sqrt(a) > 100 {
		return TooFar
	}
	// The outward normal at the first hit, and the cosine of the angle
	// between it and the reversed direction of the ray.
	nx := (ox + t0*dx - cx) / r
	ny := (oy + t0*dy - cy) / r
	nz := (oz + t0*dz - cz) / r
	cosine := -(nx*dx + ny*dy + nz*dz) / math.Sqrt(a)
	switch {
	case cosine > 0.9999:
		return HeadOn
	case cosine < 0.1:
		return Grazing
	case nz < -0.99:
		// The ray comes in at an angle, at the pole that faces z = 0.
		return Pole
	}
	return Hit
}
