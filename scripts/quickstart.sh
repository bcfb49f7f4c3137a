#!/usr/bin/env bash
# The first command of the README: sets up, builds gocolic, and runs it on a
# copy of a bundled example (examples/keywords), then shows what the
# generated tests do under plain go test. Nothing in the repository is
# written: the example is copied into a temporary module.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p bin
go build -o bin/gocolic ./cmd/gocolic
work=$(mktemp -d "${TMPDIR:-/tmp}/gocolic-quickstart.XXXXXX")
cp -r examples/keywords "$work/"
printf 'module example.com/quickstart\n\ngo 1.24\n' > "$work/go.mod"
echo "== gocolic test ./keywords Setting   (in $work)"
(cd "$work" && "$OLDPWD/bin/gocolic" test -budget 15s -json report.json -coverprofile cover.out ./keywords Setting)
echo
echo "== the generated file: $work/keywords/setting_gocolic_test.go"
sed -n '1,40p' "$work/keywords/setting_gocolic_test.go"
echo "   ..."
echo
echo "== go test ./keywords   (regression cases pass; each reproducer fails until its bug is fixed)"
(cd "$work" && go test ./keywords 2>&1 | grep -E '^(---|    ---|ok|FAIL)|panicked' | head -20) || true
echo
echo "Report: $work/report.json   Coverage: go tool cover -html=$work/cover.out"
