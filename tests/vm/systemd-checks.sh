# The systemd checks, run by warden-vmtest.service once the system is up.
# Each check is one line (lib.sh). bash.
. /vm/lib.sh
exec >/dev/ttyS0 2>&1
W=/usr/local/bin/warden
EXPECTED_SKIPS=""
echo "vmtest: systemd $(systemctl --version | head -1), kernel $(uname -r)"

check systemd-cgroup-v2 test "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs

# warden doctor as each user, in a unit under Delegate=yes.
doctor_in_unit() {
	systemctl start "warden-doctor@$1.service" || { journalctl -b -u "warden-doctor@$1" --no-pager | tail -20; return 1; }
	cat /run/warden-doctor-$1.txt
	grep -q '^6 cgroup  *active .*mode v2' /run/warden-doctor-$1.txt || return 1
	! grep -q ' missing ' /run/warden-doctor-$1.txt
}
check doctor-unit-root-every-layer doctor_in_unit root
check doctor-unit-user-every-layer doctor_in_unit warden

# The children's cgroups live under the service's subtree while it runs,
# and nothing is left after the unit ends.
run_in_unit() {
	u=warden-run@$1.service
	echo 'const end = Date.now() + 3000; while (Date.now() < end) {} return "done"' >/run/warden-run.js
	systemctl start --no-block "$u"
	sub=/sys/fs/cgroup/system.slice/system-warden\\x2drun.slice/$u
	seen=
	for i in $(seq 1 100); do
		seen=$(find "$sub" -mindepth 1 -type d -name 'child-*' 2>/dev/null | head -1)
		[ -n "$seen" ] && break
		sleep 0.1
	done
	for i in $(seq 1 200); do
		systemctl is-active -q "$u" || break
		sleep 0.1
	done
	cat /run/warden-run-$1.txt; tail -5 /run/warden-run-$1.err
	[ -n "$seen" ] || { echo "no child cgroup under $sub"; return 1; }
	echo "child group: $seen"
	grep -q '"value":"done"' /run/warden-run-$1.txt || return 1
	left=$(find /sys/fs/cgroup -type d -name 'warden-*')
	[ -z "$left" ] || { echo "left: $left"; return 1; }
}
check delegate-run-root-children-in-subtree run_in_unit root
check delegate-run-user-children-in-subtree run_in_unit warden

# The HOME/cache-path bug: a service user with no usable HOME and no
# cache setting must get a clear error naming the setting, never
# go-plugin's "Unrecognized remote plugin message".
no_home() {
	out=$(systemd-run --wait --pipe -q -p User=warden -p Delegate=yes -E HOME= $W run - <<<'return 1' 2>&1)
	echo "$out"
	case "$out" in
	*'"value":1'*) return 0 ;;
	*Unrecognized*) return 1 ;;
	*--cache-dir*) return 0 ;;
	*) return 1 ;;
	esac
}
check no-home-clear-cache-error no_home

. /vm/daemon-checks.sh

vm_summary
systemctl poweroff -f
