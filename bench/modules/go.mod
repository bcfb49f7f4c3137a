module github.com/gocolic/gocolic/bench/modules

go 1.26.0

require github.com/gocolic/gocolic v0.0.0 // the runner uses gocolic's packages (load, instrument, build, guard, report) and bench/internal/harness, below

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/Masterminds/semver/v3 v3.5.0
	github.com/agnivade/levenshtein v1.2.2
	github.com/bits-and-blooms/bitset v1.29.0
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/cockroachdb/apd/v3 v3.2.3
	github.com/dustin/go-humanize v1.1.0
	github.com/emirpasic/gods v1.18.1
	github.com/fatih/color v1.19.0
	github.com/fxamacker/cbor/v2 v2.10.0
	github.com/go-viper/mapstructure/v2 v2.5.0
	github.com/gobwas/glob v1.1.0
	github.com/golang/snappy v1.0.0
	github.com/google/btree v1.1.3
	github.com/google/shlex v0.0.0-20191202100458-e7afc7fbc510
	github.com/google/uuid v1.6.0
	github.com/gosimple/slug v1.15.0
	github.com/hashicorp/go-version v1.9.0
	github.com/iancoleman/strcase v0.3.0
	github.com/joho/godotenv v1.5.1
	github.com/lithammer/fuzzysearch v1.1.8
	github.com/mattn/go-runewidth v0.0.31
	github.com/oklog/ulid/v2 v2.1.2
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/pmezard/go-difflib v1.0.0
	github.com/rivo/uniseg v0.4.7
	github.com/robfig/cron/v3 v3.0.1
	github.com/rs/xid v1.6.0
	github.com/segmentio/ksuid v1.0.4
	github.com/shopspring/decimal v1.6.0
	github.com/spf13/cast v1.10.0
	github.com/spf13/pflag v1.1.0
	github.com/tidwall/gjson v1.20.2
	github.com/tidwall/pretty v1.3.0
	github.com/tidwall/sjson v1.2.9
	github.com/valyala/fastjson v1.6.10
	golang.org/x/mod v0.42.0
	golang.org/x/tools v0.52.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/clipperhouse/uax29/v2 v2.2.0 // indirect
	github.com/gosimple/unidecode v1.0.1 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.9.0 // indirect
)

replace github.com/gocolic/gocolic => ../..
