#!/usr/bin/env bash
# Builds the frontend and the binaries, each only when its inputs changed:
#   bin/waymark      the desktop app (Wails window + CLI): tags desktop,production,webkit2_41,sqlite_fts5
#   bin/waymark-cli  the CLI only (no GTK at run time):   tag  sqlite_fts5
#   bin/waymark-dev  with --dev: a Wails dev build (tags desktop,dev,webkit2_41,sqlite_fts5:
#                    `desktop` too, or it has no window); run it as
#                    `devserver=localhost:34115 bin/waymark-dev` and a browser (or rod) at
#                    http://localhost:34115 reaches the same bound methods as the window
# With --frontend it builds only frontend/dist. The binaries are built with the package's
# flags (build/goflags.sh), so build/package.sh reuses this build's cache.
# The wails CLI is not needed (nor used): it expects package main at the repository
# root, and on Linux all it adds to `go build` is CGO_ENABLED=1 and the tags.
set -euo pipefail
cd "$(dirname "$0")/.."
dev=""
only_frontend=""
for a in "$@"; do
  case "$a" in
    --dev) dev=1 ;;
    --frontend) only_frontend=1 ;;
    *) echo "usage: bash build/build.sh [--dev | --frontend]" >&2; exit 2 ;;
  esac
done

bash build/setup.sh
export PATH="/usr/local/go/bin:$PATH"
# The package's flags (-trimpath -buildmode=pie, hardened cgo and link): build/package.sh
# then only links its stripped, versioned binary from this build's cache.
. build/goflags.sh

# Wails on Linux links GTK 3 and WebKitGTK through cgo's pkg-config; with the tag
# webkit2_41 it asks for webkit2gtk-4.1 (Debian 12 has no webkit2gtk-4.0 -dev package).
for pc in gtk+-3.0 webkit2gtk-4.1; do
  if ! pkg-config --exists "$pc"; then
    echo "build: pkg-config cannot find $pc (install libgtk-3-dev libwebkit2gtk-4.1-dev: bash build/setup.sh)" >&2
    exit 1
  fi
done

# newer_than OUT PATH... : true when OUT is missing or any file under PATH is newer.
newer_than() {
  local out=$1
  shift
  [ -e "$out" ] || return 0
  [ -n "$(find "$@" -newer "$out" -type f -print -quit 2>/dev/null)" ]
}

if newer_than frontend/dist/index.html frontend/src frontend/index.html frontend/vite.config.js \
  frontend/tsconfig.json frontend/package.json frontend/package-lock.json; then
  echo "build: frontend (vite build)"
  (cd frontend && npm run build --silent >/dev/null)
fi
[ -z "$only_frontend" ] || exit 0

# Go's build cache makes an unchanged build cheap, but linking the cgo binary still
# takes seconds, so skip it when no Go source, module file or embedded asset changed.
go_inputs=(go.mod go.sum app backend frontend/dist frontend/embed.go)
build_go() { # OUT TAGS
  local out=$1 tags=$2
  if newer_than "$out" "${go_inputs[@]}"; then
    echo "build: $out (go build -tags $tags)"
    go build "${go_flags[@]}" -tags "$tags" -ldflags "$go_ldflags" -o "$out.tmp" ./app
    mv "$out.tmp" "$out"
  fi
}
mkdir -p bin
build_go bin/waymark desktop,production,webkit2_41,sqlite_fts5
build_go bin/waymark-cli sqlite_fts5
if [ -n "$dev" ]; then
  build_go bin/waymark-dev desktop,dev,webkit2_41,sqlite_fts5
fi
echo "build: bin/waymark (window + CLI) and bin/waymark-cli (CLI only) are up to date${dev:+, and bin/waymark-dev}"
