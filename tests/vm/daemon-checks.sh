# The daemon checks (issue 12's `warden serve` and its unit), sourced by
# systemd-checks.sh. They run when the build put deploy/systemd/warden.service
# into the image and bin/warden has a serve command; until then one
# declared skip says they did not run.
if [ ! -f /vm/deploy/warden.service ] || ! $W serve -h 2>&1 | grep -q -- '-listen'; then
	skip daemon-checks "no deploy/systemd/warden.service or no 'warden serve' in this tree yet"
	return 0
fi
