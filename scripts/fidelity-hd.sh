#!/usr/bin/env bash
# fidelity-hd.sh: render the shared corpus' Reforged HD models (notes
# "HD (Reforged)" in ../shared/corpus/manifest.tsv) with mdxrender and with
# the reference viewer (../shared/tools/peer/render.mjs, installed by its
# install.sh) at the same cameras, and compare them with
# ../shared/tools/imgdiff (over black, tolerance 16). Prints one line per
# view: the mismatch of our render, then of our render with BC5 (ATI2)
# textures read as the viewer misreads them (docs/fidelity.md#reforged-hd).
# The references are renders of third-party models: they stay in OUT
# (default $TMPDIR/fidelity-hd), never in the repository. See
# pkg/render/hd_corpus_test.go for the views and for the textures both
# renderers get (a missing HD slot texture becomes the same neutral
# stand-in for both).
set -eu
cd "$(dirname "$0")/.."
. scripts/fidelity-lib.sh
fidelity_abs fidelity-hd
mkdir -p "$OUT/bc5"
MDXR_SHARED=$SHARED HD_CORPUS_OUT=$OUT go test ./pkg/render -run TestHDCorpusJobs -count 1 -v >"$OUT/ours.log"
MDXR_SHARED=$SHARED HD_CORPUS_OUT=$OUT/bc5 HD_CORPUS_VIEWER_BC5=1 go test ./pkg/render -run TestHDCorpusJobs -count 1 >/dev/null
(cd "$SHARED/tools/peer" && node render.mjs --list "$OUT/jobs.txt" --out-dir "$OUT" --size 256 --quiet >"$OUT/peer.jsonl") || true
diffline() { "$OUT/imgdiff" -diff "$3" "$1" "$2" 2>&1 | sed 's/^[^ ]* //'; }
for ours in "$OUT"/*.ours.png; do
	name=$(basename "$ours" .ours.png)
	peer=$OUT/$name.png
	[ -f "$peer" ] || { printf '%-52s no reference render\n' "$name"; continue; }
	printf '%-52s %s | viewer-BC5: %s\n' "$name" "$(diffline "$peer" "$ours" "$OUT/$name.diff.png")" \
		"$(diffline "$peer" "$OUT/bc5/$name.ours.png" "$OUT/bc5/$name.diff.png" | cut -d' ' -f1)"
done
