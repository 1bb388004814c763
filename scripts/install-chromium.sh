#!/usr/bin/env bash
# Browser tests drive Debian's Chromium through Playwright (Playwright cannot download
# its own browser here). Installs it with apt-get when it is missing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: /usr/bin/chromium is missing and apt-get is not available; install Chromium for the browser tests" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
