#!/usr/bin/env bash
# Headless Chromium for the dashboard's end-to-end test (tests/test_browser.py).
# Idempotent: returns at once when /usr/bin/chromium is already there. Debian/Ubuntu, run as root
# (or with sudo available). Browsers are never downloaded by Playwright itself (no `playwright install`):
# the test drives this system Chromium through Playwright's `executable_path`.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install_browser.sh: need root (or sudo) to apt-get install chromium; the browser test will be skipped" >&2
    exit 0
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install_browser.sh: no apt-get on this system; install Chromium at /usr/bin/chromium by hand" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null
/usr/bin/chromium --version
