#!/usr/bin/env bash
# Install a headless browser for the browser page's tests (tests/api/test_browser.py) from the distribution's
# packages, if missing: Debian's chromium and its matching chromium-driver (WebDriver). The tests start it
# with a fresh profile and no network features; they skip, saying why, when no browser is installed.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    echo "installing chromium and chromium-driver from the distribution's packages" >&2
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver >&2
fi
chromium --version >&2
