#!/usr/bin/env bash
# Builds the frontend and both binaries:
#   bin/waymark      the desktop app (Wails window + CLI), tags desktop,production,webkit2_41,sqlite_fts5
#   bin/waymark-cli  the CLI only (no GTK needed at run time), tag sqlite_fts5
# The stock `wails build` cannot build a main package in a subfolder (app/), so this
# script does what it does on Linux with plain npm and go.
set -euo pipefail
cd "$(dirname "$0")/.."
bash build/setup.sh
export PATH="/usr/local/go/bin:$PATH"
(cd frontend && npm run build --silent >/dev/null)
mkdir -p bin
go build -tags desktop,production,webkit2_41,sqlite_fts5 -o bin/waymark ./app
go build -tags sqlite_fts5 -o bin/waymark-cli ./app
echo "build: bin/waymark and bin/waymark-cli are ready"
