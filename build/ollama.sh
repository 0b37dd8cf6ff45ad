#!/usr/bin/env bash
# Builds Ollama (CPU only) from its Go module for the "ollama" test tier and prints the
# binary's path on its last line. Idempotent: when $(go env GOPATH)/bin/ollama-$VERSION/ollama
# already reports module version $VERSION, nothing is built. A cold build compiles ggml and
# llama.cpp with cgo (tens of minutes on 2 shared cores); a build after a removed binary
# comes from Go's build cache (15 s here: the headers' path is resolved with pwd -P so every
# clone hands go the same flags). Nothing is kept inside the repository.
#   bash build/ollama.sh        # prints e.g. /root/go/bin/ollama-v0.17.4/ollama
# The module zip lacks llama.cpp's vendored headers (Go strips vendor/ folders); they are in
# ../shared/ollama-vendor (see its README), or $OLLAMA_VENDOR.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
export CGO_ENABLED=1
VERSION=v0.17.4
bindir="$(go env GOPATH)/bin/ollama-$VERSION"
bin="$bindir/ollama"
if [[ -x "$bin" ]] && go version -m "$bin" 2>/dev/null | grep -Eq "^[[:space:]]+mod[[:space:]]+github.com/ollama/ollama[[:space:]]+$VERSION([[:space:]]|$)"; then
  echo "ollama $VERSION already built" >&2
  echo "$bin"
  exit 0
fi
vendor="${OLLAMA_VENDOR:-$PWD/../shared/ollama-vendor}"
for h in miniaudio/miniaudio.h nlohmann/json.hpp stb/stb_image.h; do
  if [[ ! -f "$vendor/$h" ]]; then
    echo "build/ollama.sh: $vendor/$h is missing (llama.cpp's vendored headers, see ../shared/ollama-vendor/README.md)" >&2
    exit 1
  fi
done
mkdir -p "$bindir"
t0=$(date +%s)
echo "building ollama $VERSION into $bindir (cold: compiles ggml and llama.cpp)" >&2
CGO_CPPFLAGS="-I$(cd "$vendor" && pwd -P)" GOBIN="$bindir" GOFLAGS=-buildvcs=false \
  go install "github.com/ollama/ollama@$VERSION" >&2
echo "built ollama $VERSION in $(($(date +%s) - t0)) s" >&2
echo "$bin"
