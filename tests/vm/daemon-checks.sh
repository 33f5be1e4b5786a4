# The daemon checks (issue 12's `warden serve` and deploy/systemd's unit),
# sourced by systemd-checks.sh. They run when the build put the unit into
# the image (/vm/deploy) and bin/warden has a serve command; until then
# one declared skip says they did not run.
if [ ! -f /vm/deploy/warden.service ] || ! $W serve -h 2>&1 | grep -q -- '-listen'; then
	skip daemon-checks "no deploy/systemd/warden.service or no 'warden serve' in this tree yet"
	return 0
fi

TOKEN=vmtest-token
svc=/sys/fs/cgroup/system.slice/warden.service
install -m 0644 /vm/deploy/warden.service /etc/systemd/system/warden.service
mkdir -p /etc/warden /etc/systemd/system/warden.service.d
if [ -f /vm/deploy/config.yaml ]; then
	install -m 0644 /vm/deploy/config.yaml /etc/warden/config.yaml
else
	printf 'listen: 127.0.0.1:8080\ntokens_file: /etc/warden/tokens\n' >/etc/warden/config.yaml
fi
echo "vmtest $(printf %s "$TOKEN" | sha256sum | cut -d' ' -f1)" >/etc/warden/tokens
# The lane's bounds: a watchdog it can wait for, and room for TCG.
printf '[Service]\nWatchdogSec=8s\nTimeoutAbortSec=3s\nTimeoutStartSec=240s\nRestartSec=1s\n' >/etc/systemd/system/warden.service.d/vmtest.conf
systemctl daemon-reload

# http METHOD PATH [BODY]: one request over loopback (bash's /dev/tcp);
# prints the status line's code, then the body.
http() {
	exec 3<>/dev/tcp/127.0.0.1/8080 || return 1
	printf '%s %s HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
		"$1" "$2" "$TOKEN" "${#3}" "$3" >&3
	resp=$(cat <&3)
	exec 3<&-
	printf '%s\n' "$resp" | head -1 | cut -d' ' -f2
	printf '%s\n' "$resp" | sed '1,/^\r\{0,1\}$/d'
}

# Type=notify: active only once READY=1 (the pool is warm). While the
# unit is activating /readyz answers 200 only in the moment before
# systemd reads READY=1; once active, it does.
notify_ready() {
	systemctl start --no-block warden
	seen_activating=0
	for i in $(seq 1 480); do
		state=$(systemctl show -p ActiveState --value warden)
		case $state in
		active) break ;;
		activating)
			seen_activating=1
			code=$(http GET /readyz 2>/dev/null | head -1)
			# The daemon says READY=1 just after /readyz turns 200 and
			# systemd reads it when it reads it: 200 with the state read
			# before it is that window. Readiness unknown to systemd is
			# the unit still activating 5 s after /readyz said 200.
			if [ "$code" = 200 ]; then
				sleep 5
				[ "$(systemctl show -p ActiveState --value warden)" != activating ] ||
					{ echo "/readyz 200, and the unit still activating 5 s later"; return 1; }
			fi
			;;
		failed) break ;;
		esac
		sleep 0.5
	done
	systemctl is-active -q warden || { journalctl -b -u warden --no-pager | tail -20; return 1; }
	ready=$(http GET /readyz | head -1)
	echo "activating seen: $seen_activating; once active, /readyz $ready"
	[ "$seen_activating" = 1 ] && [ "$ready" = 200 ]
}
check daemon-notify-active-after-ready notify_ready

api() {
	out=$(http POST /v1/executions '{"code":"return 6*7"}')
	echo "$out"
	[ "$(echo "$out" | head -1)" = 200 ] && echo "$out" | grep -q '"value":42' || return 1
	out=$(TOKEN=wrong http POST /v1/executions '{"code":"return 1"}')
	echo "$out"
	[ "$(echo "$out" | head -1)" = 401 ]
}
check daemon-http-api-loopback api

