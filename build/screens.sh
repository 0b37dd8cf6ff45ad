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
xvfb="" app=""
cleanup() {
  if [ -n "$app" ] && kill "$app" 2>/dev/null; then
    for _ in $(seq 1 50); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$app" 2>/dev/null || true
  fi
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "screens: $*"
  [ -s "$work/app.log" ] && tail -30 "$work/app.log"
  exit 1
}

n=99
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1920x1080x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb=$!
export DISPLAY=":$n"
unset WAYLAND_DISPLAY
for _ in $(seq 1 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
xdpyinfo >/dev/null 2>&1 || fail "Xvfb did not start on :$n"

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
  wid=""
  for _ in $(seq 1 120); do
    wid=$(xdotool search --onlyvisible --name '^Waymark — ' 2>/dev/null | head -1 || true)
    [ -n "$wid" ] && break
    kill -0 "$app" 2>/dev/null || fail "waymark exited before opening its window"
    sleep 0.5
  done
  [ -n "$wid" ] || fail "no Waymark window appeared within 60 s"
  for size in "${sizes[@]}"; do
    w=${size%x*} h=${size#*x}
    before=$(grep -c "layout ${w}x${h} " "$work/app.log" || true)
    xdotool windowmove "$wid" 0 0 windowsize "$wid" "$w" "$h"
    line=""
    for _ in $(seq 1 60); do
      line=$(grep "layout ${w}x${h} " "$work/app.log" | sed -n "$((before + 1))p" || true)
      [ -n "$line" ] && break
      kill -0 "$app" 2>/dev/null || fail "waymark exited at $size"
      sleep 0.25
    done
    [ -n "$line" ] || fail "the window did not report its layout at $size within 15 s ($(xwininfo -id "$wid" | awk '/Width|Height/ {printf "%s ", $2}'))"
    # Wait until two screenshots in a row agree (the text drawn, nothing moving).
    prev="" cur="" colours=0
    for _ in $(seq 1 40); do
      import -window "$wid" "$work/shot.png" 2>/dev/null || true
      colours=$(identify -format '%k' "$work/shot.png" 2>/dev/null || echo 0)
      cur=$(identify -format '%#' "$work/shot.png" 2>/dev/null || true)
      [ "$colours" -gt 50 ] && [ "$cur" = "$prev" ] && break
      prev=$cur
      sleep 0.3
    done
    [ "$colours" -gt 50 ] || fail "the window at $size stayed blank ($colours colours)"
    got=$(identify -format '%wx%h' "$work/shot.png")
    [ "$got" = "$size" ] || fail "the screenshot is $got, not $size: the window did not take the size"
    /usr/bin/convert "$work/shot.png" -strip -define png:exclude-chunks=date,time "$out/window-$size-$theme.png"
    echo "screens: $size $theme: ${line#*layout } ($colours colours) → $out/window-$size-$theme.png"
    # The problems themselves follow the summary line, one per line, indented.
    awk -v s="layout ${w}x${h} " 'index($0, s) {p = ++k} p == '"$((before + 1))"' && /^  / {print}' "$work/app.log"
    case "$line" in *": 0 problems"*) ;; *) problems=$((problems + 1)) ;; esac
  done
  # Distraction-free mode (Ctrl+Shift+Enter) at 1280×860: the text alone.
  xdotool windowmove "$wid" 0 0 windowsize "$wid" 1280 860
  sleep 1
  # (Keys, not a click: a click would move the cursor, which the next run restores.)
  # The key can be lost while the window is still taking the resize: press it
  # again until the picture changes (at most 3 times), then wait until it is still.
  import -window "$wid" "$work/shot.png" 2>/dev/null || true
  normal=$(identify -format '%#' "$work/shot.png" 2>/dev/null || true)
  entered=""
  for _ in 1 2 3; do
    xdotool windowfocus --sync "$wid" 2>/dev/null || true
    xdotool key ctrl+shift+Return
    prev="" cur=""
    for _ in $(seq 1 40); do
      sleep 0.3
      import -window "$wid" "$work/shot.png" 2>/dev/null || true
      cur=$(identify -format '%#' "$work/shot.png" 2>/dev/null || true)
      [ "$cur" != "$normal" ] && [ "$cur" = "$prev" ] && break
      prev=$cur
    done
    if [ "$cur" != "$normal" ]; then entered=1; break; fi
  done
  [ -n "$entered" ] || fail "Ctrl+Shift+Enter did not change the window ($theme): distraction-free mode did not start"
  /usr/bin/convert "$work/shot.png" -strip -define png:exclude-chunks=date,time "$out/window-focus-$theme.png"
  echo "screens: distraction-free mode, $theme → $out/window-focus-$theme.png"
  kill "$app" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
  app=""
done
[ "$problems" -eq 0 ] || fail "$problems of $((${#sizes[@]} * 2)) window sizes have layout problems (above)"
echo "screens: ${#sizes[@]} sizes × 2 themes laid out without problems"
