#!/usr/bin/env bash
# Installs what gocolic needs that Go itself does not bring: the Z3
# development files (libz3-dev), through apt-get when they are missing.
set -euo pipefail
if [ -f /usr/include/z3.h ] && ldconfig -p 2>/dev/null | grep -q libz3; then
	exit 0
fi
if ! command -v apt-get >/dev/null; then
	echo "gocolic needs Z3's C library and headers (libz3-dev); install them with your package manager" >&2
	exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libz3-dev >/dev/null
