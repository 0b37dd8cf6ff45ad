#!/usr/bin/env bash
# README command 2 (and CI's, through .ci/run): install what is missing, then run every
# tier and say what passed:
#   gofmt      no Go file needs formatting
#   go vet     go vet -tags sqlite_fts5 ./...
#   frontend   svelte-check (TypeScript) and the Vite build into frontend/dist
#   deadcode   no product function is unreachable from app/ in both builds of the window
#              (golang.org/x/tools/cmd/deadcode, pinned in build/deadcode.sh)
#   race       the Go suite under the race detector (go test -race -short ./...: unit,
#              integration on real SQLite files, Chromium at /usr/bin/chromium, the window
#              under rod): a data race is a failure. -short leaves out the corpus and
#              real-site sweeps, the kill and two-process tests (the detector makes them
#              several times slower, and they are not where goroutines meet)
#   go test    the tests the race step skipped, without the detector, in full: the corpus
#              tier from ../shared/corpus, the real documentation sites, two real writer
#              processes on one book, the SIGKILL tests (build/gotest_json.py lists them
#              from the race step's go test -json). Every test runs once, in one of the two.
#              Alone (`bash build/test.sh gotest`) it runs the whole suite plainly.
#   desktop    the production binary opens its real window under Xvfb (started here on a
#              free display, even when $DISPLAY is set), on the sample manuscript with a
#              database in a temporary folder; a screenshot of the window is taken, must
#              not be blank, and is saved to build/screenshots/window.png; then the
#              window tests (TestDesktop*, app/desktop_window_test.go) drive production
#              windows of their own with xdotool (typing while other processes edit the
#              book, New…, the title, the place a book reopens at, keys typed while the
#              Browser workspace clicks); the keys test again under a window manager
#              (metacity); then a dev build
#              serves the same bindings at a free loopback port and rod runs one command
#              through them (TestDesktopDevIPC)
#   a11y       the screen-reader tier: a private session bus (dbus-run-session) with its
#              own AT-SPI bus, Xvfb on a free display and the production window on the
#              English War and Peace (../shared/corpus; else the sample) with a
#              throw-away database; build/a11y/check.py reads the accessibility tree and
#              listens to AT-SPI events while xdotool presses keys (named outline tree,
#              messages as live-region events, <= 100 events per workspace switch, focus);
#              then the window on the Russian War and Peace: build/a11y/speech.py starts
#              Orca 43 (after any other Orca of this user has ended) and checks what Orca
#              SAYS after each action (results, counts, errors, state changes said once
#              and in full; the place after a jump; the edit to review in words), and
#              that keys typed at 150 ms a key with Orca running are no later than
#              150 ms beyond the same typing without Orca
#   screens    the production window on the Russian War and Peace at 1024×700, 1280×860
#              and 1920×1080, light and dark (build/screens.sh): the window measures its
#              own layout after each resize (title on one line, every label inside its
#              section, the text wider than the side panel, lines of 45–80 characters,
#              panels that scroll) and must report no problem; the screenshots go to
#              build/screenshots/window-SIZE-THEME.png
#   package    the Debian package (build/package.sh, docs/install.md): lintian without errors,
#              its files listed, the binary stripped, desktop-file-validate and appstreamcli
#              validate on what it installs; then installed on this machine (apt-get install
#              ./dist/….deb: CI's machine is a throw-away one), the installed waymark
#              --version and a CLI call, the window opened by gtk-launch io.github.waymark.Waymark under a
#              private Xvfb (WM_CLASS = StartupWMClass, an icon), and the package removed
#   ollama     the real Ollama (issue 34): build/ollama.sh builds Ollama v0.17.4 from its Go
#              module once (a cold build took 41 min on 2 busy cores; later runs reuse
#              the binary under $(go env GOPATH)/bin, or Go's build cache), then
#              build/ollama's tier test writes a tiny random-weight model, runs a private
#              `ollama serve` and drives `waymark agent`/`call` through it (docs/model-servers.md)
# Every step runs even when an earlier one failed (so one run shows everything); the
# script exits non-zero if any failed. vet and deadcode run in the background (nice)
# beside the race step, the go test step beside desktop, screens, package and ollama
# (a background step's output is printed whole when it ends); a11y runs last and alone
# (it times typing). The last line is "N passed, N failed".
# `bash build/test.sh desktop` (or gofmt, vet, deadcode, frontend, gotest, race, a11y, screens, ollama) runs only those steps.
set -euo pipefail
cd "$(dirname "$0")/.."
# start_xvfb, wait_window, stop_app, wait_stable_screenshot: shared with the window scripts.
source build/lib.sh
start=$(date +%s)
# Arguments pick steps by name (e.g. `bash build/test.sh desktop`); none runs them all.
selected=("$@")
for s in "${selected[@]}"; do
  case "$s" in gofmt | vet | deadcode | frontend | gotest | race | desktop | a11y | screens | package | ollama) ;; *)
    echo "usage: bash build/test.sh [gofmt] [vet] [deadcode] [frontend] [gotest] [race] [desktop] [a11y] [screens] [package] [ollama]" >&2
    exit 2
    ;;
  esac
