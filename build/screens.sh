#!/usr/bin/env bash
# The screenshot tier (build/test.sh screens): the production window, for real, at the
# three sizes authors use — 1024×700, 1280×860 and 1920×1080 — in the light and the dark
# theme, on a book.
#
#   bash build/screens.sh BINARY OUTDIR [BOOK.md]
#
# The binary is started on a private Xvfb display (the first free one from :99 up) with a
# throw-away database, and with WAYMARK_LAYOUT_REPORT=1: after every resize the window
# measures its own layout (frontend/src/lib/layout.ts: the title on one line, the
# toolbar's and tabs' own text inside its boxes, the editor at least as wide as the side
# panel, a reading measure of 60–80 characters, side panels that scroll rather than
# push the page, nothing outside the window) and reports it; the backend prints
# "waymark: layout WxH THEME: N problems" and each problem. For each size and theme a
# screenshot OUTDIR/window-WxH-THEME.png is saved (no metadata, so an unchanged window
# gives the same bytes), and one of distraction-free mode, OUTDIR/window-focus-THEME.png
# (its layout is checked by the UI tier, TestUIWindowLooks). Exits non-zero if a size reported a problem, never reported,
# or drew a blank window.
set -euo pipefail
bin=$1 out=$2 book=${3:-}
mkdir -p "$out"
work=$(mktemp -d)
# start_xvfb, wait_window, stop_app, wait_stable_screenshot: shared with the other window tiers.
source "$(dirname "$0")/lib.sh"
app=""
cleanup() {
  stop_app "$app"
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "screens: $*"
  [ -s "$work/app.log" ] && tail -30 "$work/app.log"
  exit 1
}

start_xvfb 1920x1080 "$work/xvfb.log" || fail "$LIB_ERROR"

sizes=(1024x700 1280x860 1920x1080)
problems=0
for theme in light dark; do
  if [ "$theme" = dark ]; then
    # The theme is a stored setting (Settings → Theme); the light run made the database.
    sqlite3 "$work/waymark.db" "INSERT INTO settings (key, value, updated_at) VALUES ('ui.settings', '{\"theme\":\"dark\"}', '2026-01-01T00:00:00Z') ON CONFLICT (key) DO UPDATE SET value = excluded.value"
  fi
  : >"$work/app.log"
  # shellcheck disable=SC2086
  GTK_OVERLAY_SCROLLING=0 WAYMARK_LAYOUT_REPORT=1 WAYMARK_DB="$work/waymark.db" XDG_DATA_HOME="$work/data" HOME="$work" \
    "$bin" $book >"$work/app.log" 2>&1 &
  app=$!
  wait_window "$app" || fail "$LIB_ERROR"
  wid=$WID
  for size in "${sizes[@]}"; do
    w=${size%x*} h=${size#*x}
    # The web view is the window less the 1-px native notice bar under it (the bar Orca
    # reads the window's notices from, app/screenreader_gtk.go): WxH or Wx(H-1).
    pat="layout ${w}x(${h}|$((h - 1))) "
    before=$(grep -cE "$pat" "$work/app.log" || true)
    xdotool windowmove "$wid" 0 0 windowsize "$wid" "$w" "$h"
    line=""
    for _ in $(seq 1 60); do
      line=$(grep -E "$pat" "$work/app.log" | sed -n "$((before + 1))p" || true)
      [ -n "$line" ] && break
      kill -0 "$app" 2>/dev/null || fail "waymark exited at $size"
      sleep 0.25
    done
    [ -n "$line" ] || fail "the window did not report its layout at $size within 15 s ($(xwininfo -id "$wid" | awk '/Width|Height/ {printf "%s ", $2}'))"
    # Wait until two screenshots in a row agree (the text drawn, nothing moving).
    wait_stable_screenshot "$wid" "$work/shot.png" 40 0.3 || true
    colours=$SHOT_COLOURS
    [ "$colours" -gt 50 ] || fail "the window at $size stayed blank ($colours colours)"
    got=$(identify -format '%wx%h' "$work/shot.png")
    [ "$got" = "$size" ] || fail "the screenshot is $got, not $size: the window did not take the size"
    /usr/bin/convert "$work/shot.png" -strip -define png:exclude-chunks=date,time "$out/window-$size-$theme.png"
    echo "screens: $size $theme: ${line#*layout } ($colours colours) → $out/window-$size-$theme.png"
    # The problems themselves follow the summary line, one per line, indented.
    awk -v s="$pat" '$0 ~ s {p = ++k} p == '"$((before + 1))"' && /^  / {print}' "$work/app.log"
    case "$line" in *": 0 problems"*) ;; *) problems=$((problems + 1)) ;; esac
  done
  # Distraction-free mode (Ctrl+Shift+Enter) at 1280×860: the text alone.
  xdotool windowmove "$wid" 0 0 windowsize "$wid" 1280 860
  sleep 1
  # (Keys, not a click: a click would move the cursor, which the next run restores.)
  # The key can be lost while the window is still taking the resize: press it
  # again until the picture changes (at most 3 times), then wait until it is still.
  take_screenshot "$wid" "$work/shot.png"
  normal=$SHOT_HASH
  entered=""
  for _ in 1 2 3; do
    xdotool windowfocus --sync "$wid" 2>/dev/null || true
    xdotool key ctrl+shift+Return
    wait_stable_screenshot "$wid" "$work/shot.png" 40 0.3 "$normal" || true
    if [ "$SHOT_HASH" != "$normal" ]; then
      entered=1
      break
    fi
  done
  [ -n "$entered" ] || fail "Ctrl+Shift+Enter did not change the window ($theme): distraction-free mode did not start"
  /usr/bin/convert "$work/shot.png" -strip -define png:exclude-chunks=date,time "$out/window-focus-$theme.png"
  echo "screens: distraction-free mode, $theme → $out/window-focus-$theme.png"
  stop_app "$app"
  app=""
done
[ "$problems" -eq 0 ] || fail "$problems of $((${#sizes[@]} * 2)) window sizes have layout problems (above)"
echo "screens: ${#sizes[@]} sizes × 2 themes laid out without problems"
