# shellcheck shell=bash
# Shared by the window tiers (build/test.sh desktop, build/screens.sh, build/a11y/session.sh)
# and build/run.sh without a display:
# source it, then
#   start_xvfb WxH LOG     Xvfb on the first free display from :99 up (never the user's own),
#                          DISPLAY set to it and WAYLAND_DISPLAY unset; returns once the display
#                          answers (else 1, the reason in LIB_ERROR); killed when the shell exits
#   wait_window PID        the Waymark window of process PID, shown within 60 s: its id in WID
#                          (else 1, the reason in LIB_ERROR)
#   check_window_identity WID DESKTOP
#                          window WID is the .desktop file DESKTOP's: its WM_CLASS names the
#                          file's StartupWMClass, and it has an icon (_NET_WM_ICON); a line
#                          saying so in IDENTITY (else 1, the reason in LIB_ERROR)
#   stop_app PID           ends the app and gives it 5 s to close its database, then kills it
#   take_screenshot WID FILE
#                          a screenshot of window WID: SHOT_COLOURS colours, SHOT_HASH its pixels
#   wait_stable_screenshot WID FILE TRIES PAUSE [UNLIKE]
#                          screenshots until the window is drawn (more than 50 colours) and two
#                          in a row agree (and, with UNLIKE, differ from that hash): the picture
#                          stays in FILE; 1 when TRIES ran out (SHOT_COLOURS says how far it got)

# on_exit CMD: runs CMD when the shell exits, after what its EXIT trap already does.
on_exit() {
  local cmd=$1 old=""
  # `trap -p EXIT` prints "trap -- 'CMD' EXIT", quoted for the shell: set -- unquotes it.
  eval "set -- $(trap -p EXIT)"
  [ $# -ge 3 ] && old=$3
  # shellcheck disable=SC2064 # expanded now, on purpose
  trap "${old:+$old; }$cmd" EXIT
}

start_xvfb() { # WxH LOG
  local size=$1 log=$2 n=99
  while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
  Xvfb ":$n" -screen 0 "${size}x24" -nolisten tcp >"$log" 2>&1 &
  XVFB_PID=$!
  on_exit "kill $XVFB_PID 2>/dev/null || true"
  export DISPLAY=":$n"
  unset WAYLAND_DISPLAY
  for _ in $(seq 1 50); do xdpyinfo >/dev/null 2>&1 && return 0; sleep 0.1; done
  LIB_ERROR="Xvfb did not start on :$n: $(cat "$log")"
  return 1
}

# start_wm: a desktop's window manager (metacity, GNOME's former one) on
# $DISPLAY, ended with the step, once it has taken the screen (EWMH's
# _NET_SUPPORTING_WM_CHECK on the root).
start_wm() { # LOG
  local log=$1
  metacity --replace >"$log" 2>&1 &
  WM_PID=$!
  on_exit "kill $WM_PID 2>/dev/null || true"
  for _ in $(seq 1 50); do
    xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id' && return 0
    sleep 0.1
  done
  LIB_ERROR="metacity did not take the screen: $(cat "$log")"
  return 1
}

wait_window() { # PID
  local app=$1
  WID=""
  for _ in $(seq 1 120); do
    # (xdotool matches names case-insensitively, and GTK may show the window as
    # "waymark", the program's name, for a moment before Wails sets its title.)
    WID=$(xdotool search --onlyvisible --name '^Waymark — ' 2>/dev/null | head -1 || true)
    [ -n "$WID" ] && return 0
    if ! kill -0 "$app" 2>/dev/null; then
      LIB_ERROR="waymark exited before opening its window"
      return 1
    fi
    sleep 0.5
  done
  LIB_ERROR="no Waymark window appeared within 60 s"
  return 1
}

check_window_identity() { # WID DESKTOP
  local wid=$1 desktop=$2 class want icon
  want=$(sed -n 's/^StartupWMClass=//p' "$desktop")
  class=$(xprop -id "$wid" WM_CLASS 2>/dev/null | sed -n 's/^WM_CLASS(STRING) = //p')
  if [ -z "$want" ] || [[ "$class" != "\"$want\","* ]]; then
    LIB_ERROR="the window's WM_CLASS is $class, not the .desktop file's StartupWMClass \"$want\""
    return 1
  fi
  # _NET_WM_ICON is width, height, then the pixels: 0x100, 0x100 for the 256 px icon.
  icon=$(xprop -id "$wid" -f _NET_WM_ICON 32x _NET_WM_ICON 2>/dev/null | head -c 200)
  if [[ "$icon" != *"_NET_WM_ICON(CARDINAL) = 0x"[1-9a-f]* ]]; then
    LIB_ERROR="the window has no icon (_NET_WM_ICON: ${icon:-absent})"
    return 1
  fi
  local -a f
  read -r -a f <<<"${icon//,/ }"
  IDENTITY="WM_CLASS $class matches StartupWMClass=$want; icon $(printf '%d×%d' "${f[2]}" "${f[3]}")"
}

stop_app() { # PID
  local app=$1
  [ -n "$app" ] && kill "$app" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$app" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$app" 2>/dev/null || true
}

take_screenshot() { # WID FILE
  import -window "$1" "$2" 2>/dev/null || true
  SHOT_COLOURS=$(identify -format '%k' "$2" 2>/dev/null || echo 0)
  SHOT_HASH=$(identify -format '%#' "$2" 2>/dev/null || true)
}

wait_stable_screenshot() { # WID FILE TRIES PAUSE [UNLIKE]
  # The window appears before its page has drawn; a blank or half-drawn window has
  # few colours, the rendered text many; a picture still moving differs from the last.
  local wid=$1 file=$2 tries=$3 pause=$4 unlike=${5:-} prev=""
  for _ in $(seq 1 "$tries"); do
    take_screenshot "$wid" "$file"
    if [ "$SHOT_COLOURS" -gt 50 ] && [ "$SHOT_HASH" = "$prev" ] && [ "$SHOT_HASH" != "$unlike" ]; then
      return 0
    fi
    prev=$SHOT_HASH
    sleep "$pause"
  done
  return 1
}
