#!/usr/bin/env bash
# The screen-reader tier's session (build/test.sh a11y runs it inside dbus-run-session):
# Xvfb on a free display, the AT-SPI bus, then two parts:
#   1. the production window ($WORK/waymark) on $WORK/book.md (English) with a throw-away
#      database: build/a11y/check.py reads its accessibility tree and events;
#   2. the window on $WORK/book-ru.md (the Russian War and Peace), in Russian (Settings →
#      language: every line the window says by itself is in the window's language, so a
#      Russian author's window): build/a11y/speech.py types without Orca, starts Orca and
#      judges each action by what Orca says, and types again with Orca running; then the
#      window again in the session's language (English here), where
#      build/a11y/browser_speech.py drives its Browser workspace with Orca on loopback
#      pages (speech, and where the keyboard is; English and Russian commands).
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
# A11Y_WM=1: under a desktop's window manager (metacity), as a measurement.
if [ -n "${A11Y_WM:-}" ]; then start_wm "$work/wm.log" || fail "$LIB_ERROR"; fi
unset NO_AT_BRIDGE
# The AT-SPI bus: asking the session bus for it starts at-spi-bus-launcher (D-Bus
# activation), which ends with the session bus.
for _ in $(seq 1 50); do
  dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress >/dev/null 2>&1 && break
  sleep 0.1
done
dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress >/dev/null 2>&1 ||
  fail "no AT-SPI bus (org.a11y.Bus) on the session bus"

open_window() { # BOOK DBNAME
  GTK_OVERLAY_SCROLLING=0 WAYMARK_DB="$work/$2" XDG_DATA_HOME="$work/data" HOME="$work" \
    "$work/waymark" "$1" >"$work/app.log" 2>&1 &
  app=$!
  wait_window "$app" || fail "$LIB_ERROR"
}

rc=0
# SPEECH_PARTS set (working on some of Orca's checks, see speech.py): the tree's
# checks are left out.
if [ -z "${SPEECH_PARTS:-}" ]; then
  open_window "$work/book.md" waymark.db
  # Debian's python3 (python3-pyatspi, gir1.2-atspi-2.0), not another one on PATH.
  WID=$WID BOOK="$work/book.md" /usr/bin/python3 build/a11y/check.py || {
    echo "a11y: the accessibility-tree checks failed"
    rc=1
  }
  stop_app "$app"
  wait "$app" 2>/dev/null || true
  app=""
fi

if [ -f "$work/book-ru.md" ]; then
  # The window's language is a stored setting (Settings → language), as the author
  # sets it: the database made by a first call, then Russian chosen in it.
  WAYMARK_DB="$work/waymark-ru.db" XDG_DATA_HOME="$work/data" HOME="$work" \
    "$work/waymark" call Outline --doc "$work/book-ru.md" '{}' >/dev/null || fail "the Russian book's database was not made"
  sqlite3 "$work/waymark-ru.db" "INSERT INTO settings (key, value, updated_at) VALUES ('ui.settings', '{\"language\":\"ru\"}', '2026-01-01T00:00:00Z') ON CONFLICT (key) DO UPDATE SET value = excluded.value"
  open_window "$work/book-ru.md" waymark-ru.db
  WID=$WID BOOK="$work/book-ru.md" WORK="$work" /usr/bin/python3 build/a11y/speech.py || {
    echo "a11y: the screen reader's speech checks failed"
    rc=1
  }
  # The Browser workspace with Orca (issue 33), in a window in the session's
  # language (its checks name the English controls; its commands are English
  # and Russian).
  stop_app "$app"
  wait "$app" 2>/dev/null || true
  sqlite3 "$work/waymark-ru.db" "DELETE FROM settings WHERE key = 'ui.settings'"
  open_window "$work/book-ru.md" waymark-ru.db
  WID=$WID BOOK="$work/book-ru.md" WORK="$work" /usr/bin/python3 build/a11y/browser_speech.py || {
    echo "a11y: the Browser workspace's speech checks failed"
    rc=1
  }
else
  echo "a11y: the Russian book is missing (../shared/corpus); Orca's speech was not checked"
fi
exit "$rc"
