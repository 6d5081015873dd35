#!/usr/bin/env bash
# fidelity.sh: render every view of the reference viewer's jobs
# (../shared/reference/peer/jobs.tsv) with its exact camera and compare with
# the reference PNG using ../shared/tools/imgdiff (over black, tolerance 16).
# The references are single frames without particles: --particles=false
# (scripts/fidelity-particles.sh compares the simulated ones), drawn by the
# harness's orbit camera (--camera orbit, also for a portrait model) with
# the viewer's white stand-in for a missing texture (--missing-textures
# white). Textures are
# looked for where the reference looked: beside the model, and in the root
# of the map the model is in only for the jobs of map_root_models below.
# Prints one line per view and a summary line.
#
#   scripts/fidelity.sh [-k] [extra render flags...]
#
# MDXR_SHARED overrides the shared folder; OUT (default $TMPDIR/fidelity)
# keeps our renders and diff images; -k keeps going quietly on render errors
# (they always count as failures).
set -u
cd "$(dirname "$0")/.."
. scripts/fidelity-lib.sh
fidelity_setup fidelity peer

# The jobs whose reference was rendered with the root of the map the model
# is in (map.w3x/) as a texture root, where their textures are
# (../shared/README.md): their models, as in jobs.tsv's model column. Every
# other reference looked beside the model only.
map_root_models='
../corpus/files/wc3-orpg/map.w3x/war3mapImported/KW_jungletree1.mdx
../corpus/files/wc3-orpg/map.w3x/war3mapImported/KW_jungletree2.mdx
../corpus/files/wc3-orpg/map.w3x/war3mapImported/KW_tree3.mdx
'

total=0 under1=0 over5=0 failed=0
summary=$OUT/summary.tsv
: >"$summary"
# Columns: image model sequence sequence_name time_ms team bg yaw pitch fov
# distance target near far coverage. Model paths are relative to
# reference/; empty fields become "-" (read would collapse them). The map
# root is searched for the models listed above only (--map-root).
while IFS=$'\t' read -r image model seq seqname time team bg yaw pitch fov dist target near far coverage; do
	[ "$image" = image ] && continue
	total=$((total + 1))
	maproot=false
	if printf '%s\n' "$map_root_models" | grep -qxF -- "$model"; then maproot=true; fi
	if ! render_job --particles=false --map-root=$maproot "$@"; then
		failed=$((failed + 1))
		printf '%-90s RENDER-ERROR %s\n' "$image" "$(tail -n1 "$OUT/$image.stderr")"
		printf '%s\t100\terror\n' "$image" >>"$summary"
		continue
	fi
	line=$(diff_job)
	pct=$(printf '%s\n' "$line" | grep -o 'mismatch[^0-9]*[0-9.]*' | grep -o '[0-9.]*$' | head -n1)
	[ -z "$pct" ] && pct=100
	printf '%-90s %s\n' "$image" "$line"
	printf '%s\t%s\n' "$image" "$pct" >>"$summary"
	if awk -v p="$pct" 'BEGIN{exit !(p < 1)}'; then under1=$((under1 + 1)); fi
	if awk -v p="$pct" 'BEGIN{exit !(p > 5)}'; then over5=$((over5 + 1)); fi
done < <(fidelity_jobs)
over5=$((over5 + failed))
echo "summary: $total views, $under1 under 1% mismatch ($(awk -v a=$under1 -v b=$total 'BEGIN{printf "%.1f", b ? 100*a/b : 0}')%), $over5 over 5% (render errors: $failed)"
