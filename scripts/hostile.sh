#!/usr/bin/env bash
# Runs the full-size hostile-input corpus of files and renders (textures,
# MDL geometry, particle storms, a parent cycle, special files as models,
# a texture root with a link leading out; made by testdata/hostile/gen.go)
# through `mdxrender texture`, `inspect`, `convert` and `render`, each under
# `timeout 60` and `/usr/bin/time -v`, at the default budgets, and prints
# per case the exit status, wall time, CPU time (user + system), peak RSS
# and the first line of the error or warning, then the worst CPU time and
# memory. The bound is on CPU time, the work a case costs, which a busy
# machine does not inflate as it does the wall clock.
#
#   scripts/hostile.sh                 # build, generate into a temp folder, run
#   MDXRENDER=/path/to/mdxrender scripts/hostile.sh   # another binary
#   HOSTILE_DIR=/tmp/hostile scripts/hostile.sh       # reuse generated files
#   HOSTILE_CASES='texture|mdl' scripts/hostile.sh    # only cases matching
#
# Exit status: 1 when a case took over 10 s of CPU time or 500 MB, was killed by the
# timeout, crashed (a panic, or an exit status above 2), printed more than 6 KB of
# messages, or named what it must not (the folder outside the texture
# root); 0 otherwise. A clear error (exit 1) is a pass: the point is
# bounded time, memory and messages.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bin=${MDXRENDER:-}
if [[ -z $bin ]]; then
	bin=$work/mdxrender
	(cd "$root" && go build -o "$bin" ./cmd/mdxrender)
fi
dir=${HOSTILE_DIR:-}
if [[ -z $dir ]]; then
	dir=$work/cases
	(cd "$root" && go run ./testdata/hostile/gen.go -o "$dir" >/dev/null)
elif [[ ! -e $dir/mdl_long_strings.mdl ]]; then
	(cd "$root" && go run ./testdata/hostile/gen.go -o "$dir" >/dev/null)
fi

max_s=10
max_mb=500
max_msg=6144
worst_s=0
worst_mb=0
worst_s_case=
worst_mb_case=
fail=0

printf '%-48s %4s %7s %7s %7s  %s\n' case exit wall_s cpu_s RSS_MB message
# run NAME ARGS...: one case. With ABSENT set, no message may contain it.
run() {
	local name=$1
	shift
	selected "$name" || return 0
	local log=$work/log err=$work/err
	local status=0
	(cd "$dir" && /usr/bin/time -v -o "$log" timeout 60 "$bin" "$@" >/dev/null 2>"$err") || status=$?
	local wall secs mb
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$log")
	secs=$(awk -F': ' '/(User|System) time \(seconds\)/ {s += $2} END {print s}' "$log")
	mb=$(awk -F': ' '/Maximum resident set size/ {printf "%d", $2 / 1024}' "$log")
	local msg
	# The error if there is one, else the first warning.
	msg=$( (grep -v -e '^Command exited' -e '^mdxrender: warning' "$err" || true; grep '^mdxrender: warning' "$err" || true) | head -n 1 | cut -c1-160)
	printf '%-48s %4s %7.2f %7.2f %7d  %s\n' "$name" "$status" "$wall" "$secs" "$mb" "$msg"
	local bytes
	bytes=$(wc -c <"$err")
	if ((bytes > max_msg)); then
		echo "    ^ $bytes bytes of messages, more than $max_msg"
		fail=1
	fi
	if [[ -n ${ABSENT:-} ]] && grep -qF -- "$ABSENT" "$err"; then
		echo "    ^ a message names $ABSENT"
		fail=1
	fi
	if awk -v s="$secs" -v w="$worst_s" 'BEGIN {exit !(s > w)}'; then
		worst_s=$secs worst_s_case=$name
	fi
	if ((mb > worst_mb)); then
		worst_mb=$mb worst_mb_case=$name
	fi
	# Exit 1 (an error) and 2 (a usage or configuration error) are
	# answers; a Go panic or fatal error also exits 2, so those are told
	# by what they print.
	if ((status > 2)) || grep -q -e '^panic: ' -e '^fatal error: ' "$err" || awk -v s="$secs" -v m="$max_s" 'BEGIN {exit !(s > m)}' || ((mb > max_mb)); then
		echo "    ^ crashed, timed out, or over ${max_s} s or ${max_mb} MB"
		fail=1
	fi
}

# selected NAME: whether the case NAME runs (HOSTILE_CASES).
selected() { [[ $1 =~ ${HOSTILE_CASES:-.} ]]; }

out=$work/out.png
for t in blp_frame8192_in_64.blp blp_4096_13_full_frames.blp blp_8192_14_levels.blp blp_8192_16_full_frames.blp \
	blp_progressive_1800_scans.blp jpg_progressive_1800_scans.jpg jpg_sequential_500_scans.jpg \
	png16_rgba_8192.png png8_rgba_8192.png; do
	run "texture $t" texture "$t" -o "$out"
	run "render uses_$t.mdl" render "uses_$t.mdl" -o "$out"
done
run "inspect mdl_vertices_6.5M.mdl" inspect mdl_vertices_6.5M.mdl
run "render mdl_vertices_6.5M.mdl" render mdl_vertices_6.5M.mdl -o "$out"
run "render mdl_at_quota.mdl" render mdl_at_quota.mdl -o "$out"
run "sheet mdl_at_quota_64_sequences.mdl" sheet mdl_at_quota_64_sequences.mdl -o "$work/out-sheet"
for m in pre2_10 pre2_200 pre2_2000 pre2_200_short ribbon_500 ribbon_500_short ribbon_storm prem_many \
	storm_pre2_keys storm_pre2_squirt storm_pre2_idle storm_ribbon_keys storm_chain storm_bone_keys \
	storm_prem_bones storm_prem_keys storm_prem_small; do
	run "render $m.mdl --time 500" render "$m.mdl" --time 500 -o "$out"
