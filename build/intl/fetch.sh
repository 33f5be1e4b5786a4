#!/bin/sh
# Fetches the Unicode CLDR JSON packages build/intl/packages.sha256 pins
# (the CLDR version Node 20's ICU ships), with the ordinary npm client,
# checks each tarball's SHA-256, and generates the engine's Intl data
# from them (build/intl/main.go) into OUT_DIR, replacing what is there.
# Nothing fetched is kept: only the generated, git-ignored data.
#
# Usage: build/intl/fetch.sh OUT_DIR
set -eu
out=${1:?usage: fetch.sh OUT_DIR}
# The generator needs only the repository's go.mod, not a -modfile a
# caller's GOFLAGS names (make's points at the patched wazero, which may
# not be prepared yet).
export GOFLAGS=
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src"
while read -r sum spec; do
	[ -n "$sum" ] || continue
	name=${spec%@*}
	echo "fetching $spec with npm pack"
	(cd "$tmp" && npm pack --silent "$spec" >"$tmp/$name.name")
	file=$tmp/$(cat "$tmp/$name.name")
	got=$(sha256sum "$file" | cut -d' ' -f1)
	if [ "$got" != "$sum" ]; then
		echo "build/intl: $spec sha256 mismatch: got $got, want $sum" >&2
		exit 1
	fi
	mkdir -p "$tmp/src/$name"
	tar xzf "$file" -C "$tmp/src/$name"
done <"$here/packages.sha256"
rm -rf "$out.tmp"
# The IANA time zones: the tz database Go ships ($GOROOT/lib/time, what
# time/tzdata embeds), read by the engine without a file system.
(cd "$root" && go run ./build/intl -src "$tmp/src" -out "$out.tmp" -tz "$(go env GOROOT)/lib/time/zoneinfo.zip")
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out ok (CLDR $(sed -n 's/.*"cldrVersion":"\([^"]*\)".*/\1/p' "$out/supplemental.json"))"
