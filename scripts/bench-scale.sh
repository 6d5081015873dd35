#!/usr/bin/env bash
# bench-scale.sh: what a batch costs as it grows (docs/performance.md#scale).
# For each size it builds a synthetic batch from corpus models, hard links
# under generated names (m0000000.mdx, ...) in folders of 10,000 (as a
# model-sharing site or a map repository keeps them), renders it at a
# small size, then runs it again fully cached (the resume of a batch
# that had finished, or had been killed after its last model), and
# prints, per size: the render's wall time, models/s, CPU time per model
# and peak RSS (KiB), then the cached resume's wall time, wall and CPU time
# per model and peak RSS; then, for each size, a render under the memory
# the first size's render used (Go's soft limit, GOMEMLIMIT, set to the
# largest anonymous RSS sampled during one more render of the first
# size, made for it): its peak RSS and CPU time per
# model, which show whether a longer batch needs more memory than a
# short one (it would run the collector without pause, or overrun the
# limit) or only lets the heap grow further because nothing stops it;
# then each later size against the first, as the targets put them (rate
# and peaks, in per cent). On a machine shared with other work, compare
# the CPU times: the wall times move with the load.
#
#   scripts/bench-scale.sh               # 1000 10000 100000
#   scripts/bench-scale.sh 1000 10000    # other sizes
#
# MDXR_SHARED overrides the shared folder; WORK (default
# $TMPDIR/bench-scale) holds the batches (hard links cost no space; the
# 100,000 thumbnails take some 2 GB with the file system's blocks); SIZE
# (default 32) is the render size; JOBS (default 0: every CPU) the
# models rendered at once. Needs jq, perl, GNU time (/usr/bin/time) and
# Linux's /proc.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/corpus-lib.sh
corpus_shared bench-scale
command -v jq >/dev/null || { echo "bench-scale: jq is needed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-scale: GNU time (/usr/bin/time) is needed" >&2; exit 2; }
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1000 10000 100000)
TMP=${TMPDIR:-/tmp}
WORK=${WORK:-$TMP/bench-scale}
SIZE=${SIZE:-32}
JOBS=${JOBS:-0}
PER_DIR=10000
mkdir -p "$WORK"
go build -o "$WORK/mdxrender" ./cmd/mdxrender
bin=$WORK/mdxrender

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes')  cpus: $(nproc) ($cpu)  load: $(cut -d' ' -f1-3 /proc/loadavg)"

# The models: the corpus's classic MDX files (version 800) that render
# without failing, so a resume finds every one of them cached (a failed
# model is always tried again). Textures are not linked: most are the
# game's, which a model-sharing site does not have either, and each
# missing one is looked for in the model's folder of 10,000.
pick=$WORK/models.txt
if [ ! -s "$pick" ]; then
	awk -F'\t' 'NR>1 && $6=="MDLX" && $7=="800" && tolower($1) ~ /\.mdx$/ {print "'"$SHARED"'/corpus/" $1}' \
		"$SHARED/corpus/manifest.tsv" >"$WORK/candidates.txt"
	rm -rf "$WORK/pick"
	MDXR_INPUTS_LIST="$WORK/candidates.txt" "$bin" batch -o "$WORK/pick" --size "$SIZE" >/dev/null 2>&1 || true
	jq -r '.models[] | select(.status == "ok") | .input' "$WORK/pick/manifest.json" >"$pick"