done
bash build/setup.sh
export PATH="/usr/local/go/bin:$PATH"
export CGO_ENABLED=1
tags=sqlite_fts5

passed=() failed=()
# What steps hand to later ones (the tests the race step skipped; the window's
# production binary, built once), gone when the script ends.
shared=$(mktemp -d)
trap 'rm -rf "$shared"' EXIT
skipped=$shared/skipped-tests
step() { # NAME COMMAND...: runs one step, records its outcome, never stops the script
  local name=$1 t0 rc=0
  shift
  echo "== $name"
  t0=$(date +%s)
  # A subshell with its own set -e: in a function called from `cmd || …` bash would
  # ignore set -e, so a failing command in the middle of a step would go unnoticed.
  set +e
  (
    set -e
    "$@"
  )
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    passed+=("$name")
    echo "-- $name: ok ($(($(date +%s) - t0)) s)"
  else
    failed+=("$name")
    echo "-- $name: FAILED (exit $rc, $(($(date +%s) - t0)) s)"
  fi
}

check_gofmt() {
  local files
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files -co --exclude-standard -- '*.go' |
      while read -r f; do [ -f "$f" ] && echo "$f"; done | xargs -r gofmt -l)
  else
    files=$(find app backend frontend -name '*.go' -not -path '*/node_modules/*' | xargs -r gofmt -l)
  fi
  [ -z "$files" ] && return 0
  echo "gofmt would change:"
  echo "$files"
  return 1
}

frontend() {
  (cd frontend && npm run check --silent && npm run build --silent >/dev/null)
}

go_tests() {
  # After the race step: only the tests it skipped (-short), listed in $skipped.
  local log rc=0 pkgs names
  log=$(mktemp)
  if [ -f "$skipped" ]; then
    if [ ! -s "$skipped" ]; then
      echo "go test: the race step skipped no test; nothing is left to run"
      rm -f "$log"
      return 0
    fi
    pkgs=$(cut -f1 "$skipped" | sort -u | tr '\n' ' ')
    names=$(cut -f2 "$skipped" | sort -u | paste -sd '|')
    echo "go test: the $(wc -l <"$skipped") tests the race step skipped, in $(wc -w <<<"$pkgs") packages"
    # shellcheck disable=SC2086 # one word a package
    go test -tags "$tags" -count=1 -timeout 30m -run "^($names)\$" $pkgs 2>&1 | tee "$log" || rc=$?
  else
    go test -tags "$tags" -count=1 -timeout 30m ./... 2>&1 | tee "$log" || rc=$?
  fi
  echo "go test: $(grep -c '^ok ' "$log" || true) packages ok, $(grep -c '^FAIL' "$log" || true) FAIL lines"
  rm -f "$log"
  return "$rc"
}

