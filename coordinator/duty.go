package coordinator

import (
	"math"
	"time"
)

// duty splits the cores between the lanes by what each finds (issue 16).
// Each lane's yield is the inputs it found that covered a branch outcome
// first, per second of the CPU time it cost (the solver's time for the concolic lane, the
// batches' for the mutation lane), both decayed with a half-life of
// yieldHalfLife so that the split follows what the lanes find now. While
// the concolic lane yields less, the solver may use only the ratio of the
// two yields of its pool's time (at least minShare); the workers' batches
// get the rest. On the walk corpus's non-linear and floating-point
// programs (blind, stat) Z3 spent up to seconds a query on candidates it
// rarely solved, while the mutation lane, left half the cores, fell
// behind its own run alone.
//
// A run in lockstep (one worker, one solver) has no duty: what runs there
// depends on counts, never on timings.
type duty struct {
	concolic, mutation yield
	// credit is the solver time the share has granted and the solver
	// not spent yet, at most maxCredit per solver; solverAt the run's
	// solver time when it was last counted, at the time at.
	credit   time.Duration
	solverAt time.Duration
	at       time.Time
	// Held counts the times the solver was held back (a run of calls
	// that held it counts once); Time is how long its share was below
	// its whole pool's time in all.
	Held int
	Time time.Duration
	held bool // the last call held a query back
}

// yield is a lane's decayed count of finds and of its cost.
type yield struct {
	finds float64
	cost  float64 // seconds
	at    time.Time
}

const (
	// yieldHalfLife is the half-life of the lanes' finds and costs.
	yieldHalfLife = 10 * time.Second
	// priorFinds and priorCost start each lane's yield at a find every
	// two seconds, so that a lane is judged on a few finds, not one, and
	// the lane that has found nothing yet is not shut out.
	priorFinds = 0.5
	priorCost  = 1.0
	// minShare bounds the solver's share from below: a query now and
	// then, so that a concolic lane whose next answer opens a new region
	// is not shut out for good.
	minShare = 1.0 / 16
	// maxCredit bounds, per solver, the time a solver may bank while it
	// has no candidate, so that a pause does not buy a burst.
	maxCredit = time.Second
)

// add counts finds and cost at now, after decaying what was counted.
func (y *yield) add(now time.Time, finds int, cost time.Duration) {
	if !y.at.IsZero() {
		f := math.Exp2(-float64(now.Sub(y.at)) / float64(yieldHalfLife))
		y.finds *= f
		y.cost *= f
	}
	y.at = now
	y.finds += float64(finds)
	y.cost += cost.Seconds()
}

// rate is the yield's finds per second of cost.
func (y *yield) rate() float64 { return (y.finds + priorFinds) / (y.cost + priorCost) }

// share is the solver's share of its pool's time: the ratio of the lanes'
// yields, between minShare and 1.
func (u *duty) share() float64 {
	return min(1, max(minShare, u.concolic.rate()/u.mutation.rate()))
}

// allow reports whether the solver may take another query at now, the
// run's solver time, summed over its slots solvers, being solverTime.
func (u *duty) allow(solverTime time.Duration, now time.Time, slots int) bool {
	s := u.share()
	if !u.at.IsZero() {
		granted := time.Duration(s * float64(now.Sub(u.at)) * float64(max(slots, 1)))
		u.credit = min(u.credit+granted-(solverTime-u.solverAt), maxCredit*time.Duration(max(slots, 1)))
		if s < 1 {
			u.Time += now.Sub(u.at)
		}
	}
	u.at, u.solverAt = now, solverTime
	ok := s >= 1 || u.credit > 0
	if !ok && !u.held {
		u.Held++
	}
	u.held = !ok
	return ok
}

// onDuty reports whether the solver may take another query now: always,
// but beside the mutation lane outside lockstep, where the duty decides.
func (d *coordinator) onDuty() bool {
	if d.lane == nil || d.lockstep || d.cfg.Lanes != LanesBoth {
		return true
	}
	return d.duty.allow(d.rep.SolverTime, time.Now(), d.pool.live())
}
