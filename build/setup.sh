#!/usr/bin/env bash
# Installs what Waymark needs and is missing, on Debian 12 as root. Idempotent and
# quick when nothing is missing: packages are checked with dpkg first, apt runs only
# for what is absent, npm ci only when the lock file is newer than node_modules.
set -euo pipefail
cd "$(dirname "$0")/.."

need_go="1.26"
if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; else
    echo "setup: Go $need_go or newer is required (expected at /usr/local/go); install it and run again" >&2; exit 1
  fi
fi
have_go=$(go env GOVERSION | sed 's/^go//')
if [ "$(printf '%s\n%s\n' "$need_go" "$have_go" | sort -V | head -1)" != "$need_go" ]; then
  echo "setup: Go $need_go or newer is required, found $have_go" >&2; exit 1
fi

packages=(
  gcc pkg-config                       # cgo: SQLite, WebKitGTK
  libgtk-3-dev libwebkit2gtk-4.1-dev   # the Wails window (build tag webkit2_41)
  chromium                             # the browser Waymark drives (and UI tests)
  xvfb xauth x11-utils xdotool imagemagick dbus-x11  # headless window tier: display, window lookup, screenshots
  nodejs npm                           # frontend build (only if node is absent)
)
missing=()
for p in "${packages[@]}"; do
  case "$p" in
    nodejs|npm) command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && continue ;;
  esac
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# `npm install` from the lock file rather than `npm ci`: npm 11 records only this
# platform's optional packages (e.g. rollup's native build) in the lock, and `npm ci`
# then refuses the lock as "missing" the others; `npm install` installs exactly the
# locked versions and leaves the lock unchanged.
if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  echo "setup: installing frontend packages from the lock file"
  (cd frontend && npm install --no-audit --no-fund --loglevel=error 2>&1 | grep -v 'install-scripts\|nodedir' || true)
  [ -x frontend/node_modules/.bin/vite ] || { echo "setup: npm install failed (no vite)"; exit 1; }
fi
