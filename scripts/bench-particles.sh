#!/usr/bin/env bash
# bench-particles.sh: the price of a simulation work unit on every path of
# pkg/particles (docs/particles.md#work-units). It runs BenchmarkSimulate
# (New to AdvanceTo and the frame's Meshes) and BenchmarkMeshes (one
# frame's geometry) COUNT times and prints per path the work of one
# operation, and the median, minimum and maximum of the process CPU time
# per unit (cpu-ns/unit: the figure the prices aim at, 10-20 ns, so that
# the default 200 M units stop any simulation within 2-4 s of CPU), with
# the machine, its load and the commit.
#
#   scripts/bench-particles.sh
#   BENCH='Simulate/prem' COUNT=5 scripts/bench-particles.sh
#
# BENCH (default '.') selects benchmarks as go test -bench does; COUNT
# (default 3) is the number of runs; BENCHTIME (default 1s) is go test's
# -benchtime (a time, so that the small paths run long enough for the
# process CPU clock); OUT (default $TMPDIR/bench-particles) keeps the
# test binary and the raw output.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=${BENCH:-.}
COUNT=${COUNT:-3}
BENCHTIME=${BENCHTIME:-1s}
OUT=${OUT:-${TMPDIR:-/tmp}/bench-particles}
mkdir -p "$OUT"
go test -c -o "$OUT/particles.test" ./pkg/particles

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD)  cpus: $(nproc) ($cpu)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
(cd pkg/particles && "$OUT/particles.test" -test.run '^$' -test.bench "$BENCH" -test.benchtime "$BENCHTIME" -test.count "$COUNT") |
	tee "$OUT/raw.txt" | grep '^Benchmark' |
	awk '{
		name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
		for (i = 3; i < NF; i += 2) {
			if ($(i+1) == "cpu-ns/unit") cpu[name] = cpu[name] " " $i
			if ($(i+1) == "units/op") units[name] = $i
		}
		if (!(name in seen)) { seen[name] = 1; order[++n] = name }
	}
	END {
		printf "%-26s %14s %10s %8s %8s\n", "path", "units/op", "median", "min", "max"
		for (k = 1; k <= n; k++) {
			name = order[k]
			m = split(substr(cpu[name], 2), v, " ")
			if (m == 0) continue
			# sort v numerically (insertion sort: m is small)
			for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
			printf "%-26s %14.0f %10.1f %8.1f %8.1f\n", name, units[name], v[int((m + 1) / 2)], v[1], v[m]
		}
	}'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
