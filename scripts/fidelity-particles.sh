#!/usr/bin/env bash
# fidelity-particles.sh: render every view of the reference viewer's
# simulated particle jobs (../shared/reference/peer-particles/jobs.tsv) with
# its exact camera, time, step and seed (no pre-roll, as the harness) and
# compare with the reference PNG using ../shared/tools/imgdiff (over black,
# tolerance 16). Prints one line per view (mismatch, MAE, silhouette IoU)
# and a summary over the non-empty views (reference coverage > 0): how many
# reach IoU >= 0.8 with mismatch < 5%.
#
#   scripts/fidelity-particles.sh [-k] [extra render flags...]
#
# MDXR_SHARED overrides the shared folder; OUT (default
# $TMPDIR/fidelity-particles) keeps our renders and diff images.
set -u
cd "$(dirname "$0")/.."
. scripts/fidelity-lib.sh
fidelity_setup fidelity-particles peer-particles

total=0 nonempty=0 pass=0 failed=0
summary=$OUT/summary.tsv
printf 'image\tcoverage\tmismatch\tiou\tpass\n' >"$summary"
# Columns: image model sequence sequence_name time_ms team bg yaw pitch fov
# distance target near far coverage simulate step_ms seed.
while IFS=$'\t' read -r image model seq seqname time team bg yaw pitch fov dist target near far coverage simulate step seed; do
	[ "$image" = image ] && continue
	total=$((total + 1))
	if ! render_job --particles=true --map-root=false --step-ms "$step" --seed "$seed" --preroll-ms 0 "$@"; then
		failed=$((failed + 1))
		printf '%-90s RENDER-ERROR %s\n' "$image" "$(tail -n1 "$OUT/$image.stderr")"
		printf '%s\t%s\t100\t0\terror\n' "$image" "$coverage" >>"$summary"
		continue
	fi
	line=$(diff_job)
	pct=$(printf '%s\n' "$line" | grep -o 'mismatch=[0-9.]*' | cut -d= -f2)
	iou=$(printf '%s\n' "$line" | grep -o 'iou=[0-9.]*' | cut -d= -f2)
	[ -z "$pct" ] && pct=100
	[ -z "$iou" ] && iou=0
	ok=empty
	if awk -v c="$coverage" 'BEGIN{exit !(c > 0)}'; then
		nonempty=$((nonempty + 1))
		ok=no
		if awk -v p="$pct" -v i="$iou" 'BEGIN{exit !(p < 5 && i >= 0.8)}'; then
			pass=$((pass + 1))
			ok=yes
		fi
	fi
	printf '%-80s %-5s %s\n' "$image" "$ok" "$line"
	printf '%s\t%s\t%s\t%s\t%s\n' "$image" "$coverage" "$pct" "$iou" "$ok" >>"$summary"
done < <(fidelity_jobs)
echo "summary: $total views, $nonempty non-empty, $pass of them with IoU >= 0.8 and mismatch < 5% ($(awk -v a=$pass -v b=$nonempty 'BEGIN{printf "%.1f", b ? 100*a/b : 0}')%) (render errors: $failed)"
