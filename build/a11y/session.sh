#!/usr/bin/env bash
# The screen-reader tier's session (build/test.sh a11y runs it inside dbus-run-session):
# Xvfb on a free display, the AT-SPI bus, the production window ($WORK/waymark on
# $WORK/book.md with a throw-away database in $WORK), then build/a11y/check.py.
# Usage: bash build/a11y/session.sh WORK
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$1
xvfb="" app=""
cleanup() {
  if [ -n "$app" ] && kill "$app" 2>/dev/null; then
    for _ in $(seq 1 50); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$app" 2>/dev/null || true
  fi
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
  return 0
}
trap cleanup EXIT
fail() {
  echo "a11y: $*"
  [ -s "$work/app.log" ] && tail -20 "$work/app.log"
  exit 1
}
n=99
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1280x860x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb=$!
export DISPLAY=":$n"
unset WAYLAND_DISPLAY NO_AT_BRIDGE
for _ in $(seq 1 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
xdpyinfo >/dev/null 2>&1 || fail "Xvfb did not start on :$n"
# The AT-SPI bus: asking the session bus for it starts at-spi-bus-launcher (D-Bus
# activation), which ends with the session bus.
for _ in $(seq 1 50); do
  dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress >/dev/null 2>&1 && break
  sleep 0.1
done
dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress >/dev/null 2>&1 ||
  fail "no AT-SPI bus (org.a11y.Bus) on the session bus"
GTK_OVERLAY_SCROLLING=0 WAYMARK_DB="$work/waymark.db" XDG_DATA_HOME="$work/data" HOME="$work" \
  "$work/waymark" "$work/book.md" >"$work/app.log" 2>&1 &
app=$!
wid=""
for _ in $(seq 1 120); do
  wid=$(xdotool search --onlyvisible --name '^Waymark — ' 2>/dev/null | head -1 || true)
  [ -n "$wid" ] && break
  kill -0 "$app" 2>/dev/null || fail "waymark exited before opening its window"
  sleep 0.5
done
[ -n "$wid" ] || fail "no Waymark window appeared within 60 s"
# Debian's python3 (python3-pyatspi, gir1.2-atspi-2.0), not another one on PATH.
WID=$wid BOOK="$work/book.md" /usr/bin/python3 build/a11y/check.py || fail "the screen-reader checks failed"
