# The systemd checks, run by warden-vmtest.service once the system is up.
# Each check is one line (lib.sh). bash.
. /vm/lib.sh
exec >/dev/ttyS0 2>&1
W=/usr/local/bin/warden
EXPECTED_SKIPS=""
echo "vmtest: systemd $(systemctl --version | head -1), kernel $(uname -r)"
echo "vmtest: boot $(timeout 120 systemctl is-system-running --wait) after $(cut -d' ' -f1 /proc/uptime)s"

check systemd-cgroup-v2 test "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs

# The children's cgroups live under the service's subtree while it runs,
# and nothing is left after the unit ends. (First: it also fills the
# unit's cache, which a cold doctor probe could outwait under emulation.)
run_in_unit() {
	u=warden-run@$1.service
	echo 'const end = Date.now() + 3000; while (Date.now() < end) {} return "done"' >/run/warden-run.js
	systemctl start "$u" &
	started=$!
	sub=/sys/fs/cgroup/system.slice/system-warden\\x2drun.slice/$u
	seen=
	# Polled slowly: every process this loop starts takes emulated CPU
	# from the one under test.
	for i in $(seq 1 120); do
		seen=$(find "$sub" -mindepth 1 -type d -name 'child-*' 2>/dev/null | head -1)
		[ -n "$seen" ] && break
		kill -0 $started 2>/dev/null || break
		sleep 0.5
	done
	wait $started
	rc=$?
	cat /run/warden-run-$1.txt; tail -5 /run/warden-run-$1.err
	[ $rc -eq 0 ] || { echo "systemctl start $u: exit $rc"; return 1; }
	[ -n "$seen" ] || { echo "no child cgroup under $sub"; return 1; }
	echo "child group: $seen"
	grep -q '"value":"done"' /run/warden-run-$1.txt || return 1
	left=$(find /sys/fs/cgroup -type d \( -name 'warden-[0-9]*' -o -name 'warden-ns[0-9]*' \))
	[ -z "$left" ] || { echo "left: $left"; return 1; }
}
check delegate-run-root-children-in-subtree run_in_unit root
check delegate-run-user-children-in-subtree run_in_unit warden

# warden doctor as each user, in a unit under Delegate=yes: every layer
# active (the unit's hardening, when it has some, must not break one).
doctor_in_unit() {
	systemctl start "warden-doctor@$1.service"
	rc=$?
	show /run/warden-doctor-$1.txt
	[ $rc -eq 0 ] || { journalctl -b -u "warden-doctor@$1" --no-pager | tail -20; return 1; }
	grep -q '^6 cgroup  *active .*mode v2' /run/warden-doctor-$1.txt || return 1
	! grep -q ' MISSING ' /run/warden-doctor-$1.txt
}
check doctor-unit-root-every-layer doctor_in_unit root
check doctor-unit-user-every-layer doctor_in_unit warden

# The HOME/cache-path bug: a service user with no HOME and no cache
# setting gets a clear error naming the setting, never go-plugin's
# "Unrecognized remote plugin message"; with CacheDirectory= it works.
no_home() {
	systemctl start "warden-nohome@$1.service"
	show /run/warden-nohome-$1.txt
	! grep -q 'Unrecognized remote plugin message' /run/warden-nohome-$1.txt || return 1
	grep -q 'HOME=unset' /run/warden-nohome-$1.txt || return 1
	case $1 in
	bare) grep -q -- '--cache-dir' /run/warden-nohome-$1.txt && grep -q 'exit 2' /run/warden-nohome-$1.txt ;;
	cachedir) grep -q '"value":1' /run/warden-nohome-$1.txt ;;
	esac
}
check no-home-error-names-cache-dir no_home bare
check no-home-cachedirectory-works no_home cachedir

. /vm/daemon-checks.sh
. /vm/podman-checks.sh

vm_summary
systemctl poweroff -f
