# corpus-lib.sh: finding the shared folder, for the scripts that read its
# corpus. Sourced (not run) from the repository root.

# corpus_shared NAME: SHARED is the shared folder ($MDXR_SHARED, else
# ../shared) as an absolute path. Exits 2, naming the script NAME, when
# it has no corpus.
corpus_shared() {
	SHARED=${MDXR_SHARED:-../shared}
	[ -f "$SHARED/corpus/manifest.tsv" ] || { echo "$1: no corpus under $SHARED (set MDXR_SHARED)" >&2; exit 2; }
	SHARED=$(cd "$SHARED" && pwd)
}
