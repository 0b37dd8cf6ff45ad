#!/usr/bin/env bash
# README command 1: install what is missing, build what changed, and open Waymark's
# window on the sample manuscript (bin/waymark with no arguments; extra arguments go to
# waymark, e.g. a FILE.md to open).
#
# With no display ($DISPLAY and $WAYLAND_DISPLAY unset, as on a server or in CI) there
# is nowhere to show a window, so this says so, opens the same window on a private Xvfb
# display, waits until it has drawn the manuscript, saves a screenshot of it
# (bin/screenshots/run.png), closes it, and shows the same tools from the command line.
set -euo pipefail
cd "$(dirname "$0")/.."
bash build/build.sh

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec bin/waymark "$@"
fi

echo "run: no display (DISPLAY is not set): opening the window on a private Xvfb display instead"
work=$(mktemp -d)
xvfb="" app=""
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

n=99
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1280x860x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb=$!
export DISPLAY=":$n"
for _ in $(seq 1 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done

bin/waymark "$@" >"$work/app.log" 2>&1 &
app=$!
wid=""
for _ in $(seq 1 120); do
  wid=$(xdotool search --onlyvisible --name '^Waymark' 2>/dev/null | head -1 || true)
  [ -n "$wid" ] && break
  if ! kill -0 "$app" 2>/dev/null; then
    echo "run: waymark exited before opening its window:" >&2
    cat "$work/app.log" >&2
    exit 1
  fi
  sleep 0.5
done
if [ -z "$wid" ]; then
  echo "run: no Waymark window appeared within 60 s" >&2
  cat "$work/app.log" >&2
  exit 1
fi
# The window exists at once; its page needs a moment to load and call the backend.
mkdir -p bin/screenshots
shot=bin/screenshots/run.png
# Wait for a colourful picture (text drawn) that two screenshots in a row agree on.
colours=0 prev="" cur=""
for _ in $(seq 1 40); do
  import -window "$wid" "$work/shot.png" 2>/dev/null || true
  colours=$(identify -format '%k' "$work/shot.png" 2>/dev/null || echo 0)
  cur=$(identify -format '%#' "$work/shot.png" 2>/dev/null || true)
  [ "$colours" -gt 50 ] && [ "$cur" = "$prev" ] && break
  prev=$cur
  sleep 0.5
done
cp "$work/shot.png" "$shot"
echo "run: the window \"$(xdotool getwindowname "$wid")\" opened; screenshot: $shot"
kill "$app" 2>/dev/null || true
wait "$app" 2>/dev/null || true
app=""

if [ $# -eq 0 ]; then
  sample="${XDG_DATA_HOME:-$HOME/.local/share}/waymark/sample/manuscript.md"
  echo "run: the same tools from the command line (bin/waymark-cli help lists them):"
  echo "\$ bin/waymark-cli call Find --doc $sample '{\"query\": \"Zvezdochkin\"}'"
  bin/waymark-cli call Find --doc "$sample" '{"query": "Zvezdochkin"}'
fi
