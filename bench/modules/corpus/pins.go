//go:build modcorpus

// This file is never built: its imports keep the corpus's modules in
// go.mod and their hashes in go.sum, where go mod tidy would otherwise
// drop them, since nothing else here imports them. The runner tests
// copies of the modules, not these imports.

package corpus

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/Masterminds/semver/v3"
	_ "github.com/agnivade/levenshtein"
	_ "github.com/bits-and-blooms/bitset"
	_ "github.com/cespare/xxhash/v2"
	_ "github.com/cockroachdb/apd/v3"
	_ "github.com/dustin/go-humanize"
	_ "github.com/emirpasic/gods/lists/arraylist"
	_ "github.com/fatih/color"
	_ "github.com/fxamacker/cbor/v2"
	_ "github.com/go-viper/mapstructure/v2"
	_ "github.com/gobwas/glob"
	_ "github.com/golang/snappy"
	_ "github.com/google/btree"
	_ "github.com/google/shlex"
	_ "github.com/google/uuid"
	_ "github.com/gosimple/slug"
	_ "github.com/hashicorp/go-version"
	_ "github.com/iancoleman/strcase"
	_ "github.com/joho/godotenv"
	_ "github.com/lithammer/fuzzysearch/fuzzy"
	_ "github.com/mattn/go-runewidth"
	_ "github.com/oklog/ulid/v2"
	_ "github.com/pelletier/go-toml/v2"
	_ "github.com/pmezard/go-difflib/difflib"
	_ "github.com/rivo/uniseg"
	_ "github.com/robfig/cron/v3"
	_ "github.com/rs/xid"
	_ "github.com/segmentio/ksuid"
	_ "github.com/shopspring/decimal"
	_ "github.com/spf13/cast"
	_ "github.com/spf13/pflag"
	_ "github.com/tidwall/gjson"
	_ "github.com/tidwall/pretty"
	_ "github.com/tidwall/sjson"
	_ "github.com/valyala/fastjson"
	_ "gopkg.in/yaml.v3"
)
