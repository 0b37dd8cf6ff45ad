#!/usr/bin/env bash
# Builds the Debian package dist/waymark_<version>_amd64.deb with dpkg-deb (part of
# every Debian system): nothing is downloaded but what build/setup.sh installs.
#
# It holds:
#   /usr/bin/waymark                      the window and the CLI, built with -trimpath,
#                                         stripped (-s -w), version, commit and build date
#                                         set by -ldflags -X (waymark --version)
#   /usr/share/applications/io.github.waymark.Waymark.desktop          the menu entry (build/linux)
#   /usr/share/icons/hicolor/{scalable,NxN}/apps/waymark.{svg,png}   the icon
#   /usr/share/metainfo/io.github.waymark.Waymark.metainfo.xml       AppStream
#   /usr/share/man/man1/waymark.1.gz      the manual page
#   /usr/share/waymark/autoconsent/       @duckduckgo/autoconsent's rules and script, with
#                                         their licence (MPL-2.0); the binary embeds the
#                                         same files
#   /usr/share/doc/waymark/               copyright (made by cmd/waymark-copyright: Waymark's
#                                         MIT licence, every bundled module's) and changelog
# Depends: the shared libraries the binary links (dpkg-shlibdeps: GTK 3, WebKitGTK 4.1,
# libhunspell, SQLite's libc only...), hunspell-ru, hunspell-en-us, fonts-paratype.
# Recommends: chromium (the Browser workspace, `waymark browse` and PDF export; an author
# who only writes installs without it: apt install --no-install-recommends), pandoc (DOCX
# and EPUB export). The PDF's hyphenation patterns are carried in
# /usr/share/waymark/hyphen/ (hyphen-ru recommends LibreOffice Writer).
# Suggests: orca (the screen reader). No build tool.
#
# Usage: bash build/package.sh [--out DIR]   (DIR defaults to dist/)
# Prints the path of the .deb on its last line. The version is cli.Version
# (backend/cli/version.go); WAYMARK_VERSION overrides it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=dist
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    *) echo "usage: bash build/package.sh [--out DIR]" >&2; exit 2 ;;
  esac
done

bash build/setup.sh
export PATH="/usr/local/go/bin:$PATH"
# The development build first: with the same flags (build/goflags.sh) it leaves every
# compiled package in Go's cache, and the binary below is only a link.
bash build/build.sh
. build/goflags.sh

version=${WAYMARK_VERSION:-$(sed -n 's/^\tVersion *= *"\(.*\)"$/\1/p' backend/cli/version.go)}
[ -n "$version" ] || { echo "package: no version in backend/cli/version.go" >&2; exit 1; }
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# "-modified" when a tracked file differs from the commit, except the screenshots the
# test tiers redraw (build/screenshots: pictures for the README and AppStream, not part
# of the binary), so a package built after the tests still names its commit as it is.
if [ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no -- . ':!build/screenshots' 2>/dev/null)" ]; then
  commit+="-modified"
fi
# The commit's date, not the clock's: the same commit packs the same binary.
date=$(git log -1 --format=%cd --date=format:%Y-%m-%d 2>/dev/null || date -u +%Y-%m-%d)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
mkdir -p "$root/DEBIAN" "$root/usr/bin"

echo "package: /usr/bin/waymark (go build -trimpath, stripped)"
pkg=github.com/waymark/waymark/backend/cli
go build "${go_flags[@]}" \
  -tags desktop,production,webkit2_41,sqlite_fts5 \
  -ldflags "$go_ldflags -s -w -X $pkg.Version=$version -X $pkg.Commit=$commit -X $pkg.BuildDate=$date" \
  -o "$root/usr/bin/waymark" ./app

