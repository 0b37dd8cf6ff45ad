#!/usr/bin/env bash
# README command 1: install what is missing, build, and open Waymark's window on the
# sample manuscript with the built-in engine and the embedded SQLite database (no
# model server needed). Extra arguments go to waymark (e.g. a FILE.md to open).
# Without a display (a server, CI) the window runs under Xvfb for a few seconds and
# a screenshot of it is saved, so the command still shows that the app works.
set -euo pipefail
cd "$(dirname "$0")/.."
bash build/build.sh
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec bin/waymark "$@"
fi
echo "run: no display found; starting the window under Xvfb to show it works"
shot="bin/screenshots/run.png"
mkdir -p bin/screenshots
display=":$((90 + RANDOM % 100))"
Xvfb "$display" -screen 0 1280x860x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
export DISPLAY="$display"
bin/waymark "$@" >/tmp/waymark-run.log 2>&1 &
app=$!
for _ in $(seq 1 60); do
  xdotool search --name '^Waymark' >/dev/null 2>&1 && break
  sleep 0.5
done
sleep 2
import -window root "$shot"
kill $app 2>/dev/null || true
echo "run: the Waymark window opened on the sample manuscript; screenshot: $shot"
echo "run: the same tools from the command line (bin/waymark-cli help):"
sample="${XDG_DATA_HOME:-$HOME/.local/share}/waymark/sample/manuscript.md"
bin/waymark-cli call Find --doc "$sample" '{"query": "Professor Zvezdochkin"}'
