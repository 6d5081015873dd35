#!/usr/bin/env bash
# bench-kernels.sh: what the assembly kernels are worth, as a whole: the
# default build against one without them (-tags purego, the Go loops every
# other platform runs), on the benchmarks they are judged by, the whole
# cold and warm thumbnail (BenchmarkThumbnailCold, BenchmarkThumbnailWarm)
# and the corpus batch (BenchmarkCorpusThumbnails/jobs1). The two test
# binaries take turns, one benchmark at a time, for ROUNDS rounds, so a
# change in the machine's load moves both alike; the figure compared is
# the process's CPU time per thumbnail or model (cpu-ns/op, cpu-ns/model),
# which on a shared machine moves less than wall time. benchstat (pinned
# below) prints the medians and the change.
#
#   scripts/bench-kernels.sh
#
# MDXR_SHARED overrides the shared folder (the benchmarks' models are in
# its corpus); ROUNDS (default 10) is the number of rounds; OUT (default
# $TMPDIR/bench-kernels) keeps the test binaries and the raw figures.
#
# One kernel's own worth, which decides whether it stays (each kernel's
# comment gives its figure), was measured by switching it off alone
# against the others within one process, alternately: a patch of the
# moment, not kept.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/corpus-lib.sh
corpus_shared bench-kernels
ROUNDS=${ROUNDS:-10}
TMP=${TMPDIR:-/tmp}
OUT=${OUT:-$TMP/bench-kernels}
BENCHSTAT=golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
mkdir -p "$OUT"
go test -c -o "$OUT/kernels.test" .
go test -c -tags purego -o "$OUT/purego.test" .

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD)  cpus: $(nproc) ($cpu)  load: $(cut -d' ' -f1-3 /proc/loadavg)"

: >"$OUT/kernels.txt"
: >"$OUT/purego.txt"
for _ in $(seq "$ROUNDS"); do
	for b in kernels purego; do
		MDXR_SHARED=$SHARED "$OUT/$b.test" -test.run '^$' -test.bench 'Thumbnail(Cold|Warm)$' -test.benchtime 200x >>"$OUT/$b.txt"
		MDXR_SHARED=$SHARED "$OUT/$b.test" -test.run '^$' -test.bench 'CorpusThumbnails/jobs1$' -test.benchtime 2x >>"$OUT/$b.txt"
	done
done
go run "$BENCHSTAT" -filter '.unit:(cpu-ns/op OR cpu-ns/model)' "$OUT/kernels.txt" "$OUT/purego.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
