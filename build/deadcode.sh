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
$dc -tags desktop,production,webkit2_41,sqlite_fts5 ./app | sort >"$prod"
$dc -tags desktop,dev,webkit2_41,sqlite_fts5 ./app | sort >"$dev"
dead=$(comm -12 "$prod" "$dev")
if [ -n "$dead" ]; then
  echo "$dead"
  echo "deadcode: $(wc -l <<<"$dead") product functions are reached by no build of app/ (above); delete them or use them"
  exit 1
fi
echo "deadcode: every product function is reachable from app/ (production and dev builds)"
