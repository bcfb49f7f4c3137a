#!/usr/bin/env bash
# gocolic fuzzes itself: each native fuzz target of gocolic's own packages
# runs for a fixed time (under two minutes in all). A crash or a failed
# check fails the script, and go test leaves the failing input under that
# package's testdata/fuzz, where plain go test replays it from then on.
# Usage: scripts/selffuzz.sh [seconds per target, default as listed]
set -euo pipefail
cd "$(dirname "$0")/.."
# package target seconds
targets='
./sym FuzzBuilderMatchesRaw 15
./sym FuzzDecode 10
./rt FuzzParseRequest 8
./rt FuzzParseResponse 8
./solver/stack FuzzStack 25
'
while read -r pkg target secs; do
	[ -n "$pkg" ] || continue
	echo "== $pkg $target (${1:-$secs}s)"
	go test "$pkg" -run '^$' -fuzz "^$target\$" -fuzztime "${1:-$secs}s" -parallel 2 || {
		echo "selffuzz: $pkg $target failed" >&2
		exit 1
	}
done <<<"$targets"
