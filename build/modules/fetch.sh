#!/bin/sh
# Fetches the npm packages build/modules/packages.sha256 pins, with the
# ordinary npm client, checks each tarball's SHA-256, and bundles each
# into one ES module (build/modules/main.go, esbuild's build API: the
# packages are trusted input, read at build time) into OUT_DIR, replacing
# what is there. Nothing fetched is kept: only the bundles, which are
# git-ignored. OUT_DIR is what `warden run --modules` and `warden serve`'s
# modules_dir take.
#
# Usage: build/modules/fetch.sh OUT_DIR
set -eu
out=${1:?usage: fetch.sh OUT_DIR}
case $out in /*) ;; *) out=$PWD/$out ;; esac
export GOFLAGS=
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/node_modules"
while read -r sum spec; do
	[ -n "$sum" ] || continue
	name=${spec%@*}
	echo "fetching $spec with npm pack"
	(cd "$tmp" && npm pack --silent "$spec" >"$tmp/$name.name")
	file=$tmp/$(cat "$tmp/$name.name")
	got=$(sha256sum "$file" | cut -d' ' -f1)
	if [ "$got" != "$sum" ]; then
		echo "build/modules: $spec sha256 mismatch: got $got, want $sum" >&2
		exit 1
	fi
	mkdir -p "$tmp/node_modules/$name"
	tar xzf "$file" -C "$tmp/node_modules/$name" --strip-components=1
done <"$here/packages.sha256"
rm -rf "$out.tmp"
(cd "$root" && go run ./build/modules -src "$tmp" -out "$out.tmp" -pins "$here/packages.sha256")
rm -rf "$out"
mv "$out.tmp" "$out"
