#!/usr/bin/env bash
# Browser tests and scripts/screenshots.py drive Debian's Chromium through Playwright
# (Playwright cannot download its own browser here): its headless shell, the build Playwright
# itself runs headless tests on, which costs about a fifth less CPU than the full browser run
# headless (README, Tests). Installs it with apt-get when it is missing.
set -euo pipefail
if [ -x /usr/bin/chromium-headless-shell ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: /usr/bin/chromium-headless-shell is missing and apt-get is not available; install Debian's chromium-headless-shell for the browser tests" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium-headless-shell fonts-dejavu-core >/dev/null