# Delegate=yes: an execution's child has its group under the service's
# subtree while it runs.
in_flight() {
	http POST /v1/executions '{"code":"const e = Date.now() + 4000; while (Date.now() < e) {} return \"drained\"","limits":{"timeout_ms":20000}}' >/run/inflight.txt &
	inflight=$!
	for i in $(seq 1 300); do
		find "$svc" -mindepth 2 -type d -name 'child-*' 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	return 1
}
delegate_children() {
	in_flight || { echo "no child group under $svc"; return 1; }
	find "$svc" -type d -name 'child-*' | head -3
	wait $inflight
	cat /run/inflight.txt
	grep -q '"value":"drained"' /run/inflight.txt
}
check daemon-children-under-service-subtree delegate_children

# systemctl stop drains: an execution in flight finishes (200, its value),
# then nothing of the service is left in the cgroup tree.
drain() {
	in_flight || return 1
	systemctl stop warden
	wait $inflight
	cat /run/inflight.txt
	grep -q '"value":"drained"' /run/inflight.txt || return 1
	left=$(find "$svc" -mindepth 1 -type d 2>/dev/null)
	[ -z "$left" ] || { echo "left under $svc: $left"; return 1; }
	! pgrep -f '^warden-child'
}
check daemon-stop-drains-and-cleans drain

# The watchdog: a daemon that stops pinging (SIGSTOP) is restarted.
watchdog() {
	systemctl start warden || return 1
	before=$(systemctl show -p NRestarts --value warden)
	kill -STOP "$(systemctl show -p MainPID --value warden)"
	for i in $(seq 1 1200); do
		n=$(systemctl show -p NRestarts --value warden)
		[ "$n" -gt "$before" ] && systemctl is-active -q warden && break
		sleep 0.1
	done
	echo "NRestarts $before -> $n"
	[ "$n" -gt "$before" ] && systemctl is-active -q warden
}
check daemon-watchdog-restarts watchdog

# systemctl kill -s KILL: no child outlives the daemon.
kill_all() {
	systemctl is-active -q warden || systemctl start warden || return 1
	in_flight || return 1
	pids=$(pgrep -f '^warden-child' | tr '\n' ' ')
	echo "children: $pids"
	systemctl kill -s KILL warden
	wait $inflight 2>/dev/null
	sleep 2
	for p in $pids; do
		tr '\0' ' ' </proc/$p/cmdline 2>/dev/null | grep -q '^warden-child' && { echo "child $p survived"; return 1; }
	done
	systemctl stop warden
	return 0
}
check daemon-kill-leaves-no-child kill_all

# The unit's hardening breaks no layer: `warden doctor` run under exactly
# the unit's settings (its [Service] with ExecStart replaced) reports
# every layer active.
hardened_doctor() {
	sed -e 's/^Type=.*/Type=oneshot/' -e '/^ExecStart=/c ExecStart=/usr/local/bin/warden doctor' \
		-e '/^\(ExecReload\|WatchdogSec\|Restart\|RestartSec\|NotifyAccess\)=/d' \
		/etc/systemd/system/warden.service >/etc/systemd/system/warden-doctor-hardened.service
	sed -i '/^\[Install\]/,$d' /etc/systemd/system/warden-doctor-hardened.service
	printf 'StandardOutput=truncate:/run/warden-doctor-hardened.txt\n' >>/etc/systemd/system/warden-doctor-hardened.service
	systemctl daemon-reload
	systemctl start warden-doctor-hardened
	rc=$?
	show /run/warden-doctor-hardened.txt
	[ $rc -eq 0 ] && ! grep -q ' MISSING ' /run/warden-doctor-hardened.txt && grep -q '^6 cgroup  *active .*mode v2' /run/warden-doctor-hardened.txt
}
check daemon-unit-hardening-keeps-every-layer hardened_doctor
