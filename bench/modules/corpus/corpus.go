// Package corpus lists the modules of the module proxy that the modbench
// runner tests: what Go developers import to parse, encode, compute and
// print, pinned at the versions in go.mod, each with the reason it is
// here.
package corpus

// Module is one module of the corpus.
type Module struct {
	Path    string // module path
	Version string // pinned version; go.mod requires the same
	Kind    string // what kind of code: parsing, encoding, text, numeric, data structure, CLI
	Why     string // why it is in the corpus: what it exercises
}

// Modules is the corpus, in the order the runner takes it.
var Modules = []Module{
	{"github.com/Masterminds/semver/v3", "v3.5.0", "parsing", "semantic versions and constraint expressions (Helm's); regexp-free hand-written parser, string comparisons"},
	{"github.com/hashicorp/go-version", "v1.9.0", "parsing", "version strings and constraints (Terraform's); regexp-based parser, numeric segments"},
	{"github.com/google/shlex", "v0.0.0-20191202100458-e7afc7fbc510", "text", "POSIX shell word splitting, a rune state machine; go 1.13 module"},
	{"github.com/tidwall/gjson", "v1.20.2", "parsing", "JSON path queries over raw strings, byte-by-byte scanning (the library that crashed gocolic in issue 15)"},
	{"github.com/tidwall/sjson", "v1.2.9", "encoding", "JSON set and delete by path: string surgery on top of gjson"},
	{"github.com/tidwall/pretty", "v1.3.0", "encoding", "JSON formatting, compaction and colouring over []byte"},
	{"github.com/valyala/fastjson", "v1.6.10", "parsing", "a fast JSON parser and validator with its own number scanning"},
	{"github.com/BurntSushi/toml", "v1.6.0", "parsing", "TOML decoding and encoding: lexer, parser, reflection"},
	{"github.com/pelletier/go-toml/v2", "v2.4.3", "parsing", "TOML with an unsafe-based scanner and date/time parsing"},
	{"gopkg.in/yaml.v3", "v3.0.1", "parsing", "YAML (a port of libyaml): reader buffers filled by copy, a large state machine"},
	{"github.com/joho/godotenv", "v1.5.1", "parsing", ".env files: line parsing, quoting and variable expansion"},
	{"github.com/gobwas/glob", "v1.1.0", "text", "glob pattern compiler and matchers, many small packages"},
	{"github.com/iancoleman/strcase", "v0.3.0", "text", "camel, snake and kebab case conversion, byte loops with case tests"},
	{"github.com/agnivade/levenshtein", "v1.2.2", "text", "edit distance: rune slices and a dynamic-programming loop"},
	{"github.com/lithammer/fuzzysearch", "v1.1.8", "text", "fuzzy matching with Unicode normalisation (golang.org/x/text transformers)"},
	{"github.com/rivo/uniseg", "v0.4.7", "text", "Unicode grapheme, word and line segmentation: table lookups and state machines"},
	{"github.com/mattn/go-runewidth", "v0.0.31", "text", "East Asian display width of runes and strings: range tables"},
	{"github.com/dustin/go-humanize", "v1.1.0", "numeric", "sizes, commas, ordinals, SI prefixes: float formatting and parsing"},
	{"github.com/pmezard/go-difflib", "v1.0.0", "text", "sequence matching and unified diffs (testify's); go 1.x module without go.mod"},
	{"github.com/gosimple/slug", "v1.15.0", "text", "URL slugs: transliteration tables and substitutions"},
	{"github.com/google/uuid", "v1.6.0", "encoding", "UUID parsing and formatting: hex decoding with fixed positions"},
	{"github.com/rs/xid", "v1.6.0", "encoding", "globally unique IDs in base32: decoding tables and checks"},
	{"github.com/oklog/ulid/v2", "v2.1.2", "encoding", "ULIDs: Crockford base32 decoding, overflow checks, monotonic entropy"},
	{"github.com/segmentio/ksuid", "v1.0.4", "encoding", "K-sortable IDs: base62 conversion with 32-bit arithmetic"},
	{"github.com/golang/snappy", "v1.0.0", "encoding", "Snappy compression: varints, copies and literals (assembly on amd64, pure Go elsewhere)"},
	{"github.com/cespare/xxhash/v2", "v2.3.0", "encoding", "xxHash64: unsigned 64-bit arithmetic (assembly on amd64, purego tag)"},
	{"github.com/fxamacker/cbor/v2", "v2.10.0", "encoding", "CBOR (RFC 8949) encoder and decoder with validation of well-formedness"},
	{"github.com/shopspring/decimal", "v1.6.0", "numeric", "arbitrary-precision decimals over math/big: parsing, rounding, arithmetic"},
	{"github.com/cockroachdb/apd/v3", "v3.2.3", "numeric", "arbitrary-precision decimals with contexts and conditions (CockroachDB's)"},
	{"github.com/google/btree", "v1.1.3", "data structure", "in-memory B-tree, generic and interface-based variants"},
	{"github.com/bits-and-blooms/bitset", "v1.29.0", "data structure", "bit sets: word arithmetic, popcount, shifts, serialisation"},
	{"github.com/emirpasic/gods", "v1.18.1", "data structure", "lists, sets, maps, trees, heaps, queues over interface{} values: many packages"},
	{"github.com/fatih/color", "v1.19.0", "CLI", "terminal colours: attribute lists, environment and terminal checks"},
	{"github.com/spf13/pflag", "v1.1.0", "CLI", "POSIX/GNU command-line flags (cobra's): argument parsing and value types"},
	{"github.com/spf13/cast", "v1.10.0", "CLI", "type conversions of arbitrary values (viper's): type switches and strconv"},
	{"github.com/go-viper/mapstructure/v2", "v2.5.0", "CLI", "decoding maps into structs (viper's): reflection and hooks"},
	{"github.com/robfig/cron/v3", "v3.0.1", "parsing", "cron specifications: field parsing, ranges and bit masks"},
}