race_tests() {
  # The Go suite with the race detector; any "WARNING: DATA RACE" fails the test
  # that saw it (and so the step). The tests -short skips go to $skipped for the
  # go test step.
  # -p 4, not go's default of one package per core: the packages that take longest
  # wait on Chromium, the window and their own processes far more than they compute
  # (alone under -race at a load of 6-17: backend/browser 79 s of processor time in
  # 328 s, app 33 s in 181 s, backend/agent/web 45 s in 131 s), so four at a time
  # still leave the 2 cores idle part of the time.
  local log rc=0
  log=$(mktemp)
  rm -f "$skipped"
  go test -race -short -p 4 -json -tags "$tags" -count=1 -timeout 30m ./... 2>&1 |
    python3 build/gotest_json.py --skipped "$skipped.part" | tee "$log" || {
    rc=${PIPESTATUS[0]}
    [ "$rc" -ne 0 ] || rc=1 # the filter itself failed
  }
  # Only a whole list stands for the go test step (else it runs everything).
  [ -f "$skipped.part" ] && mv "$skipped.part" "$skipped"
  echo "go test -race: $(grep -c '^ok ' "$log" || true) packages ok, $(grep -c '^FAIL' "$log" || true) FAIL lines, $(grep -c 'WARNING: DATA RACE' "$log" || true) data races"
  rm -f "$log"
  return "$rc"
}

# go_build_release ARGS...: go build with build/goflags.sh's flags, as build/build.sh
# and build/package.sh build (in a subshell: its CGO_CFLAGS stay out of the go test
# steps' builds). -trimpath keys the compiled packages by their contents, not by the
# clone's folder, so a fresh clone (CI's) compiles only the packages that changed: the
# window 20.2 s (22 packages) -> 4.5 s (the link) in a fresh clone at load 2.
go_build_release() {
  (
    . build/goflags.sh
    go build "${go_flags[@]}" -ldflags "$go_ldflags" "$@"
  )
}

# window_binary DEST: the production window with the frontend as it is now, built
# once per run (desktop, a11y and screens run the same binary) and copied to DEST.
# The frontend is built first when a source is newer than its build (a step run
# alone); the frontend step builds it anyway.
window_binary() {
  if [ ! -f frontend/dist/index.html ] ||
    [ -n "$(find frontend/src frontend/index.html -newer frontend/dist/index.html -print -quit)" ]; then
    (cd frontend && npm run build --silent >/dev/null)
  fi
  if [ ! -x "$shared/waymark" ]; then
    go_build_release -tags "desktop,production,webkit2_41,$tags" -o "$shared/waymark.part" ./app
    mv "$shared/waymark.part" "$shared/waymark"
  fi
  cp "$shared/waymark" "$1"
}

