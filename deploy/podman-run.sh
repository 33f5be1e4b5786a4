#!/bin/sh
# deploy/podman-run.sh: run the image `make image` built under podman and
# check it serves: load the OCI archive, start `warden serve` in a
# container, wait for /readyz, run a script over HTTP with
# `warden run --server` (and the same script locally, for comparison),
# print what `warden doctor` says inside the container, then stop it with
# SIGTERM (drain) and check it exited 0.
#
# For a cgroup v2 machine (the VM test lane): podman's runtime refuses
# hosts with hybrid v1/v2 cgroups. Run as root from the repository root,
# after `make image`. Needs podman and curl.
#
#   deploy/podman-run.sh [privileged|minimal]
#
#   privileged  (default) what deploy/kubernetes/deployment.yaml grants:
#               every layer (own uid per child, namespaces, private /proc,
#               per-child cgroups).
#   minimal     only the capabilities of deploy/systemd/warden.service,
#               AppArmor unconfined: the cgroup layer is expected to be
#               missing (read-only cgroup filesystem); doctor says so.
#
# Environment: IMAGE_ARCHIVE (default bin/image.tar), WARDEN (the host's
# binary for `run --server`, default bin/warden), PORT (host port,
# default 18080), NETWORK (default: podman's network with the port
# published on 127.0.0.1; "host": the host's network, the daemon listening
# on 127.0.0.1:PORT, for hosts with no bridge, veth or netfilter modules,
# like the VM lane's guest). Exit status 0 only if every step passed.
set -eu

mode=${1:-privileged}
archive=${IMAGE_ARCHIVE:-bin/image.tar}
warden=${WARDEN:-bin/warden}
port=${PORT:-18080}
network=${NETWORK:-}
name=warden-podman-run-$$

fail() { echo "podman-run: FAIL: $*" >&2; exit 1; }
step() { echo "podman-run: $*" >&2; }

case $mode in
privileged) opts="--privileged" ;;
minimal) opts="--cap-drop=all --cap-add=SETUID,SETGID,SYS_ADMIN,KILL,CHOWN,DAC_OVERRIDE --security-opt apparmor=unconfined" ;;
*) fail "unknown mode $mode (want privileged or minimal)" ;;
esac
for c in podman curl; do command -v $c >/dev/null || fail "$c is not installed"; done
[ -f "$archive" ] || fail "$archive is missing: run make image"
[ -x "$warden" ] || fail "$warden is missing: run make build"

tmp=$(mktemp -d)
cleanup() {
	podman rm -f "$name" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

step "loading $archive"
image=$(podman load -i "$archive" | sed -n 's/^Loaded image[^:]*: *//p' | tail -n 1)
[ -n "$image" ] || fail "podman load named no image"
step "image $image"

# A tenant and its token; the daemon keeps only the hash.
token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf '%s\n' "$token" >"$tmp/token"
printf 'vm %s\n' "$(printf %s "$token" | sha256sum | cut -d' ' -f1)" >"$tmp/tokens"
chmod 0644 "$tmp/tokens"

case $network in
host) net="--network host" listen=127.0.0.1:$port ;;
'') net="-p 127.0.0.1:$port:8080" listen=0.0.0.0:8080 ;;
*) fail "unknown NETWORK $network (want host or nothing)" ;;
esac

step "starting the daemon ($mode)"
# shellcheck disable=SC2086 # opts and net are lists of options
podman run -d --name "$name" $opts $net \
	-v "$tmp/tokens:/etc/warden/tokens:ro" \
	"$image" --listen "$listen" --tokens /etc/warden/tokens >/dev/null

i=0
until curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
	i=$((i + 1))
	if [ $i -gt 120 ] || [ "$(podman inspect -f '{{.State.Running}}' "$name")" != true ]; then
		podman logs "$name" 2>&1 | tail -n 30 >&2
		fail "the daemon did not become ready within 60s"
	fi
	sleep 0.5
done
step "ready after ~$((i / 2))s; healthz: $(curl -fsS "http://127.0.0.1:$port/healthz")"

cat >"$tmp/script.js" <<'EOF'
console.log("hello from", typeof input);
return { sum: input.a + input.b, sha: sha256("warden") };
EOF
step "running a script over HTTP"
remote=$("$warden" run --server "http://127.0.0.1:$port" --token-file "$tmp/token" --input '{"a":40,"b":2}' "$tmp/script.js") ||
	fail "warden run --server: exit $? ($remote)"
echo "$remote"
local_out=$("$warden" run --input '{"a":40,"b":2}' "$tmp/script.js") || true
# The envelopes agree but for stats (times, pids).
strip() { printf '%s\n' "$1" | sed 's/"stats":{[^}]*},//'; }
if [ "$(strip "$remote")" != "$(strip "$local_out")" ]; then
	echo "local: $local_out" >&2
	fail "the daemon's envelope differs from a local run's"
fi
step "the daemon's envelope equals a local run's (but for stats)"

step "warden doctor inside the container:"
podman exec "$name" /usr/bin/warden doctor || step "doctor reported missing layers (exit $?)"

step "stopping (SIGTERM: drain)"
podman stop -t 45 "$name" >/dev/null
code=$(podman inspect -f '{{.State.ExitCode}}' "$name")
podman logs "$name" 2>&1 | tail -n 5 >&2
[ "$code" = 0 ] || fail "the daemon exited $code after SIGTERM"
step "PASS ($mode)"
