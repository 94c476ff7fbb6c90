#!/bin/bash
# smoke
# Designed error: 0: the runs, on wall time, have 2 pairs, too few for an
# interval, so they are always inconclusive and --inconclusive=accept.
# Where the store is, for every command: next to an experiment file whose
# repo: is elsewhere; the config file's store:; a --store with a URL
# scheme is refused and creates nothing; a read-only command on a
# missing store names the path and creates nothing.
. "$(dirname "$0")/lib.sh"

R="$T/repo"
make_repo "$R" 1 2
EXP_PAIRS=2 EXP_METRIC=wall_ns write_exp "$R"
D="$T/here"
mkdir -p "$D"
sed "s|^name: .*|&\nrepo: ../repo|" "$R/exp.yaml" >"$D/exp.yaml"
cd "$D"
expect_exit 0 "$ABTOOL" run exp.yaml --quiet --inconclusive=accept
[ -f "$R/.git/abtool/abtool.db" ] || fail "the run's store is not in its repository"
expect_exit 0 "$ABTOOL" report latest
assert_contains "$T/out" "e2e"
expect_exit 0 "$ABTOOL" history

# a URL scheme other than PostgreSQL's: refused, nothing created; a
# PostgreSQL server that is not there: exit 74, nothing created
E="$T/empty"
mkdir -p "$E"
cd "$E"
expect_exit 64 "$ABTOOL" history --store 'mysql://team/x'
assert_contains "$T/err" "does not serve 'mysql:' stores"
assert_contains "$T/err" "--store"
expect_exit 74 "$ABTOOL" history --store "postgresql:///team?host=$T/nothing"
assert_contains "$T/err" "cannot connect to the PostgreSQL store"
[ -z "$(ls -A "$E")" ] || fail "history --store URL created: $(ls -A "$E")"
ABTOOL_STORE='sqlite://x.db' expect_exit 64 "$ABTOOL" show 1
assert_contains "$T/err" "ABTOOL_STORE"

# a missing store: named, nothing created
for c in history designs "show 1" "report 1" "export 1"; do
	expect_exit 64 "$ABTOOL" $c --store "$E/sub/abtool.db"
	assert_contains "$T/err" "there is no store at '$E/sub/abtool.db'"
	assert_contains "$T/err" "give --store"
	[ -z "$(ls -A "$E")" ] || fail "$c on a missing store created: $(ls -A "$E")"
done
# no repository, no experiment file: says which --store to give
expect_exit 64 "$ABTOOL" history
assert_contains "$T/err" "give --store REPO/.git/abtool/abtool.db"
[ -z "$(ls -A "$E")" ] || fail "history without a store created: $(ls -A "$E")"

# the config file's store:
mkdir -p "$XDG_CONFIG_HOME/abtool"
printf 'store: %s\n' "$R/.git/abtool/abtool.db" >"$XDG_CONFIG_HOME/abtool/config"
expect_exit 0 "$ABTOOL" report latest
printf 'store: ~/x.db\nstor: y\n' >"$XDG_CONFIG_HOME/abtool/config"
expect_exit 64 "$ABTOOL" history
assert_contains "$T/err" "$XDG_CONFIG_HOME/abtool/config:2:1: stor: unknown key"
echo PASS
