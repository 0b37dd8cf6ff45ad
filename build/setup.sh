#!/usr/bin/env bash
# Installs what Waymark needs and is missing, on Debian 12 (as root, or with sudo).
# Idempotent and quick when nothing is missing: Go and Node are only checked (they come
# with the machine), Debian packages are checked with dpkg-query first and apt-get runs only
# for the absent ones, and npm installs only when frontend/node_modules is missing or
# older than frontend/package-lock.json or package.json. Nothing here downloads a
# toolchain or a browser build of its own: Chromium is Debian's.
set -euo pipefail
cd "$(dirname "$0")/.."

# --- Go (>= 1.26) -------------------------------------------------------------------
need_go=1.26
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
  export PATH="/usr/local/go/bin:$PATH"
fi
if ! command -v go >/dev/null 2>&1; then
  echo "setup: Go $need_go or newer is required and was not found (looked in PATH and /usr/local/go/bin)." >&2
  echo "setup: install Go from your usual source, put it on PATH, and run this again." >&2
  exit 1
fi
have_go=$(go env GOVERSION | sed 's/^go//')
if [ "$(printf '%s\n%s\n' "$need_go" "$have_go" | sort -V | head -1)" != "$need_go" ]; then
  echo "setup: Go $need_go or newer is required, found $have_go ($(command -v go))." >&2
  exit 1
fi

# --- Node.js (>= 20.19, what Vite 7 needs) and npm ------------------------------------
need_node=20.19
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "setup: Node.js $need_node or newer with npm is required to build the frontend, and was not found." >&2
  echo "setup: (Debian 12's own nodejs package is 18, too old for Vite 7.)" >&2
  exit 1
fi
have_node=$(node --version | sed 's/^v//')
if [ "$(printf '%s\n%s\n' "$need_node" "$have_node" | sort -V | head -1)" != "$need_node" ]; then
  echo "setup: Node.js $need_node or newer is required (Vite 7), found $have_node." >&2
  exit 1
fi

# --- Debian packages --------------------------------------------------------------------
packages=(
  gcc pkg-config                      # cgo: SQLite (mattn/go-sqlite3) and WebKitGTK
  libgtk-3-dev libwebkit2gtk-4.1-dev  # the Wails window (build tag webkit2_41)
  chromium                            # the browser Waymark drives, and browser tests
  xvfb xauth                          # a display for the window on machines without one
  x11-utils xdotool                   # find the window (xwininfo, xdotool search)
  metacity                            # a desktop's window manager: the keyboard test runs under one too
  imagemagick                         # screenshots (import) and their check (identify)
  python3.11-doc debian-reference-en  # real documentation sites (HTML) the browsing tests read on loopback:
  bash-doc maint-guide                # the Python docs, Debian Reference, the one-page Bash manual, maint-guide
  postgresql-doc-15 sqlite3-doc       # ...PostgreSQL's and SQLite's manuals (tables, menus before the text)
  gnu-standards                       # ...and the GNU Coding Standards (searching a long page's text)
  dbus-daemon gnome-keyring           # a Secret Service for the model key test (dbus-run-session)
  dbus at-spi2-core python3-pyatspi   # the screen-reader tier: session bus, AT-SPI bus, Atspi for Python
  orca                                # ...and the screen reader itself (its debug log: what it speaks)
  fonts-paratype                      # PT Serif / PT Sans: the manuscript's and window's type (Cyrillic and Latin)
  hunspell-ru hunspell-en-us          # spelling dictionaries (WebKitGTK's underlines, the spelling list)
  libhunspell-dev                     # cgo: backend/spelling links libhunspell
  sqlite3                             # the screenshot tier sets the dark theme in its throw-away profile
  dpkg-dev desktop-file-utils appstream lintian libgtk-3-bin  # the package: dpkg-shlibdeps, and the package tier's checks (gtk-launch)
  librsvg2-bin                        # build/linux/icons.sh renders the icon's PNG sizes from its SVG
  pandoc                              # DOCX and EPUB export (the package recommends it)
  hyphen-ru hyphen-en-us hyphen-fr    # the PDF's hyphenation patterns (the package carries their files)
  epubcheck libreoffice-writer-nogui poppler-utils  # export tests: EPUB validator, DOCX opened by LibreOffice, PDF pages and fonts
)
# One dpkg-query for all of them (it names the installed ones; unknown ones go to stderr).
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null |
  awk '$2 == "installed" {print $1}' || true)
