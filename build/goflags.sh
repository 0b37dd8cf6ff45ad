# Sourced by build/build.sh and build/package.sh: the flags of every Waymark binary.
# Both scripts build with the same ones, so the package's build reuses every package
# the development build compiled (Go's build cache keys a compiled package by
# -trimpath, -buildmode and the cgo flags; -ldflags only touch the final link).
# The C flags are Debian's dpkg-buildflags (hardening: fortify, stack protector),
# and the link is the system linker's with relro and bindnow, as dpkg-buildflags
# gives with hardening=+all; Go's -buildmode=pie makes the binary position independent.
export CGO_ENABLED=1
export CGO_CFLAGS="-g -O2 -fstack-protector-strong -Wformat -D_FORTIFY_SOURCE=2"
export CGO_CXXFLAGS="$CGO_CFLAGS"
# go build "${go_flags[@]}" -ldflags "$go_ldflags ..." ...
go_flags=(-trimpath -buildmode=pie -buildvcs=false)
go_ldflags="-linkmode=external -extldflags=-Wl,-z,relro,-z,now"
