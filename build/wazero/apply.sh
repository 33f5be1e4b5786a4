#!/bin/sh
# Prepares the patched wazero that `make build` and `make test` compile
# against (RATIONALE.md, "Why a patch to wazero"): the module as the Go module
# proxy serves it (checked against go.sum by `go mod download`), copied out
# of the module cache, with build/wazero/$VERSION.patch applied, and a
# go.mod that replaces wazero with it. The repository's go.mod is never
# changed: a plain `go build` gets stock wazero.
#
# Usage: build/wazero/apply.sh OUT_DIR
# Writes OUT_DIR/wazero (the patched module), OUT_DIR/go.mod and
# OUT_DIR/go.sum (for `go build -modfile OUT_DIR/go.mod`). Refuses, and
# leaves nothing half-applied, when go.mod's wazero version has no patch
# or the patch does not apply cleanly.
set -eu
out=${1:?usage: apply.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
# The go.mod of the repository, not a -modfile a caller's GOFLAGS names.
export GOFLAGS=

version=$(cd "$root" && go list -m -f '{{.Version}}' github.com/tetratelabs/wazero)
patchfile=$here/$version.patch
if [ ! -f "$patchfile" ]; then
	echo "build/wazero: go.mod requires wazero $version, but the patch is for $(ls "$here" | sed -n 's/\.patch$//p' | tr '\n' ' ')" >&2
	echo "build/wazero: port the patch to $version (RATIONALE.md, \"Why a patch to wazero\"), or build stock wazero with 'make build WAZERO_PATCH=0'" >&2
	exit 1
fi

# Nothing to do when the last run applied this patch, with this script,
# to this version.
stamp="$version $(sha256sum "$patchfile" "$0" | cut -d' ' -f1 | tr '\n' ' ') $(sha256sum "$root/go.mod" "$root/go.sum" | cut -d' ' -f1 | tr '\n' ' ')"
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] && [ -d "$out/wazero" ]; then
	exit 0
fi

src=$(cd "$root" && go mod download -json "github.com/tetratelabs/wazero@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$src" ] || [ ! -f "$src/go.mod" ]; then
	echo "build/wazero: go mod download found no source for wazero $version" >&2
	exit 1
fi

tmp=$out/wazero.tmp
rm -rf "$tmp" "$out/stamp"
cp -R "$src" "$tmp"
chmod -R u+w "$tmp"
# -F0: every context line must match; patch would otherwise apply a hunk
# whose surroundings changed upstream.
if ! patch -d "$tmp" -p1 -F0 --no-backup-if-mismatch --dry-run --quiet -f <"$patchfile" >"$out/patch.log" 2>&1; then
	cat "$out/patch.log" >&2
	rm -rf "$tmp"
	echo "build/wazero: $patchfile does not apply to wazero $version: port it (RATIONALE.md, \"Why a patch to wazero\")" >&2
	exit 1
fi
patch -d "$tmp" -p1 -F0 --no-backup-if-mismatch --quiet -f <"$patchfile"
rm -rf "$out/wazero"
mv "$tmp" "$out/wazero"

# go.mod and go.sum for -modfile: the repository's, plus the replace.
cp "$root/go.sum" "$out/go.sum"
{ cat "$root/go.mod"; printf '\nreplace github.com/tetratelabs/wazero => %s\n' "$out/wazero"; } >"$out/go.mod"
echo "$stamp" >"$out/stamp"
echo "build/wazero: wazero $version patched in $out/wazero"
