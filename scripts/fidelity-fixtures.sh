#!/usr/bin/env bash
# fidelity-fixtures.sh: render our fixture models (testdata/models) with
# mdxrender and with the reference viewer (../shared/tools/peer/render.mjs,
# installed by its install.sh), with the same camera, and compare them with
# ../shared/tools/imgdiff (tolerance 16). Prints one line per fixture.
set -eu
cd "$(dirname "$0")/.."
. scripts/fidelity-lib.sh
fidelity_abs fidelity-fixtures
PEER_FIXTURE_OUT=$OUT go test ./pkg/render -run TestPeerFixtureJobs -count 1 >/dev/null
(cd "$SHARED/tools/peer" && node render.mjs --list "$OUT/jobs.txt" --size 96 --quiet >"$OUT/peer.jsonl")
for ours in "$OUT"/*.ours.png; do
	name=$(basename "$ours" .ours.png)
	peer=$OUT/$name.peer.png
	[ -f "$peer" ] || { echo "$name: no reference render"; continue; }
	printf '%-18s %s\n' "$name" "$("$OUT/imgdiff" -diff "$OUT/$name.diff.png" "$peer" "$ours" 2>&1 | sed 's/^[^ ]* //')"
done
