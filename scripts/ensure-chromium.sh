#!/usr/bin/env bash
# Debian's Chromium for the browser tests (Playwright drives it; no browser download).
# Idempotent: does nothing when /usr/bin/chromium is there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q chromium
