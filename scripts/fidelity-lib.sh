# fidelity-lib.sh: what the scripts that compare our renders with the
# reference viewer's share. Sourced (not run) from the repository root.

# fidelity_setup NAME REFDIR: SHARED is the shared folder ($MDXR_SHARED,
# else ../shared), REF its reference/REFDIR and OUT ($OUT, else
# $TMPDIR/NAME) the folder for our renders, created; mdxrender and imgdiff
# are built into OUT. Exits 2 when REF has no jobs.tsv or a build fails.
fidelity_setup() {
	SHARED=${MDXR_SHARED:-../shared}
	REF=$SHARED/reference/$2
	OUT=${OUT:-${TMPDIR:-/tmp}/$1}
	mkdir -p "$OUT"
	if [ ! -f "$REF/jobs.tsv" ]; then
		echo "$1: $REF/jobs.tsv not found (set MDXR_SHARED)" >&2
		exit 2
	fi
	go build -o "$OUT/mdxrender" ./cmd/mdxrender || exit 2
	go -C "$SHARED/tools/imgdiff" build -o "$OUT/imgdiff" . || exit 2
}

# fidelity_jobs prints REF/jobs.tsv with every empty field as "-" (read
# would collapse them).
fidelity_jobs() {
	awk -F'\t' -v OFS='\t' '{for (i = 1; i <= NF; i++) if ($i == "") $i = "-"; print}' "$REF/jobs.tsv"
}

# render_job renders the job in the variables the scripts read from a
# jobs.tsv row (model, image, seq, time, team, bg, yaw, pitch, fov, dist,
# target, near, far) to $OUT/$image with the harness's camera and missing
# texture stand-in, adding the flags given; stderr goes to
# $OUT/$image.stderr.
render_job() {
	"$OUT/mdxrender" render "$SHARED/reference/$model" -o "$OUT/$image" --size 256 --sequence "$seq" --time "$time" \
		--team "$team" --bg "$bg" --yaw "$yaw" --pitch "$pitch" --fov "$fov" --distance "$dist" \
		--target "$target" --near "$near" --far "$far" \
		--camera orbit --missing-textures white "$@" 2>"$OUT/$image.stderr"
}

# diff_job prints imgdiff's comparison of $OUT/$image with the reference,
# writing the diff picture beside ours.
diff_job() {
	"$OUT/imgdiff" -diff "$OUT/${image%.png}.diff.png" "$REF/$image" "$OUT/$image" 2>&1 | sed 's/^[^ ]* //'
}

# fidelity_abs NAME: as fidelity_setup for the scripts that render with go
# test rather than mdxrender and take no jobs.tsv: SHARED and OUT as
# absolute paths (go test runs in the package's folder), imgdiff built
# into OUT.
fidelity_abs() {
	SHARED=$(cd "${MDXR_SHARED:-../shared}" && pwd)
	OUT=${OUT:-${TMPDIR:-/tmp}/$1}
	mkdir -p "$OUT"
	OUT=$(cd "$OUT" && pwd)
	go -C "$SHARED/tools/imgdiff" build -o "$OUT/imgdiff" .
}
