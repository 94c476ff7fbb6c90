#!/usr/bin/env bash
# libpq is loaded when a PostgreSQL store is opened, not linked
# (store/store_pg.c): the binary does not need libpq.so.5, a command on a
# sqlite store works when libpq cannot be loaded, and a postgresql:// store
# then fails with exit 74 and a message naming Debian's package.
# ABTOOL_LIBPQ (the file abtool loads instead of libpq.so.5, for packagers
# and this test) names a file that does not exist: what dlopen then finds
# is what a machine without libpq5 gives.
. "$(dirname "$0")/lib.sh"

command -v readelf >/dev/null || fail "readelf is missing (binutils)"
readelf -d "$ABTOOL" >"$T/dynamic" || fail "readelf -d $ABTOOL"
assert_contains "$T/dynamic" "(NEEDED)"
assert_not_contains "$T/dynamic" "libpq"

export ABTOOL_LIBPQ="$T/no-such-libpq.so.5"
expect_exit 0 "$ABTOOL" --version
assert_contains "$T/out" "abtool"

# a sqlite store: written by a comparison, then read
store=$T/store.db
expect_exit 0 "$ABTOOL" compare 'true' 'true' --pairs 2 --warmup 0 --quiet --inconclusive=accept \
	--store "$store" --format md
expect_exit 0 "$ABTOOL" history --store "$store"
assert_contains "$T/out" "a-vs-b"
assert_not_contains "$T/err" "libpq"

# a PostgreSQL store: refused before any connection, saying what to install
expect_exit 74 "$ABTOOL" history --store postgresql://abtool@127.0.0.1:1/none
assert_contains "$T/err" "cannot open a PostgreSQL store: $ABTOOL_LIBPQ is not installed (Debian: apt-get install libpq5)"
assert_contains "$T/err" "No such file or directory"
expect_exit 74 "$ABTOOL" history --store postgres:///none
assert_contains "$T/err" "apt-get install libpq5"
echo ok
