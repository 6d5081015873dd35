#!/usr/bin/env bash
# Builds the MPQ fixtures in this folder with StormLib's command-line tool
# (Debian package smpq). The archives are committed, so tests never need
# smpq; rerun this only to change them. All content is generated here: no
# game or third-party files go in.
#
#   apt-get install -y smpq && bash testdata/mpq/make.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v smpq >/dev/null || { echo "make.sh: smpq is not installed (apt-get install -y smpq)" >&2; exit 1; }

# --- source files (committed too: the tests compare against them) -------
rm -rf src && mkdir -p src/models src/textures
printf 'hello, world\n' > src/hello.txt
: > src/empty.txt
# About 15 KB of text: several 4 KiB sectors, compresses well.
awk 'BEGIN { for (i = 1; i <= 250; i++) printf "line %04d: the quick brown fox jumps over the lazy dog %d\n", i, i*i }' > src/text.txt
# Mostly zeros with short non-zero runs: what the sparse method is for.
awk 'BEGIN { for (i = 0; i < 9000; i++) printf "%c", (i % 700 < 5) ? 65 + i % 26 : 0 }' > src/zeros.bin
# Not a real model: the MDLX magic and a byte pattern, so that a name-less
# entry still has a recognisable start.
awk 'BEGIN { printf "MDLX"; for (i = 0; i < 6000; i++) printf "%c", 32 + (i * 7) % 90 }' > src/models/unit.mdx
awk 'BEGIN { printf "BLP1"; for (i = 0; i < 3000; i++) printf "%c", 48 + (i * 13) % 70 }' > src/textures/stone.blp
printf 'function main takes nothing returns nothing\nendfunction\n' > src/war3map.j
# 16-bit PCM sounds (a rising tone, about 10 KB of samples) for the lossy
# ADPCM methods; the bytes smpq extracts again are kept as the expected
# output in src/expected.
wav() { # wav FILE CHANNELS
	LC_ALL=C awk -v ch="$2" 'function le(v, n) { for (; n > 0; n--) { printf "%c", v % 256; v = int(v / 256) } }
	BEGIN {
		n = 5000; data = n * 2 * ch
		printf "RIFF"; le(36 + data, 4); printf "WAVEfmt "; le(16, 4); le(1, 2); le(ch, 2)
		le(22050, 4); le(22050 * 2 * ch, 4); le(2 * ch, 2); le(16, 2); printf "data"; le(data, 4)
		for (i = 0; i < n; i++) for (c = 0; c < ch; c++) {
			v = int(12000 * sin(i * (0.02 + i / 400000) + c)); if (v < 0) v += 65536; le(v, 2)
		}
	}' > "$1"
}
wav src/mono.wav 1
wav src/stereo.wav 2