desktop_tier() { # runs in step's subshell: its trap and exits stay there
  work=$(mktemp -d)
  app=""
  cleanup() {
    # Let the app close its database before its folder goes; 5 s at most.
    stop_app "$app"
    rm -rf "$work"
  }
  trap cleanup EXIT
  fail() {
    echo "desktop: $*"
    if [ -s "$work/app.log" ]; then
      echo "--- waymark's output:"
      tail -40 "$work/app.log"
    fi
    exit 1
  }

  window_binary "$work/waymark"

  # Xvfb on a free display (never the user's own), killed when the step ends.
  start_xvfb 1280x860 "$work/xvfb.log" || fail "$LIB_ERROR"

  # No arguments: the app opens the sample manuscript, written into XDG_DATA_HOME.
  # GTK_OVERLAY_SCROLLING=0: classic scrollbars, not overlay ones that show and fade
  # on a timer, so the screenshot does not depend on the moment it is taken.
  GTK_OVERLAY_SCROLLING=0 WAYMARK_DB="$work/waymark.db" XDG_DATA_HOME="$work/data" HOME="$work" \
    "$work/waymark" >"$work/app.log" 2>&1 &
  app=$!
  wait_window "$app" || fail "$LIB_ERROR"
  wid=$WID
  title=$(xdotool getwindowname "$wid")
  echo "desktop: window $wid \"$title\" ($(xwininfo -id "$wid" | awk '/Width|Height/ {printf "%s ", $2}'))"
  [ "$title" = "Waymark — manuscript.md" ] || fail "the window title is \"$title\", not \"Waymark — manuscript.md\""
  # The window is the menu entry's: WM_CLASS names the .desktop file's StartupWMClass,
  # and it has an icon (a 256×256 _NET_WM_ICON), whatever the binary is called.
  check_window_identity "$wid" build/linux/io.github.waymark.Waymark.desktop || fail "$LIB_ERROR"
  echo "desktop: $IDENTITY"

  # The window appears before its page has loaded and asked the backend for the
  # manuscript: wait for a drawn picture that two screenshots in a row agree on.
  wait_stable_screenshot "$wid" "$work/window.png" 60 0.5 || true
  colours=$SHOT_COLOURS
  [ "$colours" -gt 10 ] || fail "the window stayed blank ($colours colours in the screenshot)"
  kill -0 "$app" 2>/dev/null || fail "waymark exited while drawing its window"
  # Without metadata (dates), the same picture gives the same bytes, so an unchanged
  # window leaves the committed screenshot unchanged.
  mkdir -p build/screenshots
  # (ImageMagick's own convert: /usr/local/bin/convert may be something else.)
  /usr/bin/convert "$work/window.png" -strip -define png:exclude-chunks=date,time \
    build/screenshots/window.png
  echo "desktop: the window rendered ($colours colours); screenshot build/screenshots/window.png"

  # The production window driven by xdotool, each test on its own book and
  # database (app/desktop_window_test.go).
  stop_app "$app"
  wait "$app" 2>/dev/null || true
  app=""
  WAYMARK_DESKTOP_BIN="$work/waymark" go test -tags "$tags" -count=1 -v -timeout 30m -run '^TestDesktop[A-Z]' ./app/ 2>&1 |
    grep -v 'XGetInputFocus returned' >"$work/window-test.log" || true
  grep -E -- '^(---|    ---|ok|FAIL|PASS)' "$work/window-test.log" || true
  if grep -q -- '--- FAIL' "$work/window-test.log" || ! grep -q '^ok ' "$work/window-test.log"; then
    tail -60 "$work/window-test.log"
    fail "the window tests failed"
  fi
  # The keyboard stays in the window under a desktop's window manager too
  # (issue 33 point 1): there Chromium asks it for the focus at a press.
  start_wm "$work/wm.log" || fail "$LIB_ERROR"
  WAYMARK_DESKTOP_BIN="$work/waymark" go test -tags "$tags" -count=1 -v -timeout 10m -run '^TestDesktopKeysStayDuringClicks$' ./app/ 2>&1 |
    grep -v 'XGetInputFocus returned' >"$work/window-wm-test.log" || true
  sed -n 's/^--- \(PASS\|FAIL\)/& (under metacity)/p' "$work/window-wm-test.log"
  if grep -q -- '--- FAIL' "$work/window-wm-test.log" || ! grep -q '^ok ' "$work/window-wm-test.log"; then
    tail -40 "$work/window-wm-test.log"
    fail "the window tests failed under a window manager"
  fi
  kill "$WM_PID" 2>/dev/null || true

  # The dev build: the same window whose bindings Wails also serves at a free
  # loopback port; rod drives them there for one scenario over the real IPC.
  go_build_release -tags "desktop,dev,webkit2_41,$tags" -o "$work/waymark-dev" ./app
  rm -rf "$work/data" "$work/waymark.db"*
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  devserver=localhost:$port WAYMARK_DB="$work/waymark.db" XDG_DATA_HOME="$work/data" HOME="$work" \
    "$work/waymark-dev" >"$work/app.log" 2>&1 &
  app=$!
  for _ in $(seq 1 120); do
    (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break
    kill -0 "$app" 2>/dev/null || fail "the dev build exited before serving localhost:$port"
    sleep 0.5
  done
  WAYMARK_DEV_URL=http://localhost:$port WAYMARK_DEV_LOG="$work/app.log" go test -tags "$tags" -count=1 -v -run '^TestDesktopDevIPC$' ./app/ >"$work/dev-test.log" 2>&1 || true
  grep -q -- '--- PASS: TestDesktopDevIPC' "$work/dev-test.log" || {
    tail -30 "$work/dev-test.log"
    fail "the dev build's bindings at localhost:$port failed the IPC scenario"
  }
  echo "desktop: the dev build's bindings at localhost:$port ran a command over Wails' IPC"
}

a11y_tier() { # runs in step's subshell: its trap and exits stay there
  work=$(mktemp -d)
  # The window reads the frontend embedded at build time (window_binary builds
  # it first when run alone: `bash build/test.sh a11y`).
  window_binary "$work/waymark"
  book=../shared/corpus/books/war-and-peace.en.md
  if [ -f "$book" ]; then cp "$book" "$work/book.md"; else
    echo "a11y: $book is missing; using the sample manuscript"
    cp app/sample/manuscript.md "$work/book.md"
  fi
  # Orca's speech is judged on the Russian book (when the corpus is there).
  [ -f ../shared/corpus/books/war-and-peace.ru.md ] && cp ../shared/corpus/books/war-and-peace.ru.md "$work/book-ru.md"
  # The corpus is read-only (as CI lays it) and cp keeps the mode: the window
  # rightly refuses to edit a read-only book, and this tier runs commands.
  chmod 0644 "$work"/book*.md
  # A session bus of its own (the at-spi bus is found through it), so nothing of
  # the user's desktop is heard or touched; build/a11y/session.sh runs inside it.
  # XDG_RUNTIME_DIR and HOME of its own too: the AT-SPI bus's socket, Orca's and
  # speech-dispatcher's files stay in $work (else ~/.cache/at-spi/bus is shared
  # with every other session of this user).
  mkdir -m 0700 "$work/run"
  rc=0
  XDG_RUNTIME_DIR="$work/run" HOME="$work" dbus-run-session -- bash build/a11y/session.sh "$work" 2>&1 |
    grep --line-buffered -v 'Failed to set fd limit\|Activating service\|Successfully activated' || rc=${PIPESTATUS[0]}
  rm -rf "$work"
  return "$rc"
}

screens_tier() { # runs in step's subshell: its trap stays there
  local book
  swork=$(mktemp -d)
  trap 'rm -rf "$swork"' EXIT
  # The frontend as it is now (window_binary builds it when run alone).
  window_binary "$swork/waymark"
  # A real book when the corpus is beside the repository, else the sample.
  book=../shared/corpus/books/war-and-peace.ru.md
  [ -f "$book" ] || book=""
  bash build/screens.sh "$swork/waymark" build/screenshots $book
}

package_tier() { # runs in step's subshell: its trap and exits stay there
  pwork=$(mktemp -d)
  installed=""
  app=""
  cleanup() {
    [ -n "$app" ] && stop_app "$app"
    if [ -n "$installed" ]; then
      DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq waymark >/dev/null 2>&1 || true
    fi
    rm -rf "$pwork"
  }
  trap cleanup EXIT
  fail() {
    echo "package: $*"
    exit 1
  }
  deb=$(bash build/package.sh --out "$pwork/dist" | tail -1)
  [ -f "$deb" ] || fail "build/package.sh made no .deb"
  echo "package: built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

  # lintian: no error, no warning, and none of the informational hardening tags
  # (build/goflags.sh: PIE, relro and bindnow, fortified cgo code).
  lintian --tag-display-limit 0 -I "$deb" >"$pwork/lintian.txt" 2>&1 || true
  grep "^[EWI]: " "$pwork/lintian.txt" || true
  if grep -q '^[EW]: ' "$pwork/lintian.txt"; then
    cat "$pwork/lintian.txt"
    fail "lintian reports errors or warnings"
  fi
  if grep -q ' hardening-' "$pwork/lintian.txt"; then fail "lintian: the binary lacks hardening: $(grep ' hardening-' "$pwork/lintian.txt" | tr '\n' ' ')"; fi
  echo "package: lintian: no errors, no warnings, no hardening tags"

  # The files, the fields, a stripped binary.
  dpkg-deb --contents "$deb" | awk '{print $6}' >"$pwork/files.txt"
  for f in ./usr/bin/waymark ./usr/share/applications/io.github.waymark.Waymark.desktop \
    ./usr/share/icons/hicolor/scalable/apps/waymark.svg ./usr/share/icons/hicolor/48x48/apps/waymark.png \
    ./usr/share/icons/hicolor/256x256/apps/waymark.png ./usr/share/metainfo/io.github.waymark.Waymark.metainfo.xml \
    ./usr/share/man/man1/waymark.1.gz ./usr/share/waymark/autoconsent/compact-rules.json ./usr/share/doc/waymark/copyright \
    ./usr/share/waymark/hyphen/hyph_ru_RU.dic ./usr/share/waymark/hyphen/hyph_en_US.dic ./usr/share/waymark/hyphen/hyph_fr.dic \
    ./usr/share/waymark/hyphen/copyright.hyphen-ru ./usr/share/waymark/hyphen/copyright.hyphen-en-us \
    ./usr/share/waymark/hyphen/copyright.hyphen-fr; do
    grep -qx "$f" "$pwork/files.txt" || fail "the package lacks $f"
  done
  depends=$(dpkg-deb --field "$deb" Depends)
  for d in libgtk-3-0 libwebkit2gtk-4.1-0 hunspell-ru hunspell-en-us fonts-paratype; do
    [[ "$depends" == *"$d"* ]] || fail "Depends lacks $d: $depends"
  done
  for d in golang gcc nodejs -dev; do
    [[ "$depends" != *"$d"* ]] || fail "Depends names a build tool ($d): $depends"
  done
  # The browser and the screen reader are not needed to write (issue 35 point 10).
  for d in chromium orca; do
    [[ ", $depends," != *", $d"[,\ ]* ]] || fail "Depends names $d: $depends"
  done
  [ "$(dpkg-deb --field "$deb" Recommends)" = "chromium, pandoc" ] || fail "Recommends is not chromium, pandoc"
  [ "$(dpkg-deb --field "$deb" Suggests)" = "orca" ] || fail "Suggests is not orca"
  mkdir "$pwork/root"
  dpkg-deb -x "$deb" "$pwork/root"
  if readelf -S "$pwork/root/usr/bin/waymark" | grep -q '\.symtab'; then fail "/usr/bin/waymark is not stripped"; fi
  readelf -d "$pwork/root/usr/bin/waymark" | grep -q 'FLAGS.*BIND_NOW' || fail "/usr/bin/waymark is not linked with -z now"
  # The copyright file names Waymark's licence and every bundled module (cmd/waymark-copyright).
  cr=$pwork/root/usr/share/doc/waymark/copyright
  for l in "Files: *" "License: MIT" "Files: github.com/mattn/go-sqlite3/*" "License: public-domain" \
    "Files: github.com/wailsapp/wails/v2/*" "Files: @codemirror/view/*" "Files: usr/share/waymark/autoconsent/*" \
    "Files: usr/share/waymark/hyphen/hyph_ru_RU.dic" "License: LPPL-1.2+" "Files: usr/share/waymark/hyphen/hyph_fr.dic"; do
    grep -qxF "$l" "$cr" || fail "the copyright file lacks \"$l\""
  done
  ! grep -qi proprietary "$cr" || fail "the copyright file still says proprietary"
  zcat "$pwork/root/usr/share/man/man1/waymark.1.gz" | grep -q 'max\\-size' || fail "the man page lacks --max-size"
  grep -q '<url type="bugtracker">' "$pwork/root/usr/share/metainfo/io.github.waymark.Waymark.metainfo.xml" || fail "the metainfo has no bug tracker URL"
  desktop-file-validate "$pwork/root/usr/share/applications/io.github.waymark.Waymark.desktop" | grep -v '^.*: hint: ' || true
  desktop-file-validate "$pwork/root/usr/share/applications/io.github.waymark.Waymark.desktop" >/dev/null || fail "desktop-file-validate failed"
  appstreamcli validate --no-net "$pwork/root/usr/share/metainfo/io.github.waymark.Waymark.metainfo.xml" || fail "appstreamcli validate failed"
  echo "package: files, Depends, Recommends and Suggests as they should be; the binary stripped; .desktop and metainfo valid"

  # Installed on this machine, as a user installs it.
  if dpkg-query -W -f='${db:Status-Status}' waymark 2>/dev/null | grep -qx installed; then
    echo "package: a waymark package was installed already; it is replaced by this one, and removed at the end"
  fi
  installed=1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$pwork/apt.log" 2>&1 || {
    tail -20 "$pwork/apt.log"
    fail "apt-get install $(basename "$deb") failed"
  }
  [ "$(command -v waymark)" = /usr/bin/waymark ] || fail "waymark is not /usr/bin/waymark on PATH after installing"
  version=$(dpkg-deb --field "$deb" Version)
  v=$(waymark --version)
  [[ "$v" == "waymark $version (commit "*", built "*")" ]] || fail "waymark --version printed \"$v\""
  [[ "$v" != *"commit unknown"* ]] || fail "waymark --version has no commit: $v"
  # CI runs on a clean clone: its package must name the commit, not "-modified".
  [[ "${CI:-}" != true || "$v" != *-modified* ]] || fail "waymark --version calls a clean clone's build modified: $v (git status: $(git status --porcelain --untracked-files=no | head -3 | tr '\n' ' '))"
  echo "package: installed; $v"
  cp app/sample/manuscript.md "$pwork/book.md"
  out=$(HOME="$pwork" WAYMARK_DB="$pwork/cli.db" waymark call Outline --doc "$pwork/book.md" '{}')
  [[ "$out" == *"Chapter One: The Ledger"* ]] || fail "waymark call Outline printed: $out"
  echo "package: waymark call Outline works on a book"

  # The menu entry opens the window: gtk-launch runs its Exec line.
  start_xvfb 1280x860 "$pwork/xvfb.log" || fail "$LIB_ERROR"
  mkdir -p "$pwork/home"
  HOME="$pwork/home" XDG_DATA_HOME="$pwork/home/data" WAYMARK_DB="$pwork/home/w.db" GTK_OVERLAY_SCROLLING=0 \
    gtk-launch io.github.waymark.Waymark >"$pwork/launch.log" 2>&1 || fail "gtk-launch io.github.waymark.Waymark failed: $(cat "$pwork/launch.log")"
  WID=""
  for _ in $(seq 1 120); do
    WID=$(xdotool search --onlyvisible --name '^Waymark — ' 2>/dev/null | head -1 || true)
    [ -n "$WID" ] && break
    sleep 0.5
  done
  [ -n "$WID" ] || fail "gtk-launch io.github.waymark.Waymark opened no window within 60 s"
  app=$(xdotool getwindowpid "$WID" 2>/dev/null || true)
  [ "$(readlink "/proc/$app/exe" 2>/dev/null)" = /usr/bin/waymark ] || fail "the window is not the installed /usr/bin/waymark"
  check_window_identity "$WID" "$pwork/root/usr/share/applications/io.github.waymark.Waymark.desktop" || fail "$LIB_ERROR"
  echo "package: gtk-launch io.github.waymark.Waymark opened \"$(xdotool getwindowname "$WID")\"; $IDENTITY"
  stop_app "$app"
  app=""

  DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq waymark >/dev/null 2>&1 || fail "apt-get remove waymark failed"
  installed=""
  [ ! -e /usr/bin/waymark ] || fail "/usr/bin/waymark is still there after removing the package"
  [ ! -e /usr/share/applications/io.github.waymark.Waymark.desktop ] || fail "the menu entry is still there after removing the package"
  echo "package: removed cleanly"
}

