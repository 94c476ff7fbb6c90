#!/usr/bin/env bash
# seq-boundaries.sh - the boundaries of sequential plans, computed ahead and
# checked (docs/statistics.md, "The joint null").
#
#   bench/seq-boundaries.sh table     rewrites abtool/stats/sequential_table.c: the
#                                     common plans' boundaries, as
#                                     ab_seq_boundaries_compute gives them
#                                     (minutes of CPU); rebuild abtool after
#   bench/seq-boundaries.sh verify [PATHS]
#                                     every spending at alpha 5%, 1%, 0.25%
#                                     for looks 8..64, 8..128, 8..256, 6..256,
#                                     10..256, 12..96 and 8..32: the crossing
#                                     probability at abtool's counts again from
#                                     PATHS (default 4,000,000) paths of
#                                     another seed, and exactly where the
#                                     dynamic program fits
#
# Builds bench/src/seq_boundaries.c against the layer libraries build/libabtool_*.a (BUILD=
# another build folder). Not part of ctest: the unit tests check a subset
# (tests/unit/test_sequential.c), this checks them all.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
. "$ROOT/bench/layers.sh"
[ -f "$BUILD/libabtool_util.a" ] || { echo "seq-boundaries.sh: no $BUILD/libabtool_util.a (build abtool first)" >&2; exit 1; }
B=$(mktemp -d)
trap 'rm -rf "$B"' EXIT
cc -O2 $(abtool_layer_flags -I) -o "$B/seq_boundaries" "$ROOT/bench/src/seq_boundaries.c" \
	$(abtool_layer_flags -l "$BUILD") $(pkg-config --libs libgit2 sqlite3 jansson yaml-0.1 libpcre2-8 libcrypto zlib libpq) \
	-lcsv -lm -lpthread
case "${1:-verify}" in
table)
	"$B/seq_boundaries" table > "$B/table.c"
	mv "$B/table.c" "$ROOT/abtool/stats/sequential_table.c"
	echo "wrote abtool/stats/sequential_table.c; rebuild abtool" >&2
	;;
verify)
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
	"$B/seq_boundaries" verify "${2:-4000000}" 8 64 8 128 8 256 6 256 10 256 12 96 8 32
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
	;;
*)
	echo "usage: bench/seq-boundaries.sh table | verify [PATHS]" >&2
	exit 64
	;;
esac
