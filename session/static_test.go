package session

import (
	"io"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/sites"
)

// TestStaticGraph checks that the session builds the control-flow graph
// for the strategies that read one, and only for them, with the target's
// sites mapped.
func TestStaticGraph(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(filepath.Dir(file)), "examples", "keywords")
	pkg, err := load.Load(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Dir, cfg.Stdlib, cfg.Stderr = dir, false, io.Discard
	tg, err := instrumentTarget(cfg, pkg, instrument.Config{Entry: "Setting"})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range explore.Names() {
		cfg.Strategy = name
		g, err := staticGraph(cfg, tg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if (g != nil) != explore.UsesStatic(name) {
			t.Errorf("%s: graph %v, want one: %t", name, g, explore.UsesStatic(name))
			continue
		}
		if g == nil {
			continue
		}
		// Nothing is covered yet: every condition outcome is a goal.
		for _, s := range tg.ins.Sites {
			if s.Kind == sites.Cond && g.Distance(s.ID, true) != 0 {
				t.Errorf("%s: site %d (%s) at distance %d before any execution, want 0", name, s.ID, s.Text, g.Distance(s.ID, true))
			}
		}
	}
}
