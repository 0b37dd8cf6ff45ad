#!/usr/bin/env bash
# The deadcode step: no product function may be unreachable from app/ (the waymark
# binary). deadcode (golang.org/x/tools, pinned here, from the Go module proxy) is run
# for the two builds of the window, production and dev, because a function may be
# reached by only one of them (the dev build's IPC guard); what neither reaches is dead.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
dc="go run golang.org/x/tools/cmd/deadcode@v0.52.0"
prod=$(mktemp) dev=$(mktemp)
trap 'rm -f "$prod" "$dev"' EXIT
# The two analyses side by side (two cores): each loads and type-checks the
# whole program on one core for most of its time. The tool is built first, once.
$dc -h >/dev/null 2>&1 || true
$dc -tags desktop,production,webkit2_41,sqlite_fts5 ./app | sort >"$prod" &
p1=$!
$dc -tags desktop,dev,webkit2_41,sqlite_fts5 ./app | sort >"$dev" &
p2=$!
wait "$p1" || { echo "deadcode: the production build's analysis failed"; exit 1; }
wait "$p2" || { echo "deadcode: the dev build's analysis failed"; exit 1; }
dead=$(comm -12 "$prod" "$dev")
if [ -n "$dead" ]; then
  echo "$dead"
  echo "deadcode: $(wc -l <<<"$dead") product functions are reached by no build of app/ (above); delete them or use them"
  exit 1
fi
echo "deadcode: every product function is reachable from app/ (production and dev builds)"
