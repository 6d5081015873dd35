#!/usr/bin/env bash
# Runs every fuzz target of the module for a fixed time each, one worker
# (-parallel 1), and reports per target the executions and the findings:
# new files under the package's testdata/fuzz (a crash, a hang, a failed
# check, which Go saves there for `go test` to replay).
#
#   scripts/fuzz.sh             # 10 minutes per target
#   scripts/fuzz.sh 5           # 5 minutes per target
#   scripts/fuzz.sh 1 'BLP|DDS' # only targets matching the regexp
#
# Minimising a new interesting input is limited to FUZZ_MINIMIZE (default
# 10s) instead of Go's 60 s: with one worker, the minimiser's quadratic
# search over a kilobyte-sized input (a mutated corpus seed) otherwise
# holds the only worker for a minute at 0 executions a second, again and
# again (what looked like FuzzParseMDL hanging).
#
# Exit status: 1 when any target found something (the files stay, to be
# turned into regression tests) or failed to run; 0 otherwise.
set -euo pipefail

minutes=${1:-10}
filter=${2:-.}
minimize=${FUZZ_MINIMIZE:-10s}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# `go test -list` prints each package's matching names, then "ok <pkg>".
mapfile -t lines < <(go test -list '^Fuzz' ./... 2>/dev/null | awk '
	/^Fuzz/ { names[++n] = $1; next }
	/^ok / { for (i = 1; i <= n; i++) print $2 " " names[i]; n = 0 }')

fail=0
total=0
printf '%-12s %-28s %-44s %12s %8s  %s\n' minutes target package execs "execs/s" findings
for line in "${lines[@]}"; do
	pkg=${line% *}
	target=${line#* }
	[[ $target =~ $filter ]] || continue
	total=$((total + 1))
	dir=$(go list -f '{{.Dir}}' "$pkg")
	before=$(find "$dir/testdata/fuzz/$target" -type f 2>/dev/null | sort || true)
	status=0
	go test -run '^$' -fuzz "^${target}\$" -fuzztime "${minutes}m" -fuzzminimizetime "$minimize" -parallel 1 "$pkg" >"$log" 2>&1 || status=$?
	after=$(find "$dir/testdata/fuzz/$target" -type f 2>/dev/null | sort || true)
	new=$(comm -13 <(echo "$before") <(echo "$after") | sed '/^$/d' || true)
	# The last progress line: "fuzz: elapsed: 10m0s, execs: 123456 (205/sec), new interesting: ..."
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -n 1 | awk '{print $2}')
	rate=$(awk -v e="${execs:-0}" -v m="$minutes" 'BEGIN {printf "%d", e / (m * 60)}')
	findings=none
	if [[ -n $new ]]; then
		findings=$(echo "$new" | sed "s|^$root/||" | paste -sd' ')
		fail=1
	elif ((status != 0)); then
		findings="go test failed: $(grep -m1 -e '--- FAIL' -e 'hung' -e 'panic' -e 'Error' "$log" || tail -n 1 "$log")"
		fail=1
	fi
	printf '%-12s %-28s %-44s %12s %8s  %s\n' "$minutes" "$target" "$pkg" "${execs:-?}" "${rate:-?}" "$findings"
	if [[ $findings != none ]]; then
		grep -v '^fuzz: elapsed' "$log" | tail -n 20 | sed 's/^/    /' >&2
	fi
done
echo "$total targets; load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
exit $fail
