#!/usr/bin/env bash
# Runs the tests with every corpus sweep over all of its files
# (MDXR_FULL=1): the default `go test ./...` covers a fixed sample of each
# (docs/testing.md lists them). It needs ../shared (or MDXR_SHARED), takes
# several minutes, and passes its arguments to go test:
#
#   scripts/full-sweeps.sh                                   # every package
#   scripts/full-sweeps.sh ./pkg/texture                     # one package
#   scripts/full-sweeps.sh ./pkg/mdx -run 'Corpus|MDXToMDL' -v   # some tests, with their logs
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
	set -- ./...
fi
MDXR_FULL=1 exec go test -count=1 -timeout 60m "$@"
