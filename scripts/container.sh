#!/usr/bin/env bash
# container.sh: build the image the Dockerfile describes with buildah,
# from a static binary built here (the Dockerfile's build stage is given
# as a build context, so no Go image is pulled), then smoke-test it as the
# Kubernetes example uses it: --version, two shards of a batch into a
# mounted folder, and merge run directly (the image has no shell).
#
#   scripts/container.sh            # TAG=mdxrender:local VERSION=$(git describe)
#
# Needs buildah (Debian: apt-get install buildah). Storage defaults to vfs,
# which works without privileges or fuse; STORAGE_DRIVER overrides it.
set -euo pipefail
cd "$(dirname "$0")/.."
TAG=${TAG:-mdxrender:local}
VERSION=${VERSION:-$(git describe --always --dirty 2>/dev/null || echo dev)}
B=(buildah --storage-driver "${STORAGE_DRIVER:-vfs}")
ctx=$(mktemp -d)
work=$(mktemp -d)
c=
cleanup() {
	[ -n "$c" ] && "${B[@]}" rm "$c" >/dev/null 2>&1
	rm -rf "$ctx" "$work"
}
trap cleanup EXIT

mkdir -p "$ctx/out"
CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "-s -w -X main.ldflagsVersion=$VERSION" \
	-o "$ctx/out/mdxrender" ./cmd/mdxrender
"${B[@]}" bud --quiet --isolation chroot --build-context build="$ctx" -t "$TAG" -f Dockerfile "$ctx" >/dev/null
echo "built $TAG ($VERSION), $(du -k "$ctx/out/mdxrender" | cut -f1) KiB binary"

cp testdata/models/hermite_bezier.mdl testdata/models/billboards.mdl "$work/"
chmod -R a+rwX "$work" # the image runs as user 65532
c=$("${B[@]}" from "$TAG")
run() { "${B[@]}" run --isolation chroot -v "$work:/work" "$c" -- /mdxrender "$@"; }
got=$(run --version)
[ "$got" = "mdxrender version $VERSION" ] || { echo "container.sh: --version says: $got" >&2; exit 1; }
for i in 0 1; do
	run batch /work/hermite_bezier.mdl /work/billboards.mdl -o /work/out --size 32 --shard "$i/2" >/dev/null
done
run merge -o /work/out/manifest.json /work/out
for f in manifest.json index.html hermite_bezier-default.png billboards-default.png; do
	[ -f "$work/out/$f" ] || { echo "container.sh: no $f after the merge" >&2; exit 1; }
done
echo "container.sh: ok"
