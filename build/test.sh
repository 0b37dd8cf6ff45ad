#!/usr/bin/env bash
# README command 2: install what is missing and run every test tier:
#   1. gofmt, go vet, and the Go suite (unit, integration, SQLite, corpus tier, CLI, MCP);
#   2. the frontend build;
#   3. the desktop tier: the production binary opens its real window under Xvfb and a
#      screenshot of it is checked and saved (bin/screenshots/window.png; the README's
#      picture, docs/window.png, is a copy of one).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash build/setup.sh
export PATH="/usr/local/go/bin:$PATH"
tags=sqlite_fts5

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './frontend/node_modules/*'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi

echo "== go vet"
go vet -tags "$tags" ./...

echo "== frontend build"
(cd frontend && npm run build --silent >/dev/null)

echo "== go test"
go test -tags "$tags" -count=1 ./... 2>&1 | tee /tmp/waymark-go-test.log
grep -q '^FAIL' /tmp/waymark-go-test.log && exit 1

echo "== desktop tier (real window under Xvfb)"
go build -tags desktop,production,webkit2_41,$tags -o bin/waymark ./app
work=$(mktemp -d)
display=":$((100 + RANDOM % 100))"
Xvfb "$display" -screen 0 1280x860x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb=$!
app=""
cleanup() { [ -n "$app" ] && kill "$app" 2>/dev/null; kill "$xvfb" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
sleep 1
DISPLAY="$display" XDG_DATA_HOME="$work/data" WAYMARK_DB="$work/w.db" bin/waymark >"$work/app.log" 2>&1 &
app=$!
found=""
for _ in $(seq 1 120); do
  if DISPLAY="$display" xdotool search --name '^Waymark' >/dev/null 2>&1; then found=1; break; fi
  if ! kill -0 "$app" 2>/dev/null; then echo "the app exited:"; cat "$work/app.log"; exit 1; fi
  sleep 0.5
done
[ -n "$found" ] || { echo "no Waymark window appeared in 60 s"; cat "$work/app.log"; exit 1; }
# The window is up; wait until the page has rendered the outline (more than a few colours).
mkdir -p bin/screenshots
colours=0
for _ in $(seq 1 40); do
  DISPLAY="$display" import -window root "$work/window.png"
  colours=$(identify -format '%k' "$work/window.png")
  [ "$colours" -gt 50 ] && break
  sleep 0.5
done
[ "$colours" -gt 50 ] || { echo "the window stayed blank ($colours colours)"; cat "$work/app.log"; exit 1; }
cp "$work/window.png" bin/screenshots/window.png
echo "desktop tier: window rendered ($colours colours), screenshot bin/screenshots/window.png"

passed=$(grep -c '^ok ' /tmp/waymark-go-test.log || true)
failed=$(grep -c '^FAIL' /tmp/waymark-go-test.log || true)
echo "== all tiers passed in $(( $(date +%s) - start )) s"
echo "$((passed + 1)) passed, $failed failed"
