#!/usr/bin/env bash
# icon-map.sh: imports the icons `mdxrender icon` writes into a copy of a
# real map with StormLib (Debian's smpq, the tool map-making programs'
# archive library comes with) and reads them back with our archive
# reader: `mdxrender archive ls` must list every icon under the game's
# path, `archive extract` must give back the same bytes, and `mdxrender
# texture MAP:PATH` must decode each from inside the map at its size (64
# for BLP, 256 for DDS) to the pixels of the PNG written beside it (lossy
# formats within the tolerances of scripts/icon-peers.sh, read here by
# our own reader).
#
#   scripts/icon-map.sh [MODEL]
#
# MODEL defaults to testdata/models/portrait_camera.mdl; MAP (default a
# map of the HiveWE corpus, ../shared/corpus/archives) is copied, never
# changed; OUT (default $TMPDIR/icon-map) keeps everything. smpq stores
# the names as given, with '/', and StormLib hashes '/' and '\' alike, as
# the game does, so the game finds ReplaceableTextures\CommandButtons\...
# Prints a line per icon and "N passed, N failed"; exit status 1 when one
# fails, 2 when smpq or the map is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${MDXR_SHARED:-../shared}
TMP=${TMPDIR:-/tmp}
OUT=${OUT:-$TMP/icon-map}
MAP=${MAP:-$SHARED/corpus/archives/HiveWE/HiveWE/Data/(2)EchoIsles.w3x}
MODEL=${1:-testdata/models/portrait_camera.mdl}
PY=${PYTHON:-/usr/bin/python3}

if ! command -v smpq >/dev/null; then
	echo "icon-map: smpq not found (apt-get install smpq)" >&2
	exit 2
fi
if [ ! -f "$MAP" ]; then
	echo "icon-map: $MAP not found (set MAP or MDXR_SHARED)" >&2
	exit 2
fi
rm -rf "$OUT"
mkdir -p "$OUT"
go build -o "$OUT/mdxrender" ./cmd/mdxrender
bin=$OUT/mdxrender
"$bin" icon "$MODEL" -o "$OUT/icons" --kinds all --hd --name Imported >/dev/null
cp "$MAP" "$OUT/map.w3x"
mapfile -t icons < <(cd "$OUT/icons" && find . -type f \( -iname '*.blp' -o -iname '*.dds' \) | sed 's|^\./||' | sort)
(cd "$OUT/icons" && for f in "${icons[@]}"; do smpq -a -q "$OUT/map.w3x" "$f"; done)

"$bin" archive ls "$OUT/map.w3x" >"$OUT/ls.txt"
"$bin" archive extract "$OUT/map.w3x" -o "$OUT/extracted" >/dev/null
passed=0 failed=0
for f in "${icons[@]}"; do
	name=${f//\//\\}
	problem=
	if ! grep -qF "$name" "$OUT/ls.txt"; then
		problem="not listed as $name"
	elif ! cmp -s "$OUT/icons/$f" "$OUT/extracted/$f"; then
		problem="extracted bytes differ"
	elif ! info=$("$bin" texture --info "$OUT/map.w3x:$name" 2>&1); then
		problem="texture --info: $info"
	else
		want=64x64
		[[ $f == *.dds ]] && want=256x256
		png=$OUT/decoded/${f%.*}.png
		mkdir -p "$(dirname "$png")"
		if [[ $info != *"$want"* ]]; then
			problem="reads as $info, want $want"
		elif ! "$bin" texture "$OUT/map.w3x:$name" -o "$png" 2>"$OUT/err.txt"; then
			problem="decode: $(cat "$OUT/err.txt")"
		elif ! problem=$("$PY" - "$png" "$OUT/icons/${f%.*}.png" <<'EOF'
import sys
from PIL import Image
a, b = (Image.open(p).convert("RGBA") for p in sys.argv[1:3])
d = [abs(x - y) for pa, pb in zip(a.getdata(), b.getdata()) for x, y in zip(pa, pb)]
mean = sum(d) / len(d)
if a.size != b.size or mean > 4:
    print("decoded from the map, %s off the PNG by mean %.2f" % (a.size, mean))
    sys.exit(1)
print("mean %.2f off the PNG" % mean)
EOF
		); then
			:
		fi
	fi
	if [[ -z $problem || $problem == mean* ]]; then
		passed=$((passed + 1))
		echo "ok   $name: ${info#*	} ${problem}"
	else
		failed=$((failed + 1))
		echo "FAIL $name: $problem"
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
