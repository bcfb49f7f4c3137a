package session

import (
	"io"
	"testing"

	"github.com/gocolic/gocolic/explore"
)

// TestSitePropsOfExample checks that the static properties reach the
// sites of a real rewrite: the sites' positions are found in the loaded
// syntax.
func TestSitePropsOfExample(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Dir, cfg.Package, cfg.Func, cfg.Stderr = "..", "./examples/keywords", "Setting", io.Discard
	cfg.Stdlib = false
	tgt, err := testTarget(cfg)
	if err != nil {
		t.Fatal(err)
	}
	static := siteProps(tgt, cfg.Func)
	want := map[string]explore.SiteProps{
		"line[0] == '#'": explore.SEntry | explore.SIntConst | explore.SCharConst,
		"eq < 0":         explore.SEntry | explore.SIntConst | explore.SCharConst | explore.SLocal,
		"err != nil":     explore.SEntry | explore.SLocal,                                      // atoi is the package's own
		`key == "port"`:  explore.SEntry | explore.SCase | explore.SCharConst | explore.SLocal, // case "port": against key
		"n > 65535":      explore.SEntry | explore.SIntConst | explore.SLocal,                  // b of a || b is not nested
	}
	found := map[string]bool{}
	for _, s := range tgt.ins.Sites {
		w, ok := want[s.Text]
		if !ok || s.Func != "Setting" || found[s.Text] {
			continue
		}
		found[s.Text] = true
		if static[s.ID] != w {
			t.Errorf("%s: %s, want %s", s.Text, static[s.ID], w)
		}
	}
	if len(found) != len(want) {
		t.Errorf("found %v of the sites %v", found, want)
	}
}
