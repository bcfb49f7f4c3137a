package proc

import (
	"slices"
	"strings"
	"testing"
)

func TestAddTags(t *testing.T) {
	for _, tt := range []struct {
		goflags string
		tags    []string
		want    string
	}{
		{"", []string{"purego"}, "-tags=purego"},
		{"-mod=mod", []string{"noasm", "purego"}, "-mod=mod -tags=noasm,purego"},
		{"-tags=foo -mod=mod", []string{"purego"}, "-tags=foo,purego -mod=mod"},
		{"--tags=foo,purego", []string{"purego"}, "--tags=foo,purego"},
		{"-tags=", []string{"noasm"}, "-tags=noasm"},
	} {
		if got := AddTags(tt.goflags, tt.tags); got != tt.want {
			t.Errorf("AddTags(%q, %q) = %q, want %q", tt.goflags, tt.tags, got, tt.want)
		}
	}
}

func TestGoEnv(t *testing.T) {
	t.Setenv("GOFLAGS", "-tags=user")
	if env := GoEnv(nil); env != nil {
		t.Errorf("GoEnv(nil) = %d variables, want nil (inherit)", len(env))
	}
	env := GoEnv([]string{"purego"})
	var goflags []string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			goflags = append(goflags, v)
		}
	}
	if !slices.Equal(goflags, []string{"-tags=user,purego"}) {
		t.Errorf("GOFLAGS in GoEnv: %q, want one, -tags=user,purego", goflags)
	}
	if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "PATH=") }) {
		t.Error("GoEnv dropped the rest of the environment (PATH)")
	}
}