missing=()
for p in "${packages[@]}"; do
  grep -qx "$p" <<<"$installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "setup: these Debian packages are missing and this is not root (and there is no sudo): ${missing[*]}" >&2
      exit 1
    fi
  fi
  echo "setup: installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- frontend packages (exactly the versions in the lock file) -------------------------
# `npm install`, not `npm ci`: npm 11 writes into the lock only this platform's optional
# packages (rollup's and esbuild's native builds), and its own `npm ci` then rejects that
# lock as "Missing: @rollup/rollup-android-arm-eabi@ from lock file". With a lock that
# matches package.json, `npm install` installs the locked versions and leaves it as is.
if [ ! -f frontend/node_modules/.package-lock.json ] ||
  [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ] ||
  [ frontend/package.json -nt frontend/node_modules/.package-lock.json ]; then
  echo "setup: installing frontend packages from frontend/package-lock.json (npm install)"
  (cd frontend && npm install --no-audit --no-fund --loglevel=error)
  if [ ! -x frontend/node_modules/.bin/vite ]; then
    echo "setup: npm install did not install vite (frontend/node_modules/.bin/vite)" >&2
    exit 1
  fi
fi

# The MCP Inspector CLI (npm registry, exact version in build/mcp-inspector), which the
# test suite uses to drive `waymark mcp` as a real MCP client. Same rule as above.
if [ ! -f build/mcp-inspector/node_modules/.package-lock.json ] ||
  [ build/mcp-inspector/package-lock.json -nt build/mcp-inspector/node_modules/.package-lock.json ]; then
  echo "setup: installing the MCP Inspector from build/mcp-inspector/package-lock.json (npm install)"
  (cd build/mcp-inspector && npm install --no-audit --no-fund --loglevel=error 2>&1 | grep -v 'EBADENGINE\|nodedir' || true)
  if [ ! -x build/mcp-inspector/node_modules/.bin/mcp-inspector ]; then
    echo "setup: npm install did not install the MCP Inspector" >&2
    exit 1
  fi
fi

# Microsoft's Playwright MCP server (npm registry, exact version in build/playwright-mcp),
# the reference `waymark-bench browser --vs-playwright` measures the browser against. It
# runs Debian's Chromium (--executable-path): its own browser download is switched off.
if [ ! -f build/playwright-mcp/node_modules/.package-lock.json ] ||
  [ build/playwright-mcp/package-lock.json -nt build/playwright-mcp/node_modules/.package-lock.json ]; then
  echo "setup: installing Playwright MCP from build/playwright-mcp/package-lock.json (npm install, no browser download)"
  (cd build/playwright-mcp && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error 2>&1 | grep -v 'EBADENGINE\|nodedir' || true)
  if [ ! -f build/playwright-mcp/node_modules/@playwright/mcp/cli.js ]; then
    echo "setup: npm install did not install Playwright MCP" >&2
    exit 1
  fi
fi

# The consent-banner rules of @duckduckgo/autoconsent (npm registry, exact version in
# build/autoconsent), which the browser's banner hook runs. Their two run-time files are
# copied beside backend/browser/banners.go, where go:embed puts them into the binary.
ac_dir=backend/browser/autoconsent
if [ ! -f build/autoconsent/node_modules/.package-lock.json ] ||
  [ build/autoconsent/package-lock.json -nt build/autoconsent/node_modules/.package-lock.json ]; then
  echo "setup: installing @duckduckgo/autoconsent from build/autoconsent/package-lock.json (npm install)"
  (cd build/autoconsent && npm install --no-audit --no-fund --loglevel=error 2>&1 | grep -v 'EBADENGINE\|nodedir' || true)
fi
for f in dist/autoconsent.playwright.js rules/compact-rules.json; do
  src=build/autoconsent/node_modules/@duckduckgo/autoconsent/$f
  if [ ! -f "$src" ]; then
    echo "setup: $src is missing after npm install" >&2
    exit 1
  fi
  if ! cmp -s "$src" "$ac_dir/$(basename "$f")"; then
    cp "$src" "$ac_dir/$(basename "$f")"
  fi
done