share=$root/usr/share
install -D -m 0644 build/linux/io.github.waymark.Waymark.desktop "$share/applications/io.github.waymark.Waymark.desktop"
install -D -m 0644 build/linux/io.github.waymark.Waymark.metainfo.xml "$share/metainfo/io.github.waymark.Waymark.metainfo.xml"
install -D -m 0644 build/linux/icons/waymark.svg "$share/icons/hicolor/scalable/apps/waymark.svg"
for png in build/linux/icons/*x*.png; do
  size=$(basename "$png" .png)
  install -D -m 0644 "$png" "$share/icons/hicolor/$size/apps/waymark.png"
done
install -d "$share/man/man1"
gzip -9n <build/linux/waymark.1 >"$share/man/man1/waymark.1.gz"
ac=build/autoconsent/node_modules/@duckduckgo/autoconsent
install -D -m 0644 backend/browser/autoconsent/compact-rules.json "$share/waymark/autoconsent/compact-rules.json"
install -D -m 0644 backend/browser/autoconsent/autoconsent.playwright.js "$share/waymark/autoconsent/autoconsent.playwright.js"
install -D -m 0644 "$ac/LICENSE" "$share/waymark/autoconsent/LICENSE"
acversion=$(sed -n 's/.*"version": *"\(.*\)".*/\1/p' "$ac/package.json" | head -1)
# The PDF's hyphenation patterns, from Debian's hyphen-ru, hyphen-en-us and hyphen-fr (build/setup.sh
# installs them), unmodified and with their copyright files: recommending hyphen-ru
# would install LibreOffice Writer through its own Recommends (336 packages, 259 MB).
for p in hyphen-ru:hyph_ru_RU.dic hyphen-en-us:hyph_en_US.dic hyphen-fr:hyph_fr.dic; do
  pkg=${p%%:*} dic=${p#*:}
  install -D -m 0644 "/usr/share/hyphen/$dic" "$share/waymark/hyphen/$dic"
  install -D -m 0644 "/usr/share/doc/$pkg/copyright" "$share/waymark/hyphen/copyright.$pkg"
done
# libhyphen's .dic names its own encoding on its first line: the Russian one is KOI8-R,
# carried unmodified (hyphen-ru ships the same bytes), which lintian would flag.
install -d "$share/lintian/overrides"
printf '%s\n' "# libhyphen's pattern file names its encoding (KOI8-R) on its first line; carried unmodified from hyphen-ru." \
  'waymark: national-encoding [usr/share/waymark/hyphen/hyph_ru_RU.dic]' >"$share/lintian/overrides/waymark"
hyru=$(dpkg-query -W -f='${Version}' hyphen-ru)
hyen=$(dpkg-query -W -f='${Version}' hyphen-en-us)
hyfr=$(dpkg-query -W -f='${Version}' hyphen-fr)

doc=$share/doc/waymark
install -d "$doc"
# Every Go module in the binary and npm package in its window, with its licence
# (cmd/waymark-copyright fails on a licence it does not know).
go run ./cmd/waymark-copyright -autoconsent "$acversion" -hyphen-ru "$hyru" -hyphen-en-us "$hyen" -hyphen-fr "$hyfr" >"$doc/copyright"
cat <<EOF | gzip -9n >"$doc/changelog.gz"
waymark ($version) unstable; urgency=medium

  * Built from commit $commit.

 -- Waymark <waymark@users.noreply.github.com>  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
EOF
# Timestamps from the commit, so two builds of one commit differ only in the binary.
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

# The libraries the binary links, as Debian package names with versions.
shl=$stage/shlibs
mkdir -p "$shl/debian"
printf 'Source: waymark\n\nPackage: waymark\nArchitecture: amd64\n' >"$shl/debian/control"
libs=$(cd "$shl" && dpkg-shlibdeps -O "$root/usr/bin/waymark" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$libs" ] || { echo "package: dpkg-shlibdeps found no libraries for /usr/bin/waymark" >&2; exit 1; }

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: waymark
Version: $version
Architecture: amd64
Maintainer: Waymark <waymark@users.noreply.github.com>
Installed-Size: $size
Depends: $libs, hunspell-ru, hunspell-en-us, fonts-paratype
Recommends: chromium, pandoc
Suggests: orca
Section: editors
Priority: optional
Homepage: https://github.com/waymark/waymark
Description: offline assistant for Markdown manuscripts and browsing by numbers
 Waymark opens a whole novel in Markdown and edits it by commands: find the
 first mention of a character, collect scenes, rewrite a paragraph. Every
 edit changes only the passage it names, is saved at once and can be undone.
 Books are exported as DOCX, EPUB and PDF with their title, author and
 language.
 .
 For blind users it drives a real Chromium, numbers every link, button and
 field of a page, reads pages in short lines and acts only by those numbers.
 With a local OpenAI-compatible model server, commands and goals can be
 given in plain words; a built-in engine does the core jobs without one.
EOF
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$out"
deb=$out/waymark_${version}_amd64.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "package: $(du -h "$deb" | cut -f1) $deb (Depends: $libs, hunspell-ru, hunspell-en-us, fonts-paratype; Recommends: chromium, pandoc; Suggests: orca)"
echo "$deb"
