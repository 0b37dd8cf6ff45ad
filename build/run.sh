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
# shellcheck source=build/lib.sh
source build/lib.sh
work=$(mktemp -d)
app=""
trap 'stop_app "$app"; rm -rf "$work"' EXIT
start_xvfb 1280x860 "$work/xvfb.log" || {
  echo "run: $LIB_ERROR" >&2
  exit 1
}

bin/waymark "$@" >"$work/app.log" 2>&1 &
app=$!
wait_window "$app" || {
  echo "run: $LIB_ERROR:" >&2
  cat "$work/app.log" >&2
  exit 1
}
# The window exists at once; its page needs a moment to load and call the backend:
# wait for a drawn picture that two screenshots in a row agree on.
mkdir -p bin/screenshots
shot=bin/screenshots/run.png
wait_stable_screenshot "$WID" "$work/shot.png" 40 0.5 || true
cp "$work/shot.png" "$shot"
echo "run: the window \"$(xdotool getwindowname "$WID")\" opened; screenshot: $shot"
stop_app "$app"
wait "$app" 2>/dev/null || true
app=""

if [ $# -eq 0 ]; then
  sample="${XDG_DATA_HOME:-$HOME/.local/share}/waymark/sample/manuscript.md"
  echo "run: the same tools from the command line (bin/waymark-cli help lists them):"
  echo "\$ bin/waymark-cli call Find --doc $sample '{\"query\": \"Zvezdochkin\"}'"
  bin/waymark-cli call Find --doc "$sample" '{"query": "Zvezdochkin"}'
fi
