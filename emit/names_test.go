package emit

import (
	"go/token"
	"go/types"
	"maps"
	"slices"
	"testing"
)

// TestTypeNames checks how types are written in the test file of a target
// package and the names their packages are imported under: the target's
// own types unqualified, a package by its own name where that is free,
// and otherwise a numbered name, chosen in the order the types mention
// the packages.
func TestTypeNames(t *testing.T) {
	target := types.NewPackage("example.com/u", "u")
	named := func(pkg *types.Package, name string) types.Type {
		obj := types.NewTypeName(token.NoPos, pkg, name, nil)
		typ := types.NewNamed(obj, types.Typ[types.Int], nil)
		if pkg == target {
			pkg.Scope().Insert(obj)
		}
		return typ
	}
	rec := named(target, "Rec")
	geoDecl := named(target, "geo") // a declaration an import may not shadow
	image := named(types.NewPackage("image", "image"), "Point")
	stdJSON := named(types.NewPackage("encoding/json", "json"), "Number")
	myJSON := named(types.NewPackage("example.com/x/json", "json"), "Doc")
	v1a := named(types.NewPackage("example.com/a/v1", "v1"), "Level")
	v1b := named(types.NewPackage("example.com/b/v1", "v1"), "Level")
	geo := named(types.NewPackage("example.com/geo", "geo"), "Point")
	strs := named(types.NewPackage("example.com/mod/strings", "strings"), "Builder")

	tests := []struct {
		name    string
		types   []types.Type
		written []string // each of types, written
		imports map[string]string
	}{
		{
			name:    "the target's own types",
			types:   []types.Type{rec, types.NewSlice(types.NewPointer(rec)), types.Typ[types.Int]},
			written: []string{"Rec", "[]*Rec", "int"},
		},
		{
			name:    "a type of another package",
			types:   []types.Type{image},
			written: []string{"image.Point"},
			imports: map[string]string{"image": "image"},
		},
		{
			name:    "a standard package keeps its name, another of that name is numbered",
			types:   []types.Type{myJSON, stdJSON},
			written: []string{"json2.Doc", "json.Number"},
			imports: map[string]string{"example.com/x/json": "json2", "encoding/json": "json"},
		},
		{
			name:    "the first of two packages of one name keeps it",
			types:   []types.Type{types.NewMap(v1a, v1b)},
			written: []string{"map[v1.Level]v1_2.Level"},
			imports: map[string]string{"example.com/a/v1": "v1", "example.com/b/v1": "v1_2"},
		},
		{
			name:    "the order of mention decides",
			types:   []types.Type{v1b, v1a},
			written: []string{"v1.Level", "v1_2.Level"},
			imports: map[string]string{"example.com/b/v1": "v1", "example.com/a/v1": "v1_2"},
		},
		{
			name:    "clear of the target's declarations and of the standard packages",
			types:   []types.Type{geo, strs, geoDecl},
			written: []string{"geo2.Point", "strings2.Builder", "geo"},
			imports: map[string]string{"example.com/geo": "geo2", "example.com/mod/strings": "strings2"},
		},
		{
			name:    "nil is written empty",
			types:   []types.Type{nil, rec},
			written: []string{"", "Rec"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := NewTypeNames(target, tt.types...)
			var written []string
			for _, typ := range tt.types {
				written = append(written, n.Type(typ))
			}
			if !slices.Equal(written, tt.written) {
				t.Errorf("written %q, want %q", written, tt.written)
			}
			if got := n.Imports(); !maps.Equal(got, tt.imports) || (got == nil) != (tt.imports == nil) {
				t.Errorf("imports %v, want %v", got, tt.imports)
			}
		})
	}
}

// TestTypeNamesUnchosen checks that a package no type given to
// NewTypeNames mentions, and every package for a nil TypeNames, is
// written by its own name, and that neither adds an import.
func TestTypeNamesUnchosen(t *testing.T) {
	target := types.NewPackage("example.com/u", "u")
	other := types.NewNamed(types.NewTypeName(token.NoPos, types.NewPackage("example.com/x/json", "json"), "Doc", nil), types.Typ[types.Int], nil)
	own := types.NewNamed(types.NewTypeName(token.NoPos, target, "Rec", nil), types.Typ[types.Int], nil)
	tests := []struct {
		name  string
		names *TypeNames
		want  []string // other, own
	}{
		{"not mentioned", NewTypeNames(target), []string{"json.Doc", "Rec"}},
		{"nil", nil, []string{"json.Doc", "u.Rec"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []string{tt.names.Type(other), tt.names.Type(own)}
			if !slices.Equal(got, tt.want) {
				t.Errorf("written %q, want %q", got, tt.want)
			}
			if imports := tt.names.Imports(); imports != nil {
				t.Errorf("imports %v, want none", imports)
			}
		})
	}
}