fi
models=()
while IFS= read -r m; do models+=("$m"); done <"$pick"
[ ${#models[@]} -gt 0 ] || { echo "bench-scale: no corpus model rendered" >&2; exit 1; }
echo "models: ${#models[@]} corpus models, linked round-robin; render size $SIZE; jobs $JOBS; folders of $PER_DIR"

# build N: the inputs of a batch of N models, made once and kept.
build() {
	local n=$1 in=$WORK/n$1/in
	[ -f "$WORK/n$n/built" ] && return
	rm -rf "$WORK/n$n"
	# One process for all the links: a process per link took minutes
	# for 100,000 on a loaded machine.
	perl -e 'my ($in, $n, $per, @m) = @ARGV;
		for my $i (0 .. $n - 1) {
			my $d = sprintf("%s/d%03d", $in, int($i / $per));
			if ($i % $per == 0) { system("mkdir", "-p", $d) == 0 or die "mkdir $d\n" }
			link($m[$i % @m], sprintf("%s/m%07d.mdx", $d, $i)) or die "link: $!\n";
		}' "$in" "$n" "$PER_DIR" "${models[@]}"
	touch "$WORK/n$n/built"
}

# The command of every render and resume, less its output folder and
# input: the limit is measured on the same render it is applied to.
batch=(batch --size "$SIZE" --jobs "$JOBS" --format png)

# run N LABEL: one batch run into the size's output folder; prints wall
# seconds, CPU seconds (user and system: what the run cost whatever else
# the machine was doing) and peak RSS in KiB.
run() {
	local n=$1 log=$WORK/n$1/$2.time
	/usr/bin/time -v "$bin" "${batch[@]}" -o "$WORK/n$n/out" "$WORK/n$n/in" \
		>"$WORK/n$n/$2.out" 2>"$log" </dev/null || { tail -5 "$log" >&2; return 1; }
	local wall cpu rss
	cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$log")
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$log")
	rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$log")
	echo "$wall $cpu $rss"
}

# anon_peak N: renders batch N afresh into a scratch folder and prints the
# largest anonymous RSS (KiB) sampled every 10 ms: the memory the Go
# runtime had touched, without the program's own pages, which is what
# GOMEMLIMIT counts.
anon_peak() {
	local n=$1 out=$WORK/n$1/anon peak=0 a pid
	rm -rf "$out"
	"$bin" "${batch[@]}" -o "$out" "$WORK/n$n/in" >/dev/null 2>&1 </dev/null &
	pid=$!
	while a=$(awk '/^RssAnon:/ {print $2}' "/proc/$pid/status" 2>/dev/null) && [ -n "$a" ]; do
		[ "$a" -gt "$peak" ] && peak=$a
		sleep 0.01
	done
	wait "$pid" || { echo "bench-scale: the sampled render of $n models failed" >&2; return 1; }
	rm -rf "$out"
	echo "$peak"
}

build "${SIZES[0]}"
limit=$(anon_peak "${SIZES[0]}")
echo "limit: GOMEMLIMIT=${limit}KiB, the largest anonymous RSS of a render of ${SIZES[0]} models"
printf '%-8s %9s %9s %11s %8s %9s %11s %11s %8s %11s %8s  %s\n' models render_s models/s cpu_ms/mdl rss_KiB resume_s ms/mdl cpu_ms/mdl rss_KiB lim_cpu_ms lim_rss load
against=()
for n in "${SIZES[@]}"; do
	build "$n"
	rm -rf "$WORK/n$n/out"
	read -r rw rc rr < <(run "$n" render)
	read -r cw cc cr < <(run "$n" resume)
	cached=$(jq '.summary.cached' "$WORK/n$n/out/manifest.json")
	[ "$cached" = "$n" ] || echo "bench-scale: the resume of $n models found $cached cached" >&2
	rm -rf "$WORK/n$n/out"
	read -r lw lc lr < <(GOMEMLIMIT="${limit}KiB" run "$n" limited)
	awk -v n="$n" -v rw="$rw" -v rc="$rc" -v rr="$rr" -v cw="$cw" -v cc="$cc" -v cr="$cr" -v lc="$lc" -v lr="$lr" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" \
		'BEGIN { printf "%-8d %9.1f %9.1f %11.3f %8d %9.2f %11.3f %11.3f %8d %11.3f %8d  %s\n", n, rw, n / rw, 1000 * rc / n, rr, cw, 1000 * cw / n, 1000 * cc / n, cr, 1000 * lc / n, lr, load }'
	against+=("$n $rw $rc $rr $cr $lc $lr")
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# Each later size against the first: the render's rate and the peaks,
# then the render under the limit against the first size's under it. The
# first line says what the limit itself costs at the first size.
read -r n0 rw0 rc0 rr0 cr0 lc0 lr0 <<<"${against[0]}"
awk -v n0="$n0" -v rc0="$rc0" -v rr0="$rr0" -v lc0="$lc0" -v lr0="$lr0" -v limit="$limit" \
	'BEGIN { printf "%d models under GOMEMLIMIT=%sKiB against without it: peak RSS %+.1f %%, CPU per model %+.1f %%\n", n0, limit, 100 * lr0 / rr0 - 100, 100 * lc0 / rc0 - 100 }'
for a in "${against[@]:1}"; do
	read -r n rw rc rr cr lc lr <<<"$a"
	awk -v n0="$n0" -v rw0="$rw0" -v rr0="$rr0" -v cr0="$cr0" -v lc0="$lc0" -v lr0="$lr0" -v n="$n" -v rw="$rw" -v rr="$rr" -v cr="$cr" -v lc="$lc" -v lr="$lr" \
		'BEGIN { printf "%d against %d models: render rate %+.1f %%, peak RSS render %+.1f %%, resume %+.1f %%; under the limit, peak RSS %+.1f %%, CPU per model %+.1f %%\n", n, n0, 100 * (n / rw) / (n0 / rw0) - 100, 100 * rr / rr0 - 100, 100 * cr / cr0 - 100, 100 * lr / lr0 - 100, 100 * (lc / n) / (lc0 / n0) - 100 }'
done