ollama_tier() {
  # Every wait is bounded: the build (a cold one included) by timeout, the tier by
  # go test's -timeout and its own per-command limits.
  local bin
  bin=$(timeout 120m bash build/ollama.sh | tail -n 1)
  [ -x "$bin" ] || { echo "ollama: build/ollama.sh gave no binary"; return 1; }
  (cd build/ollama && WAYMARK_OLLAMA="$bin" go test -count=1 -timeout 30m -v -run '^TestOllama' .)
}

run() { # KEY NAME COMMAND...
  local key=$1
  shift
  if [ ${#selected[@]} -eq 0 ] || [[ " ${selected[*]} " == *" $key "* ]]; then step "$@"; fi
}
# run_bg KEY NAME COMMAND...: as run, but in the background beside the steps that
# follow, until wait_bg; its output is held in a file and printed whole once it has
# ended, so two steps' lines never mix.
bg_pids=() bg_names=() bg_outs=()
run_bg() {
  local key=$1 out
  shift
  if [ ${#selected[@]} -eq 0 ] || [[ " ${selected[*]} " == *" $key "* ]]; then
    out=$shared/background-$key.log
    echo "== $1: runs beside the steps that follow; its output comes when it has ended"
    (
      passed=() failed=()
      step "$@" >"$out" 2>&1
      # Only a step that said ok passed (a killed one left no mark: failed).
      if [ ${#failed[@]} -eq 0 ] && [ ${#passed[@]} -eq 1 ]; then touch "$out.ok"; fi
    ) &
    bg_pids+=($!) bg_names+=("$1") bg_outs+=("$out")
  fi
}
wait_bg() { # waits for every background step, in the order they began
  local i
  for i in "${!bg_pids[@]}"; do
    wait "${bg_pids[$i]}" || true
    cat "${bg_outs[$i]}"
    if [ -e "${bg_outs[$i]}.ok" ]; then passed+=("${bg_names[$i]}"); else failed+=("${bg_names[$i]}"); fi
  done
  bg_pids=() bg_names=() bg_outs=()
}
run gofmt gofmt check_gofmt
# The frontend first: the Go packages embed frontend/dist. vet and deadcode only
# compute, at a lower priority (nice), beside the race step, whose tests mostly wait.
run frontend frontend frontend
run_bg vet "go vet" nice -n 10 go vet -tags "$tags" ./...
run_bg deadcode deadcode nice -n 10 bash build/deadcode.sh
run race "go test -race" race_tests
wait_bg
# The plain go test step waits mostly on processes (Chromium, the CLI, pandoc, Java):
# the window, screenshot, package and Ollama steps run beside it. The screen-reader
# step times typing, so it runs alone, after both.
run_bg gotest "go test" go_tests
run desktop desktop desktop_tier
run screens screens screens_tier
run package package package_tier
run ollama "ollama (real server)" ollama_tier
wait_bg
run a11y "a11y (screen reader)" a11y_tier

echo "== ${#passed[@]} of $((${#passed[@]} + ${#failed[@]})) steps passed in $(($(date +%s) - start)) s${failed:+; failed: ${failed[*]}}"
echo "waymark: ${#passed[@]} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
