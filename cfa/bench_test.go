package cfa

import (
	"go/types"
	"path/filepath"
	"testing"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/packages"
)

// benchPackage loads and instruments a package of the module for the
// benchmarks.
func benchPackage(b *testing.B, rel string) (*packages.Package, []sites.Site) {
	b.Helper()
	pkg, err := load.Load(filepath.Join(root(), rel), ".")
	if err != nil {
		b.Fatal(err)
	}
	res, err := instrument.Package(pkg.Package, instrument.Config{RuntimePath: build.RuntimePath, Support: true})
	if err != nil {
		b.Fatal(err)
	}
	return pkg.Package, res.Sites
}

// BenchmarkBuild measures what a run of cfds or cgs pays before it
// starts: the SSA form, the map, the call graph and the branch graph of
// gocolic's own instrument package (about 1,750 condition sites).
func BenchmarkBuild(b *testing.B) {
	p, table := benchPackage(b, "instrument")
	for b.Loop() {
		if _, err := Build([]*packages.Package{p}, table); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDistance measures the recomputation of the distances after
// new coverage, which the first Distance after a Cover pays, on the same
// package.
func BenchmarkDistance(b *testing.B) {
	p, table := benchPackage(b, "instrument")
	g, err := Build([]*packages.Package{p}, table)
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		s := table[i%len(table)]
		i++
		g.Cover(sites.Coverage{s.ID: 1})
		g.dirty = true // as if the coverage were new each time
		g.Distance(s.ID, true)
	}
}

// BenchmarkUnreachable measures the proof (roots, the walk of the call
// graph, dead code) on the same package, from its Package function.
func BenchmarkUnreachable(b *testing.B) {
	p, table := benchPackage(b, "instrument")
	g, err := Build([]*packages.Package{p}, table)
	if err != nil {
		b.Fatal(err)
	}
	entry, _ := p.Types.Scope().Lookup("Package").(*types.Func)
	if entry == nil {
		b.Fatal("no function Package")
	}
	for b.Loop() {
		g.Unreachable(entry)
	}
}

// BenchmarkDominates measures the dominator query the learned strategy
// and cgs make for every branch they walk back over, on pairs of mapped
// sites of the same package, near each other as on a path.
func BenchmarkDominates(b *testing.B) {
	p, table := benchPackage(b, "instrument")
	g, err := Build([]*packages.Package{p}, table)
	if err != nil {
		b.Fatal(err)
	}
	m := g.Mapped()
	i := 0
	for b.Loop() {
		d, x := m[i%len(m)], m[(i*7+3)%len(m)]
		if i%2 == 0 {
			x = m[(i+1)%len(m)]
		}
		i++
		g.Dominates(d, x)
	}
}