rm -f ./*.mpq ./*.w3x
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# add ARCHIVE NAME SOURCE [smpq options...]: store SOURCE under NAME. The
# first add creates the archive in format $FORMAT (default 1) with room for
# 64 files. smpq can exit 0 after failing, so anything it prints is fatal.
add() {
	local archive=$1 name=$2 source=$3
	shift 3
	mkdir -p "$work/$(dirname "$name")"
	cp "src/$source" "$work/$name"
	case $archive in /*) ;; *) archive=$PWD/$archive ;; esac
	local create=()
	[ -e "$archive" ] || create=(-c -M "${FORMAT:-1}" -m 64)
	[ ${#create[@]} -gt 0 ] || create=(-a)
	local out
	out=$(cd "$work" && smpq "${create[@]}" "$@" "$archive" "$name" 2>&1) || true
	if [ -n "$out" ]; then
		echo "make.sh: smpq failed adding $name to $archive: $out" >&2
		exit 1
	fi
	rm -f "$work/$name"
}

# strip_listfile ARCHIVE: smpq writes a (listfile) even when told not to
# (-N), so its hash entry is turned into a deleted one (format 1 archive
# with its header at 0). The hash table is encrypted; python3 does the
# arithmetic.
strip_listfile() {
	python3 - "$1" <<'PY'
import struct, sys
def table():
    seed, t = 0x00100001, [0] * 0x500
    for i in range(0x100):
        for j in range(i, 0x500, 0x100):
            seed = (seed * 125 + 3) % 0x2AAAAB; hi = seed & 0xFFFF
            seed = (seed * 125 + 3) % 0x2AAAAB; lo = seed & 0xFFFF
            t[j] = hi << 16 | lo
    return t
T = table()
M = 0xFFFFFFFF
def hs(s, kind):
    s1, s2 = 0x7FED7FED, 0xEEEEEEEE
    for c in s.upper().encode():
        s1 = T[kind + c] ^ ((s1 + s2) & M)
        s2 = (c + s1 + s2 + (s2 << 5) + 3) & M
    return s1
def crypt(words, key, enc):
    seed, out = 0xEEEEEEEE, []
    for w in words:
        seed = (seed + T[0x400 + (key & 0xFF)]) & M
        v = w ^ ((key + seed) & M)
        plain = w if enc else v
        key = ((((~key) << 0x15) + 0x11111111) & M) | (key >> 0x0B)
        seed = (plain + seed + (seed << 5) + 3) & M
        out.append(v)
    return out
path = sys.argv[1]
data = bytearray(open(path, 'rb').read())
hpos, bpos, hsize = struct.unpack_from('<III', data, 16)
key = hs('(hash table)', 0x300)
words = crypt(list(struct.unpack_from('<%dI' % (hsize * 4), data, hpos)), key, False)
n1, n2 = hs('(listfile)', 0x100), hs('(listfile)', 0x200)
for i in range(hsize):
    if words[4*i] == n1 and words[4*i+1] == n2:
        words[4*i:4*i+4] = [M, M, M, 0xFFFFFFFE]
struct.pack_into('<%dI' % (hsize * 4), data, hpos, *crypt(words, key, True))
open(path, 'wb').write(data)
PY
}

# create ARCHIVE "OPTIONS" NAME:SOURCE...: one smpq call for all files.
create() {
	local archive=$1 opts=$2
	shift 2
	case $archive in /*) ;; *) archive=$PWD/$archive ;; esac
	local names=() pair
	for pair in "$@"; do
		mkdir -p "$work/$(dirname "${pair%%:*}")"
		cp "src/${pair#*:}" "$work/${pair%%:*}"
		names+=("${pair%%:*}")
	done
	local out
	# shellcheck disable=SC2086
	out=$(cd "$work" && smpq -c -M 1 -m 64 $opts "$archive" "${names[@]}" 2>&1) || true
	if [ -n "$out" ]; then
		echo "make.sh: smpq failed creating $archive: $out" >&2
		exit 1
	fi
	(cd "$work" && rm -f "${names[@]}")
}

# --- format versions 1-4, same files, default compression (zlib) --------
for v in 1 2 3 4; do
	for f in hello.txt empty.txt text.txt zeros.bin models/unit.mdx; do
		FORMAT=$v add "v$v.mpq" "$f" "$f"
	done
done

# --- every compression smpq can write, one file per method --------------
# Format 1 reads the method byte as a bit mask; format 2+ as one of a fixed
# set (where 0x12 is LZMA), so each gets its own archive.
for m in none IMPLODE PKWARE ZLIB BZIP2 SPARSE HUFFMANN ZLIB+PKWARE SPARSE+ZLIB BZIP2+PKWARE; do
	n=$(echo "$m" | tr 'A-Z+' 'a-z-')
	add methods-v1.mpq "$n.txt" text.txt -C "$m"
	add methods-v1.mpq "$n.bin" zeros.bin -C "$m"
done
for m in ZLIB PKWARE BZIP2 SPARSE LZMA SPARSE+ZLIB SPARSE+BZIP2; do
	n=$(echo "$m" | tr 'A-Z+' 'a-z-')
	FORMAT=2 add methods-v2.mpq "$n.txt" text.txt -C "$m"
	FORMAT=2 add methods-v2.mpq "$n.bin" zeros.bin -C "$m"
done

# --- sound: Huffman in front of IMA ADPCM, in both format families -------
for f in 1 2; do
	FORMAT=$f add "sound-v$f.mpq" mono.wav mono.wav -C HUFFMANN+ADPCM_MONO
	FORMAT=$f add "sound-v$f.mpq" stereo.wav stereo.wav -C HUFFMANN+ADPCM_STEREO
done
add sound-v1.mpq mono-adpcm-only.wav mono.wav -C ADPCM_MONO
mkdir -p src/expected
(cd src/expected && smpq -x -q "$OLDPWD/sound-v1.mpq" mono.wav stereo.wav mono-adpcm-only.wav)

# --- encryption, with and without FIX_KEY, sectored and single unit -----
add encrypted.mpq plain.txt text.txt -E
add encrypted.mpq fixkey.txt text.txt -E -F
add encrypted.mpq stored.txt text.txt -E -C none
add encrypted.mpq stored-fixkey.txt text.txt -E -F -C none
add encrypted.mpq imploded.txt text.txt -E -C IMPLODE
add encrypted.mpq dir\\sub\\deep.mdx models/unit.mdx -E -F
add encrypted.mpq single.txt text.txt -E -U
add encrypted.mpq hello.txt hello.txt -E -F

# --- single-unit files --------------------------------------------------
add single-unit.mpq zlib.txt text.txt -U
add single-unit.mpq stored.txt text.txt -U -C none
add single-unit.mpq hello.txt hello.txt -U
add single-unit.mpq zeros.bin zeros.bin -U -C PKWARE

# --- sector checksums ---------------------------------------------------
add sector-crc.mpq text.txt text.txt -S
add sector-crc.mpq zeros.bin zeros.bin -S -C PKWARE
add sector-crc.mpq encrypted.txt text.txt -S -E -F

# --- no (listfile): names only by hash ----------------------------------
# All encrypted: "hidden.txt" is named nowhere and its key must be
# recovered from its sector table.
create no-listfile.mpq "-E" war3map.j:war3map.j hidden.txt:text.txt models\\unit.mdx:models/unit.mdx
strip_listfile no-listfile.mpq

# --- locales: one name, several languages -------------------------------
add locales.mpq hello.txt hello.txt
add locales.mpq hello.txt text.txt -O 1033
add locales.mpq only-german.txt war3map.j -O 1031

# --- a map: 512-byte HM3W header, names from war3map.imp, no listfile ---
# war3map.imp, version 1: "unit.mdx" is a standard import (stored under
# war3mapImported\), "textures\stone.blp" a custom path.
{
	printf '\x01\x00\x00\x00\x02\x00\x00\x00'
	printf '\x05unit.mdx\x00'
	printf '\x0dtextures\\stone.blp\x00'
} > "$work/imp"
cp "$work/imp" src/war3map.imp
hm3w() { # the 512-byte Warcraft III map header
	{ printf 'HM3W\x00\x00\x00\x00Fixture map\x00'; head -c 492 /dev/zero; } | head -c 512
}
create "$work/map.mpq" "-E -F" war3map.j:war3map.j war3map.imp:war3map.imp \
	war3mapImported\\unit.mdx:models/unit.mdx textures\\stone.blp:textures/stone.blp
strip_listfile "$work/map.mpq"
{ hm3w; cat "$work/map.mpq"; } > map.w3x

# Warcraft III's Storm does not know SINGLE_UNIT: inside a map such a file
# is read as sectored, and a compressed one does not read at all.
add "$work/map2.mpq" war3map.j war3map.j
add "$work/map2.mpq" single.txt text.txt -U
add "$work/map2.mpq" single-stored.txt hello.txt -U -C none
{ hm3w; cat "$work/map2.mpq"; } > map-single-unit.w3x

# --- user data: a non-map archive whose header is found through an -----
# "MPQ\x1B" block at 0 (cbUserDataSize 512, header at 512).
add "$work/plain.mpq" hello.txt hello.txt
add "$work/plain.mpq" text.txt text.txt
{ printf 'MPQ\x1b\x00\x02\x00\x00\x00\x02\x00\x00\x10\x00\x00\x00'; head -c 496 /dev/zero; cat "$work/plain.mpq"; } > userdata.mpq

# --- a protected map: decoys and garbage header fields ------------------
# HM3W at 0; at 512 an "MPQ\x1B" decoy (maps ignore user data) and at 1024
# an "MPQ\x1A" whose header size is too small to count; the real header at
# 1536 has text in its header size field, claims format 2 (whose extra
# fields would overlap the first file's data) and a block table of
# 0x00016A01 entries that runs far past the end of the file.
{
	hm3w
	{ printf 'MPQ\x1b\x00\x02\x00\x00\x00\x10\x00\x00\x10\x00\x00\x00'; head -c 496 /dev/zero; }
	{ printf 'MPQ\x1a\x10\x00\x00\x00'; head -c 504 /dev/zero; }
	cat "$work/plain.mpq"
} > protected.w3x
patch() { printf "$2" | dd of=protected.w3x bs=1 seek=$(( $1 )) conv=notrunc status=none; }
patch '1536+4' 'SPAZ'                 # header size
patch '1536+12' '\x01\x00'            # format version 2
patch '1536+28' '\x01\x6a\x01\x00'    # block table entries

ls -l ./*.mpq ./*.w3x
