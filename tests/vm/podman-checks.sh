# The container image under podman (issue 12 item 7), sourced by
# systemd-checks.sh: deploy/podman-run.sh with the image the build made
# from the binary under test (/vm/image.tar), once per mode, each of its
# steps reported as a check, what `warden doctor` said in the container
# on the console.
#
# The guest's kernel has no modules (no bridge, veth, netfilter or
# overlay), so podman uses the host's network (NETWORK=host) and the vfs
# storage driver, and crun chroots instead of pivot_root, which an
# initramfs root refuses (/etc/containers, from the build).
if [ ! -f /vm/image.tar ] || [ ! -f /vm/deploy/podman-run.sh ] || ! command -v podman >/dev/null; then
	skip podman-checks "no image, no deploy/podman-run.sh or no podman in this guest"
	return 0
fi

# podman_steps MODE: runs podman-run.sh MODE, then one check per step,
# PASS when the script printed the step's line.
podman_steps() {
	local mode=$1 out=/run/podman-$1.txt rc
	(cd /vm && HOME=/root IMAGE_ARCHIVE=/vm/image.tar WARDEN=$W NETWORK=host PORT=18080 \
		timeout 240 sh /vm/deploy/podman-run.sh "$mode") >"$out" 2>&1
	rc=$?
	echo "vmtest: podman-run.sh $mode exited $rc"
	# The console gets the script's output but for doctor's (below).
	sed '/warden doctor inside the container:/,/podman-run: stopping/d' "$out" | show /dev/stdin
	step_seen "podman-$mode-load" "$out" '^podman-run: image '
	step_seen "podman-$mode-ready" "$out" '^podman-run: ready after '
	step_seen "podman-$mode-http-equals-local" "$out" "^podman-run: the daemon's envelope equals a local run's"
	sed -n '/warden doctor inside the container:/,/podman-run: stopping/p' "$out" | sed '1d;$d' >/run/podman-doctor-$mode.txt
	echo "vmtest: warden doctor in the container ($mode):"
	show /run/podman-doctor-$mode.txt
	step_seen "podman-$mode-stop-drain-exit-0" "$out" "^podman-run: PASS ($mode)"
}
# step_seen NAME FILE PATTERN
step_seen() { check "$1" grep -q -- "$3" "$2"; }

podman_steps privileged
# Privileged (what the manifests grant): every layer.
check podman-privileged-doctor-every-layer sh -c \
	'cat /run/podman-doctor-privileged.txt; grep -q "^6 cgroup  *active .*mode v2" /run/podman-doctor-privileged.txt && ! grep -q " MISSING " /run/podman-doctor-privileged.txt'

podman_steps minimal
# Minimal (the systemd unit's capabilities, no --privileged): podman
# mounts the cgroup filesystem read-only, so the cgroup layer is the one
# expected MISSING (children get rlimits instead); every other layer is
# active.
check podman-minimal-doctor-all-but-cgroup sh -c \
	'cat /run/podman-doctor-minimal.txt; grep -q "^6 cgroup  *MISSING .*read-only file system" /run/podman-doctor-minimal.txt && [ "$(grep -c " MISSING " /run/podman-doctor-minimal.txt)" = 1 ]'
