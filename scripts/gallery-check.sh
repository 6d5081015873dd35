#!/usr/bin/env bash
# gallery-check.sh: open batch galleries in headless Chromium as a person
# would, from disk, and check them: no sideways scrolling at desktop
# (1280 px) and phone (390 px) widths, every warning unfolded too; the
# filter by name and by status; sheets and animations shown as pictures;
# two models of one name in two folders told apart; and how long a
# gallery of 100,000 models takes to open. Prints one line per check and
# a summary, saves screenshots, exits 1 if a check failed. Not part of CI.
#
#   scripts/gallery-check.sh
#
# MDXR_SHARED (default ../shared) is the shared folder with the corpus;
# WORK (default a new temporary folder) keeps the batches, the galleries
# and the screenshots (WORK/shots); PLAYWRIGHT (default /tmp/engines,
# as scripts/engines/check.sh) is where npm installs playwright-core,
# outside the repository; CHROMIUM (default /usr/bin/chromium) is
# Debian's chromium (apt-get install -y chromium). MODELS (default
# 100000) is the size of the large gallery.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/corpus-lib.sh
corpus_shared gallery-check
PLAYWRIGHT=${PLAYWRIGHT:-/tmp/engines}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
MODELS=${MODELS:-100000}
[ -x "$CHROMIUM" ] || { echo "gallery-check: $CHROMIUM missing; install Debian's chromium (apt-get install -y chromium)" >&2; exit 2; }
if [ ! -d "$PLAYWRIGHT/node_modules/playwright-core" ]; then
	mkdir -p "$PLAYWRIGHT"
	(cd "$PLAYWRIGHT" && { [ -f package.json ] || npm init -y >/dev/null; } &&
		npm install --no-audit --no-fund --silent playwright-core@1.65.1) >&2
fi
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK/shots"
go build -o "$WORK/mdxrender" ./cmd/mdxrender
bin=$WORK/mdxrender

# A small batch as a modder has it: two Archway.mdx in two folders, one
# of them with a very long name, models whose game textures are missing
# (long warnings), a damaged file, and sheets and animations.
in=$WORK/small/in
rm -rf "$WORK/small" && mkdir -p "$in/human" "$in/orc/$(printf 'a-folder-with-a-very-long-name-%.0s' 1 2 3 4)"
c=$SHARED/corpus/files
pick() { awk -F'\t' -v n="$1" 'NR>1 && $6=="MDLX" && $7=="800" && tolower($1) ~ /\.mdx$/ && ++i == n {print $1}' "$SHARED/corpus/manifest.tsv"; }
ln -f "$SHARED/corpus/$(pick 3)" "$in/human/Archway.mdx"
ln -f "$SHARED/corpus/$(pick 5)" "$in/orc/$(printf 'a-folder-with-a-very-long-name-%.0s' 1 2 3 4)/Archway.mdx"
for i in 7 11 13 17 19 23; do ln -f "$SHARED/corpus/$(pick $i)" "$in/human/model$i.mdx"; done
ln -f "$SHARED/corpus/$(pick 29)" "$in/$(printf 'AnExtremelyLongModelNameWithoutAnyBreak%.0s' 1 2 3 4).mdx"
head -c 300 /dev/urandom >"$in/orc/damaged.mdx"
MDXR_SHEET_FRAMES=4 "$bin" batch -o "$WORK/small/out" --size 96 --format png,sheet,gif --sequence all "$in" >/dev/null 2>&1 || true

# A gallery of MODELS models, made by merging two shards' manifests
# written here (rendering them is bench-scale.sh's business): each card
# shows the one thumbnail, a few have warnings, some failed.
big=$WORK/big
rm -rf "$big" && mkdir -p "$big"
cp "$(find "$WORK/small/out" -name '*.png' ! -name '*sheet*' | head -1)" "$big/thumb.png"
for s in 0 1; do
	awk -v n="$MODELS" -v s="$s" 'BEGIN {
		printf "{\"tool\":\"mdxrender\",\"version\":\"v0.0.0-check\",\"options\":\"x\",\"shards\":[\"%d/2\"],\"reports\":{\"gallery\":\"index.html\"},\"summary\":{},\"models\":[", s
		first = 1
		for (i = s; i < n; i += 2) {
			d = int(i / 10000)
			status = (i % 997 == 0) ? "failed" : "ok"
			w = (i % 7 == 0) ? ",\"warnings\":[{\"code\":\"missing-texture\",\"message\":\"texture Textures\\\\Missing.blp: not found\"}]" : ""
			e = (status == "failed") ? ",\"errors\":[\"open: chunk GEOS at offset 0x40: count exceeds the data\"]" : ""
			o = (status == "ok") ? ",\"outputs\":[{\"path\":\"thumb.png\",\"kind\":\"png\"}]" : ""
			printf "%s{\"input\":\"/site/models/d%03d/m%07d.mdx\",\"rel\":\"d%03d/m%07d.mdx\",\"status\":\"%s\"%s%s%s,\"timings\":{\"readMs\":0,\"openMs\":0,\"renderMs\":0,\"encodeMs\":0,\"totalMs\":0}}", (first ? "" : ","), d, i, d, i, status, o, w, e
			first = 0
		}
		print "]}"
	}' >"$big/manifest-$s-of-2.json"
done
# (exit status 1: the batch has failed models)
"$bin" merge -o "$big/manifest.json" "$big/manifest-0-of-2.json" "$big/manifest-1-of-2.json" >/dev/null || [ -f "$big/index.html" ]

echo "gallery-check: $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), $("$CHROMIUM" --version 2>/dev/null | head -n1), node $(node --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
PLAYWRIGHT=$PLAYWRIGHT CHROMIUM=$CHROMIUM node scripts/gallery-check.mjs "$WORK/small/out/index.html" "$big/index.html" "$WORK/shots" "$MODELS"
