#!/bin/sh
# The console's browser test drives Debian's chromium through playwright-core (which downloads no
# browser). Installs it when missing; needs root (or sudo) and the Debian package mirror.
set -eu
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  echo "chromium present: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium
"$CHROMIUM" --version
