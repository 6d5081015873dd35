#!/usr/bin/env bash
# icon-peers.sh: checks that the icons `mdxrender icon` writes decode, in
# readers that are not ours, to the pixels of the PNG written beside
# each: every .blp with the reference viewer's BLP decoder
# (../shared/tools/peer/blp2png.mjs, mdx-m3-viewer 5.12.0) and with
# Pillow's BLP reader, every .dds with Pillow's DDS reader.
#
#   scripts/icon-peers.sh [DIR...]
#
# With no DIR it makes icons first, into $OUT (default $TMPDIR/icon-peers):
# every kind, classic and HD, of a fixture model and of a few corpus
# models, once as JPEG BLP and once palettised (--palette). A file passes
# when each outside reader's mean channel difference from the PNG is at
# most MEAN_TOL (default 4: JPEG at quality 85 measured up to 3.6 on the
# busiest icon, DXT1 up to 3.7) and, for BLP, its largest at most MAX_TOL
# (default 48) for JPEG content; a DXT1 block or a median cut to 256
# colours has no such bound (one odd pixel among 16 can be far off any
# line of four colours), so a DDS must instead decode
# in Pillow as in our own reader (`mdxrender texture`) within PEER_TOL;
# the two BLP readers must agree with each other within PEER_TOL too
# (default 3, their IDCTs' rounding). Prints a line per file and a
# summary line "N passed, N failed".
#
# Needs node with the peer harness installed (tools/peer/install.sh) and
# Debian's python3-pil (apt-get install python3-pil); MDXR_SHARED
# overrides ../shared. Exit status 1 when a file fails, 2 when a tool is
# missing.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${MDXR_SHARED:-../shared}
TMP=${TMPDIR:-/tmp}
OUT=${OUT:-$TMP/icon-peers}
PY=${PYTHON:-/usr/bin/python3}
export MEAN_TOL=${MEAN_TOL:-4} MAX_TOL=${MAX_TOL:-48} PEER_TOL=${PEER_TOL:-3}

if ! "$PY" -c 'import PIL' 2>/dev/null; then
	echo "icon-peers: Pillow not found for $PY (apt-get install python3-pil)" >&2
	exit 2
fi
if [ ! -f "$SHARED/tools/peer/blp2png.mjs" ]; then
	echo "icon-peers: $SHARED/tools/peer/blp2png.mjs not found (set MDXR_SHARED)" >&2
	exit 2
fi

dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
	rm -rf "$OUT"
	mkdir -p "$OUT"
	go build -o "$OUT/mdxrender" ./cmd/mdxrender
	models=(testdata/models/portrait_camera.mdl testdata/models/team_color.mdl)
	for m in \
		"War3ModelView/testmodel/4.mdx" \
		"dbz-tribute-reforged/maps/Tribute_Reforged.w3x/DBWolf1.mdx" \
		"war3-ap-maps/mods/apimports/eviljaina.mdx" \
		"wc3-orpg/map.w3x/war3mapImported/Faramis.mdx"; do
		[ -f "$SHARED/corpus/files/$m" ] && models+=("$SHARED/corpus/files/$m")
	done
	for m in "${models[@]}"; do
		"$OUT/mdxrender" icon "$m" -o "$OUT/jpeg" --kinds all --hd >/dev/null 2>&1
		"$OUT/mdxrender" icon "$m" -o "$OUT/palette" --kinds all --palette --alpha-bits 8 >/dev/null 2>&1
	done
	dirs=("$OUT/jpeg" "$OUT/palette")
fi

peer=$OUT/peer
rm -rf "$peer"
mkdir -p "$peer"
list=$OUT/blp.list
find "${dirs[@]}" -iname '*.blp' | sort >"$list"
# blp2png names each output after its input path; keep the pairs.
node "$SHARED/tools/peer/blp2png.mjs" "$peer" --list "$list" >"$OUT/peer.tsv" || true

# Our own reader's pictures of the DDS files, for Pillow's to agree with.
ours=$OUT/ours
rm -rf "$ours"
mkdir -p "$ours"
[ -x "$OUT/mdxrender" ] || go build -o "$OUT/mdxrender" ./cmd/mdxrender
while IFS= read -r f; do
	"$OUT/mdxrender" texture "$f" -o "$ours/$(printf '%s' "$f" | tr '/' '_').png"
done < <(find "${dirs[@]}" -iname '*.dds' | sort)

OURS=$ours "$PY" - "$OUT/peer.tsv" "${dirs[@]}" <<'EOF'
import os, sys
from PIL import Image

mean_tol, max_tol, peer_tol = float(os.environ["MEAN_TOL"]), int(os.environ["MAX_TOL"]), int(os.environ["PEER_TOL"])
peer = {}
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) >= 5 and f[1] != "error":
        peer[f[0]] = f[4]

def diff(a, b):
    """Mean and largest channel difference over R, G, B (and A when both have it)."""
    if a.size != b.size:
        return None, None
    bands = 4 if a.mode == b.mode == "RGBA" else 3
    total = worst = n = 0
    for pa, pb in zip(a.getdata(), b.getdata()):
        for k in range(bands):
            d = abs(pa[k] - pb[k])
            total += d
            worst = max(worst, d)
            n += 1
    return total / n, worst

passed = failed = 0
files = []
for d in sys.argv[2:]:
    for root, _, names in os.walk(d):
        files += [os.path.join(root, n) for n in names if n.lower().endswith((".blp", ".dds"))]
for path in sorted(files):
    png = os.path.splitext(path)[0] + ".png"
    ours = Image.open(png).convert("RGBA")
    problems, notes = [], []
    readers = {}
    try:
        im = Image.open(path)
        im.load()
        readers["pillow"] = im.convert("RGBA") if path.lower().endswith(".dds") else im.convert("RGB")
    except Exception as e:
        problems.append("pillow: %s" % e)
    if path.lower().endswith(".blp"):
        if path in peer:
            readers["peer"] = Image.open(peer[path]).convert("RGBA")
        else:
            problems.append("peer: not decoded")
    for name, img in readers.items():
        ref = ours if img.mode == "RGBA" else ours.convert("RGB")
        mean, worst = diff(img, ref)
        if mean is None:
            problems.append("%s: size %s, ours %s" % (name, img.size, ref.size))
            continue
        notes.append("%s mean %.2f max %d" % (name, mean, worst))
        # Only JPEG content has a largest error to hold it to.
        jpeg = path.lower().endswith(".blp") and open(path, "rb").read(8)[4] == 0
        if mean > mean_tol or (worst > max_tol and jpeg):
            problems.append("%s off by mean %.2f, max %d" % (name, mean, worst))
    if path.lower().endswith(".dds") and "pillow" in readers:
        own = Image.open(os.path.join(os.environ["OURS"], path.replace("/", "_") + ".png")).convert("RGBA")
        _, worst = diff(readers["pillow"], own)
        notes.append("pillow-ours max %d" % worst)
        if worst > peer_tol:
            problems.append("Pillow and our reader differ by %d" % worst)
    if "pillow" in readers and "peer" in readers:
        _, worst = diff(readers["pillow"], readers["peer"].convert("RGB"))
        notes.append("peer-pillow max %d" % worst)
        if worst > peer_tol:
            problems.append("the two readers differ by %d" % worst)
    if problems:
        failed += 1
        print("FAIL %s: %s" % (path, "; ".join(problems)))
    else:
        passed += 1
        print("ok   %s: %s" % (path, ", ".join(notes)))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
EOF
