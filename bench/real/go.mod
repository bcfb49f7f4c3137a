module github.com/gocolic/gocolic/bench/real

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/Masterminds/semver/v3 v3.5.0
	github.com/dustin/go-humanize v1.1.0
	github.com/gocolic/gocolic v0.0.0 // the shared benchmark harness (bench/internal/harness), below
	github.com/golang/snappy v1.0.0
	github.com/google/btree v1.1.3
	github.com/google/uuid v1.6.0
	github.com/shopspring/decimal v1.6.0
	github.com/tidwall/gjson v1.20.0
	golang.org/x/net v0.62.0
)

require (
	github.com/gobwas/glob v1.1.0
	github.com/google/shlex v0.0.0-20191202100458-e7afc7fbc510
	github.com/hashicorp/go-version v1.9.0
	github.com/robfig/cron/v3 v3.0.1
	github.com/valyala/fastjson v1.6.10
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/gocolic/gocolic => ../..
