#!/usr/bin/env bash
# bench-vs-reference.sh: the whole-corpus throughput comparison with the
# reference viewer (mdx-m3-viewer 5.12.0 in headless Chromium, through
# ../shared/tools/peer/render.mjs) in one go. Every .mdx/.mdl file of the
# shared corpus is rendered once by the reference harness (256², sequence
# 0 at 0 ms, over black, no simulation, one warm browser launch); the
# models it renders without error are the "valid" set. Our batch then
# renders that set (256², ssaa 1, no particles, over black, one PNG each,
# --force) with the default number of workers and with one, RUNS times
# each, timed as whole processes (start-up, planning, texture search and
# decoding, rendering, PNG encoding, manifest).
#
# The reference's rate is its valid models over the sum of their per-job
# wall times (browser start and failed jobs left out, which favours it);
# ours is the same models over the process's wall time (median of RUNS).
# Prints the machine, commit and load, both rates and the ratios.
#
#   scripts/bench-vs-reference.sh
#
# MDXR_SHARED overrides the shared folder; PEER_WORK (default
# /tmp/peer-work) is where ../shared/tools/peer/install.sh put the
# harness; OUT (default $TMPDIR/bench-vs-reference) keeps the outputs;
# RUNS (default 3) is the number of timed runs of our batch per setting.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=$(cd "${MDXR_SHARED:-../shared}" && pwd)
TMP=${TMPDIR:-/tmp}
OUT=${OUT:-$TMP/bench-vs-reference}
RUNS=${RUNS:-3}
export PEER_WORK=${PEER_WORK:-/tmp/peer-work}
PEER=$SHARED/tools/peer
[ -f "$PEER/render.mjs" ] || { echo "bench-vs-reference: $PEER/render.mjs not found (set MDXR_SHARED)" >&2; exit 2; }
[ -d "$PEER_WORK/node_modules" ] || { echo "bench-vs-reference: run bash $PEER/install.sh first" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT"
go build -o "$OUT/mdxrender" ./cmd/mdxrender

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD)  cpus: $(nproc) ($cpu)  load: $(cut -d' ' -f1-3 /proc/loadavg)"

# The reference: one job per model file, paths quoted (some have spaces).
find "$SHARED/corpus/files" -type f \( -iname '*.mdx' -o -iname '*.mdl' \) | LC_ALL=C sort |
	sed 's/"/\\"/g; s/.*/"&"/' >"$OUT/all.txt"
node "$PEER/render.mjs" --list "$OUT/all.txt" --out-dir "$OUT/peer" --size 256 --bg '#000000' \
	--warmup --quiet --report "$OUT/peer.json" >/dev/null || true # failed jobs exit 1
node -e '
const fs = require("fs");
const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const ok = r.jobs.filter(j => j.ok);
fs.writeFileSync(process.argv[2], ok.map(j => j.model + "\n").join(""));
const wall = ok.reduce((s, j) => s + j.timings.wall_ms, 0) / 1000;
fs.writeFileSync(process.argv[3], `${ok.length} ${r.jobs.length} ${wall.toFixed(3)} ${r.summary.browser_start_total_ms}\n`);
' "$OUT/peer.json" "$OUT/valid.txt" "$OUT/peer.txt"
read -r nvalid nall peerwall peerstart <"$OUT/peer.txt"
peerrate=$(echo "$nvalid / $peerwall" | bc -l)
printf 'reference: %d of %d model files rendered; %.2f s of job wall time (browser start %.1f s not counted) = %.1f models/s\n' \
	"$nvalid" "$nall" "$peerwall" "$(echo "$peerstart / 1000" | bc -l)" "$peerrate"

# Ours: the same models, as one batch process.
ours() { # jobs -> prints "wall user+sys failed"
	cat >"$OUT/batch.yaml" <<EOF
inputs: {list: $OUT/valid.txt}
output: {dir: $OUT/ours, formats: [png], name: "{path}-{ext}"}
render: {size: 256, ssaa: 1, particles: false, background: "#000000"}
jobs: $1
EOF
	rm -rf "$OUT/ours"
	local t0 t1
	t0=$(date +%s.%N)
	/usr/bin/time -f '%U %S' -o "$OUT/time.txt" "$OUT/mdxrender" batch -c "$OUT/batch.yaml" --force \
		>"$OUT/batch.stdout" 2>"$OUT/batch.stderr" || true
	t1=$(date +%s.%N)
	local failed
	failed=$(grep -o '[0-9]* failed' "$OUT/batch.stdout" | grep -o '[0-9]*' || echo 0)
	read -r u s < <(tail -n1 "$OUT/time.txt")
	echo "$(echo "$t1 - $t0" | bc -l) $(echo "$u + $s" | bc -l) $failed"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for jobs in 0 1; do
	walls=()
	for _ in $(seq "$RUNS"); do
		read -r wall cpu failed < <(ours "$jobs")
		walls+=("$wall")
		printf '  ours, jobs %d: %.2f s wall, %.2f s CPU, %s failed\n' "$jobs" "$wall" "$cpu" "$failed"
	done
	med=$(printf '%s\n' "${walls[@]}" | median)
	rate=$(echo "$nvalid / $med" | bc -l)
	label="default workers ($(nproc))"
	[ "$jobs" = 1 ] && label="one worker"
	printf 'ours, %s: median %.2f s = %.1f models/s = %.1fx the reference\n' "$label" "$med" "$rate" "$(echo "$rate / $peerrate" | bc -l)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
