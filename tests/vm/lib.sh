# Shared by the guests' check scripts (busybox sh and bash): each check
# prints one line the Go driver (vm_test.go) parses, and vm_summary the
# closing "N passed, N failed".
#
#   vmcheck: PASS NAME
#   vmcheck: FAIL NAME: REASON
#   vmcheck: SKIP NAME: REASON      (only for skips the lane declares)
#
# A test that skips is a failed check unless EXPECTED_SKIPS names it.
EXPECTED_SKIPS=${EXPECTED_SKIPS:-}
VM_PASSED=0
VM_FAILED=0
VM_SKIPPED=0
VM_LOG=${VM_LOG:-/tmp/vmcheck.log}

pass() { VM_PASSED=$((VM_PASSED + 1)); echo "vmcheck: PASS $1"; }
fail() {
	VM_FAILED=$((VM_FAILED + 1))
	n=$1; shift
	echo "vmcheck: FAIL $n: $*"
}
skip() { VM_SKIPPED=$((VM_SKIPPED + 1)); n=$1; shift; echo "vmcheck: SKIP $n: $*"; }

# check NAME CMD...: PASS when CMD exits 0, FAIL with its output's tail
# otherwise.
check() {
	# local: the check's own functions may use any name (n, rc).
	local vm_name=$1 vm_rc
	shift
	if "$@" >"$VM_LOG" 2>&1; then
		pass "$vm_name"
	else
		vm_rc=$?
		sed 's/^/    | /' "$VM_LOG" | tail -n 25
		fail "$vm_name" "exit $vm_rc"
	fi
}

# gotests BINARY "CHECK=TestName ..." [TEST FLAGS...]: runs the named
# top-level Go tests in one run of BINARY (one compilation cache for all)
# and reports each as its check: PASS when it passed, FAIL when it failed,
# did not run, or skipped (unless EXPECTED_SKIPS, "CHECK=reason;...",
# lists it).
gotests() {
	local bin=$1 pairs=$2 re= rc p n tn reason why
	shift 2
	for p in $pairs; do re="$re|${p#*=}"; done
	timeout 400 "$bin" -test.run "^(${re#|})\$" -test.v -test.count=1 -test.timeout 360s "$@" >"$VM_LOG" 2>&1
	rc=$?
	for p in $pairs; do
		n=${p%%=*} tn=${p#*=}
		# The test's own lines, from its RUN to its verdict.
		awk -v t="$tn" '$0 == "=== RUN   " t {on=1} on && !/^=== (RUN|PAUSE|CONT)/ {print} on && $0 ~ "^--- (PASS|FAIL|SKIP): " t " " {exit}' "$VM_LOG" >/tmp/vmtest.one
		# A subtest that skipped counts as the test skipping.
		if grep -q "^--- PASS: $tn " /tmp/vmtest.one && ! grep -q '^ *--- SKIP: ' /tmp/vmtest.one; then
			pass "$n"
		elif grep -q "^--- FAIL: $tn " /tmp/vmtest.one; then
			sed 's/^/    | /' /tmp/vmtest.one | tail -n 30
			fail "$n" "failed"
		elif grep -q -- "--- SKIP: $tn" /tmp/vmtest.one; then
			# Which (sub)test skipped, and the line before its verdict
			# (t.Skip's message).
			reason=$(grep -- '--- SKIP' /tmp/vmtest.one | head -2 | sed 's/ (.*//' | tr -s ' \n' ' ')$(grep -B1 -- '--- SKIP' /tmp/vmtest.one | grep -v -- '--- ' | head -2 | tr -s ' \n' ' ')
			case ";$EXPECTED_SKIPS;" in
			*";$n="*)
				why=";$EXPECTED_SKIPS"
				why=${why#*";$n="}
				skip "$n" "${why%%;*} (the test said:$reason)"
				;;
			*)
				fail "$n" "skipped:$reason"
				;;
			esac
		else
			sed 's/^/    | /' /tmp/vmtest.one | tail -n 15
			tail -n 15 "$VM_LOG" | sed 's/^/    | /'
			fail "$n" "did not run to a verdict ($bin exited $rc)"
		fi
	done
}

# show FILE: puts FILE on the console even when its check passes (what
# warden doctor said is part of the lane's report).
show() { sed 's/^/    > /' "$1" >/dev/ttyS0; }

vm_summary() {
	echo "vmcheck: $VM_SKIPPED skipped as expected"
	echo "$VM_PASSED passed, $VM_FAILED failed"
}
