package solver

// Layer is a Solver that reports statistics. Every layer of this package
// and the Z3 core are Layers.
type Layer interface {
	Solver
	// Name is a short lower-case label for reports, such as "cache".
	Name() string
	// Stats returns the counts so far.
	Stats() Stats
}

// A Wrapper is a Layer that passes the queries it does not answer itself
// to another Solver.
type Wrapper interface {
	Layer
	// Next returns the Solver that receives the queries passed on.
	Next() Solver
}

// Config selects the layers Chain puts in front of the core. The zero
// Config has none; DefaultConfig has all.
type Config struct {
	FastUnsat    bool
	Independence bool
	Cache        bool
	Domain       bool
	SeedFix      bool
}

// DefaultConfig returns the Config with every layer switched on.
func DefaultConfig() Config {
	return Config{FastUnsat: true, Independence: true, Cache: true, Domain: true, SeedFix: true}
}

// Chain returns core behind the layers cfg selects, in the order given in
// the package documentation.
func Chain(core Solver, cfg Config) Solver {
	s := core
	if cfg.SeedFix {
		s = NewSeedFix(s)
	}
	if cfg.Domain {
		s = NewDomain(s)
	}
	if cfg.Cache {
		s = NewCache(s)
	}
	if cfg.Independence {
		s = NewIndependence(s)
	}
	if cfg.FastUnsat {
		s = NewFastUnsat(s)
	}
	return s
}

// A Parent is a Solver that asks several others (the auto layer, the
// concolic walk and its linear solver).
type Parent interface {
	Children() []Solver
}

// Layers returns the Layers of the chain that starts at s, outermost first:
// s, then the Next of each Wrapper, then the Children of each Parent
// depth first, each Layer once. Solvers that are not Layers are left out.
func Layers(s Solver) []Layer {
	var ls []Layer
	seen := make(map[Solver]bool)
	var visit func(s Solver)
	visit = func(s Solver) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if l, ok := s.(Layer); ok {
			ls = append(ls, l)
		}
		if w, ok := s.(Wrapper); ok {
			visit(w.Next())
		}
		if p, ok := s.(Parent); ok {
			for _, c := range p.Children() {
				visit(c)
			}
		}
	}
	visit(s)
	return ls
}
