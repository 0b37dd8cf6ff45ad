#!/usr/bin/env bash
# Renders Waymark's icon (build/linux/icons/waymark.svg) into the PNG sizes of the
# hicolor theme (build/linux/icons/NxN.png, installed by build/package.sh as
# /usr/share/icons/hicolor/NxN/apps/waymark.png) and into app/appicon.png, the
# window's own icon (embedded in the binary: _NET_WM_ICON). Run it after
# changing the SVG and commit the PNGs; it needs rsvg-convert (librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/../.."
svg=build/linux/icons/waymark.svg
command -v rsvg-convert >/dev/null || { echo "icons: rsvg-convert is missing (apt-get install librsvg2-bin)" >&2; exit 1; }
for n in 16 24 32 48 64 128 256 512; do
  rsvg-convert -w "$n" -h "$n" "$svg" -o "build/linux/icons/${n}x${n}.png"
done
cp build/linux/icons/256x256.png app/appicon.png
echo "icons: build/linux/icons/{16..512}.png and app/appicon.png rendered from $svg"
