#!/usr/bin/env bash
# bench-targets.sh: the benchmarks of the speed targets
# (docs/performance.md#the-targets-and-where-they-stand) in one run. Each
# round runs every target benchmark once, one after another, so that a
# change in the machine's speed (a shared VM has slow and quick phases)
# moves them all alike; after ROUNDS rounds it prints each figure's
# minimum, first quartile, median and maximum.
#
#   rasteriser, ssaa 1 and 4 (ns per shaded fragment, process CPU time),
#     pinned to one CPU (taskset -c 0, so GOMAXPROCS is 1) and with all;
#   warm render and cold thumbnail of the unit (ms, process CPU time),
#     the cold one pinned and not.
#
#   scripts/bench-targets.sh
#
# MDXR_SHARED overrides the shared folder (the unit model is in its
# corpus); ROUNDS (default 12) is the number of rounds; OUT (default
# $TMPDIR/bench-targets) keeps the test binaries and the raw figures.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/corpus-lib.sh
corpus_shared bench-targets
command -v taskset >/dev/null || { echo "bench-targets: taskset (util-linux) is needed to pin to one CPU" >&2; exit 2; }
ROUNDS=${ROUNDS:-12}
TMP=${TMPDIR:-/tmp}
OUT=${OUT:-$TMP/bench-targets}
mkdir -p "$OUT"
go test -c -o "$OUT/raster.test" ./pkg/raster
go test -c -o "$OUT/root.test" .

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD)  cpus: $(nproc) ($cpu)  load: $(cut -d' ' -f1-3 /proc/loadavg)"

# fig PIN BIN BENCH N METRIC: one run's figure.
fig() {
	local pin=()
	[ "$1" = 1 ] && pin=(taskset -c 0)
	MDXR_SHARED=$SHARED "${pin[@]}" "$OUT/$2" -test.run '^$' -test.bench "$3" -test.benchtime "$4" -test.count 1 |
		grep -o "[0-9.]* $5" | head -1 | cut -d' ' -f1
}
: >"$OUT/rounds.txt"
for _ in $(seq "$ROUNDS"); do
	echo "$(fig 1 raster.test 'Unit256SSAA1core$' 300x cpu-ns/fragment)" \
		"$(fig 0 raster.test 'Unit256SSAA1core$' 300x cpu-ns/fragment)" \
		"$(fig 1 raster.test 'Unit256SSAA4core$' 60x cpu-ns/fragment)" \
		"$(fig 0 raster.test 'Unit256SSAA4core$' 60x cpu-ns/fragment)" \
		"$(fig 0 root.test 'ThumbnailWarm$' 300x cpu-ns/op)" \
		"$(fig 0 root.test 'ThumbnailCold$' 300x cpu-ns/op)" \
		"$(fig 1 root.test 'ThumbnailCold$' 300x cpu-ns/op)" >>"$OUT/rounds.txt"
done

awk -v rounds="$ROUNDS" '
BEGIN { n = 0 }
NF == 7 { for (j = 1; j <= 7; j++) v[j, n] = $j; n++ }
END {
	split("raster ssaa 1, one CPU (ns)|raster ssaa 1, all CPUs (ns)|raster ssaa 4, one CPU (ns)|raster ssaa 4, all CPUs (ns)|warm render, all CPUs (ms)|cold thumbnail, all CPUs (ms)|cold thumbnail, one CPU (ms)", name, "|")
	if (n < rounds) { print "bench-targets: only " n " of " rounds " rounds gave every figure" > "/dev/stderr"; exit 1 }
	for (j = 1; j <= 7; j++) {
		for (i = 0; i < n; i++) x[i] = v[j, i] / (j >= 5 ? 1e6 : 1)
		# insertion sort: n is small
		for (i = 1; i < n; i++) { t = x[i]; for (k = i - 1; k >= 0 && x[k] > t; k--) x[k + 1] = x[k]; x[k + 1] = t }
		med = n % 2 ? x[int(n / 2)] : (x[n / 2 - 1] + x[n / 2]) / 2
		printf "%-32s min %7.3f  q1 %7.3f  median %7.3f  max %7.3f\n", name[j], x[0], x[int(n / 4)], med, x[n - 1]
	}
}' "$OUT/rounds.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
