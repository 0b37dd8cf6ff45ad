#!/usr/bin/env bash
# The screen-reader tier's session (build/test.sh a11y runs it inside dbus-run-session):
# Xvfb on a free display, the AT-SPI bus, the production window ($WORK/waymark on
# $WORK/book.md with a throw-away database in $WORK), then build/a11y/check.py.
# Usage: bash build/a11y/session.sh WORK
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$1
# start_xvfb, wait_window, stop_app: shared with the other window tiers.
source build/lib.sh
app=""
trap 'stop_app "$app"' EXIT
fail() {
  echo "a11y: $*"
  [ -s "$work/app.log" ] && tail -20 "$work/app.log"
  exit 1
}
start_xvfb 1280x860 "$work/xvfb.log" || fail "$LIB_ERROR"
unset NO_AT_BRIDGE
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
wait_window "$app" || fail "$LIB_ERROR"
wid=$WID
# Debian's python3 (python3-pyatspi, gir1.2-atspi-2.0), not another one on PATH.
WID=$wid BOOK="$work/book.md" /usr/bin/python3 build/a11y/check.py || fail "the screen-reader checks failed"
