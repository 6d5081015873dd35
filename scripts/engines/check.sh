#!/usr/bin/env bash
# check.sh: load mdxrender's sprite sheets in Phaser 3 and PixiJS 8 in
# headless Chromium and check that they play as the model does: the
# snippets of docs/batch.md ("Sprite sheets in game engines") run as
# written; every frame, placed by its pivot, shows its untrimmed pixels
# at the right place; every animation plays as long as its sequence; and
# a sheet of two yaws has an animation per yaw. Prints one line per check
# and a summary; exits 1 if a check failed. Not part of CI.
#
#   scripts/engines/check.sh
#
# MDXR_SHARED (default ../shared) is the shared folder with the corpus;
# ENGINES (default /tmp/engines) is where npm installs Phaser, PixiJS and
# playwright-core, outside the repository; CHROMIUM (default
# /usr/bin/chromium) is Debian's chromium, installed with apt-get when
# missing and run as root; WORK (default a new temporary folder) keeps the
# sheets and the page.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED=${MDXR_SHARED:-../shared}
ENGINES=${ENGINES:-/tmp/engines}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
PHASER=3.90.0
PIXI=8.22.0
PLAYWRIGHT=1.65.1
UNIT=$SHARED/corpus/files/war3-ap-maps/mods/apimports/evilshadowhunter.mdx

if [ ! -f "$UNIT" ]; then
	echo "engines: $UNIT not found (set MDXR_SHARED)" >&2
	exit 2
fi
if [ ! -x "$CHROMIUM" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "engines: $CHROMIUM missing; install Debian's chromium (apt-get install -y chromium)" >&2
		exit 2
	fi
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
mkdir -p "$ENGINES"
want="phaser@$PHASER pixi.js@$PIXI playwright-core@$PLAYWRIGHT"
if [ "$(cat "$ENGINES/.installed" 2>/dev/null)" != "$want" ]; then
	(cd "$ENGINES" && { [ -f package.json ] || npm init -y >/dev/null; } &&
		npm install --no-audit --no-fund --silent $want) >&2
	echo "$want" >"$ENGINES/.installed"
fi

WORK=${WORK:-$(mktemp -d)}
site=$WORK/site
rm -rf "$site" && mkdir -p "$site/one" "$site/grid" "$site/yaws"
go build -o "$WORK/mdxrender" ./cmd/mdxrender
# The model is copied as unit.mdx, so the files are named as in the
# snippets; its textures are found from its own folder.
cp "$UNIT" "$WORK/unit.mdx"
tex=(--textures "$(dirname "$UNIT")" --textures "$(dirname "$(dirname "$UNIT")")")
common=("$WORK/unit.mdx" --sequence Walk,Death --frames 8 --size 96 --yaw 30 "${tex[@]}")
"$WORK/mdxrender" sheet "${common[@]}" -o "$site/one" >/dev/null
"$WORK/mdxrender" sheet "${common[@]}" -o "$site/grid" --trim=false --metadata plain >/dev/null
"$WORK/mdxrender" sheet "$WORK/unit.mdx" --sequence Walk --frames 4 --size 64 --yaws 0,45 "${tex[@]}" -o "$site/yaws" --metadata texturepacker >/dev/null
cp "$ENGINES/node_modules/phaser/dist/phaser.min.js" "$ENGINES/node_modules/pixi.js/dist/pixi.min.js" "$site/"
cp scripts/engines/page.html "$site/one/"

echo "engines: $(date -u +%Y-%m-%d), Phaser $PHASER, PixiJS $PIXI, $("$CHROMIUM" --version 2>/dev/null | head -n1), node $(node --version), playwright-core $PLAYWRIGHT"
ENGINES=$ENGINES CHROMIUM=$CHROMIUM node scripts/engines/check.mjs "$site" docs/batch.md
