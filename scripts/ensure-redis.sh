#!/usr/bin/env bash
# Debian's redis-server for the tests of several nodes and bot workers: each starts one
# of its own on a free port (the machine's Redis is never touched).
# Idempotent: does nothing when redis-server is on the PATH.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q redis-server
