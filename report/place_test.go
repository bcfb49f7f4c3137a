package report

import "testing"

// TestPlacesPath shows files of the module cache as module@version/file,
// of the Go installation under $GOROOT, below the directory relative to
// it, and others whole.
func TestPlacesPath(t *testing.T) {
	p := Places{Dir: "/home/u", GoRoot: "/usr/local/go", ModCache: "/home/u/go/pkg/mod"}
	tests := []struct {
		file, want string
	}{
		{"/home/u/go/pkg/mod/github.com/x/y@v1.2.3/parser.go", "github.com/x/y@v1.2.3/parser.go"},
		{"/home/u/go/pkg/mod/github.com/!burnt!sushi/toml@v1.4.0/internal/tz.go", "github.com/BurntSushi/toml@v1.4.0/internal/tz.go"},
		{"/home/u/go/pkg/mod/gopkg.in/yaml.v3@v3.0.1/decode.go", "gopkg.in/yaml.v3@v3.0.1/decode.go"},
		{"/home/u/go/pkg/mod/cache/download/x/@v/list", "go/pkg/mod/cache/download/x/@v/list"},
		{"/usr/local/go/src/regexp/backtrack.go", "$GOROOT/src/regexp/backtrack.go"},
		{"/home/u/m/a.go", "m/a.go"},
		{"/home/u2/a.go", "/home/u2/a.go"},
		{"/opt/a.go", "/opt/a.go"},
	}
	for _, tt := range tests {
		if got := p.Path(tt.file); got != tt.want {
			t.Errorf("Path(%q) = %q, want %q", tt.file, got, tt.want)
		}
	}
	if got := (Places{}).Path("/usr/local/go/src/strings/strings.go"); got != "/usr/local/go/src/strings/strings.go" {
		t.Errorf("without roots: %q, want the path whole", got)
	}
}
