#!/usr/bin/env bash
# bench-mpq.sh: time listing and extracting every file of an MPQ archive with
# mdxrender (pkg/mpq) and with StormLib's smpq, side by side on this
# machine. By default the archive is the largest one in the shared corpus.
# Uses hyperfine when installed, else a timed loop. Prints the machine load
# first: figures taken on a busy machine are not final.
#
#   scripts/bench-mpq.sh [ARCHIVE]
#
# MDXR_SHARED overrides the shared folder; RUNS (default 20) sets the number
# of timed runs of each command.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${MDXR_SHARED:-../shared}
RUNS=${RUNS:-20}
archive=${1:-}
if [ -z "$archive" ]; then
	archive=$(find "$SHARED/corpus/archives" -type f \( -name '*.w3x' -o -name '*.w3m' -o -name '*.mpq' \) -printf '%s\t%p\n' | sort -rn | head -1 | cut -f2)
fi
[ -f "$archive" ] || { echo "bench-mpq.sh: no archive (give one, or put ../shared beside the checkout)" >&2; exit 1; }
command -v smpq >/dev/null || { echo "bench-mpq.sh: smpq is not installed (apt-get install -y smpq)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/mdxrender" ./cmd/mdxrender
archive=$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")
echo "archive: $archive ($(stat -c %s "$archive") bytes)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD)  cpus: $(nproc)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "smpq: $(dpkg-query -W -f '${Version}' smpq 2>/dev/null), StormLib $(dpkg-query -W -f '${Version}' libstorm9 2>/dev/null)"

ls_ours="$tmp/mdxrender archive ls '$archive'"
ls_smpq="smpq -l '$archive'"
x_ours="$tmp/mdxrender archive extract '$archive' -o '$tmp/ours' >/dev/null 2>&1 || true"
x_smpq="cd '$tmp/smpq' && smpq -x '$archive' >/dev/null 2>&1 || true"
prep="rm -rf '$tmp/ours' '$tmp/smpq' && mkdir -p '$tmp/smpq'"

if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 3 --runs "$RUNS" --style basic \
		-n "ls: mdxrender" "$ls_ours" -n "ls: smpq" "$ls_smpq" 2>&1 | grep -v '^ *$'
	hyperfine --warmup 3 --runs "$RUNS" --style basic --prepare "$prep" \
		-n "extract: mdxrender" "$x_ours" -n "extract: smpq" "$x_smpq" 2>&1 | grep -v '^ *$'
else
	for cmd in "$ls_ours" "$ls_smpq" "$x_ours" "$x_smpq"; do
		start=$(date +%s%N)
		for _ in $(seq "$RUNS"); do
			bash -c "$prep" && bash -c "$cmd" >/dev/null
		done
		end=$(date +%s%N)
		printf '%-60s %8.2f ms/run\n' "${cmd:0:60}" "$(echo "($end - $start) / $RUNS / 1000000" | bc -l)"
	done
fi