done
run "render quad.mdl --size 8192 --ssaa 2" render quad.mdl --size 8192 --ssaa 2 -o "$out"
run "inspect mdl_cycle_1000.mdl" inspect mdl_cycle_1000.mdl
run "render mdl_cycle_1000.mdl" render mdl_cycle_1000.mdl -o "$out"
run "render mdl_long_strings.mdl" render mdl_long_strings.mdl -o "$out"
run "render mdl_long_strings.mdl --sequence 5" render mdl_long_strings.mdl --sequence 5 -o "$out"
# Special files as models (and textures): refused before they are opened.
for s in fifo.mdx dev_zero.mdx dev_urandom.mdx; do
	run "inspect $s" inspect "$s"
	run "render $s" render "$s" -o "$out"
	run "convert $s" convert "$s" "$work/out.mdl"
	run "texture $s" texture "$s" -o "$out"
done
# A texture root whose folder link leads out: refused, never named.
outside=$(cd "$dir/outside" && pwd -P)
ABSENT=$outside run "render uses_link.mdl --textures texroot" render linkuser/uses_link.mdl --textures texroot -o "$out"

# One budget per model: many textures whose sum is over it, padded files,
# one compressed block read under many names (render, and batch, which
# also hashes them); a map above a batch's input folder is not searched.
run "render map_16_names_one_png.w3x:m.mdl" render map_16_names_one_png.w3x:m.mdl -o "$out"
run "render loose16/m.mdl" render loose16/m.mdl -o "$out"
run "render map_8_padded_blps.w3x:m.mdl" render map_8_padded_blps.w3x:m.mdl -o "$out"
run "batch map_8_padded_blps.w3x" batch map_8_padded_blps.w3x -o "$work/out-padded"
run "render map_20_names_one_block.w3x:m.mdl" render map_20_names_one_block.w3x:m.mdl -o "$out"
run "batch map_20_names_one_block.w3x" batch map_20_names_one_block.w3x -o "$work/out-20"
run "batch above/in" batch above/in -o "$work/out-above"
if selected "batch above/in" && ! grep -q '"missing-texture"' "$work/out-above/manifest.json" 2>/dev/null; then
	echo "    ^ the map's root above the input folder was searched"
	fail=1
fi
# Writes: extraction within its budget; nothing written through a link
# planted in the output folder; archive names with control characters.
run "archive extract extract_bomb_2g.mpq" archive extract extract_bomb_2g.mpq -o "$work/x1"
run "archive extract extract_bomb_64_names.mpq" archive extract extract_bomb_64_names.mpq -o "$work/x2"
run "archive extract extract_bomb_64m_64_names.mpq" archive extract extract_bomb_64m_64_names.mpq -o "$work/x3" --limit extract_bytes=200Mi
rm -rf "$work/x1" "$work/x2" "$work/x3"
mkdir -p "$work/linkout" "$work/elsewhere"
ln -sfn ../elsewhere "$work/linkout/link"
run "archive extract extract_link.mpq (out/link)" archive extract extract_link.mpq -o "$work/linkout"
run "batch batch_odd_names.w3x (out/link)" batch batch_odd_names.w3x -o "$work/linkout"
if [[ -n $(ls -A "$work/elsewhere") ]]; then
	echo "    ^ written through the link: $(ls -A "$work/elsewhere" | head -3)"
	fail=1
fi
run "archive ls ls_names.mpq" archive ls ls_names.mpq
if selected "archive ls ls_names.mpq" && ! (cd "$dir" && "$bin" archive ls ls_names.mpq 2>&1 || true) | perl -ne 'exit 1 if /[\x00-\x08\x0b-\x1f\x7f]/'; then
	echo "    ^ archive ls printed a raw control character"
	fail=1
fi

# Archives that cost at open or in a listing.
for a in mpq_listfile_16Mi_names mpq_unnamed_bzip2_200 mpq_names_one_block mpq_names_440k mpq_names_1m mpq_compressed_table_256Mi; do
	run "archive ls $a.mpq" archive ls "$a.mpq"
done
run "archive ls --json mpq_names_440k.mpq" archive ls --json mpq_names_440k.mpq
for a in mpq_deep16_names mpq_deep500_names mpq_names_one_block; do
	run "inspect $a.mpq" inspect "$a.mpq"
done
run "render mpq_listfile_16Mi_names.mpq:a --textures" render quad.mdl --textures mpq_listfile_16Mi_names.mpq -o "$out"
# Batch configurations: refused with FILE:LINE before they are parsed;
# messages escaped and at most 20 problems.
for c in "$dir"/config/*; do
	c=${c#"$dir"/}
	run "batch -c $c" batch -c "$c" -o "$work/out-config"
done
if selected config_escapes && ! (cd "$dir" && "$bin" batch -c config/config_escapes.yaml -o "$work/out-config" 2>&1 || true) | perl -ne 'exit 1 if /[\x00-\x08\x0b-\x1f\x7f]/'; then
	echo "    ^ a configuration's names reached the terminal raw"
	fail=1
fi

echo
echo "worst CPU time: ${worst_s} s ($worst_s_case); worst RSS: ${worst_mb} MB ($worst_mb_case)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
exit $fail
