#!/bin/bash
# abtool cache: list, prune by age and by size (least recently used
# first), clear; an entry a running run holds and one of an interrupted
# run survive a prune; the config file's cache.max_size is applied after
# a run.
. "$(dirname "$0")/lib.sh"

events_open
R="$T/repo"
make_repo "$R" 1 2
hang_bench "$T" 1   # hangs while $T/hang exists: a run in the middle of its samples
B="$XDG_CACHE_HOME/abtool/builds"

# run_with BUILD: one short run whose build command is BUILD (a new pair
# of cache entries per command); its two cache keys in $T/keys.BUILDNAME.
run_with() {
	EXP_BUILD="$1" EXP_PAIRS=2 write_exp "$R"
	expect_exit 0 "$ABTOOL" run "$R/exp.yaml" --quiet --inconclusive=accept
	"$ABTOOL" show latest --json --store "$R/.git/abtool/abtool.db" |
		jq -r '.builds[].cache_key' >"$T/keys.$2"
	[ "$(wc -l <"$T/keys.$2")" -eq 2 ] || fail "run $2: expected two builds"
}
# entry_size KEY: bytes on disk of the entry's files (as abtool counts them)
entry_size() {
	du -s -B1 -c "$B/$1" "$B/$1.json" "$B/$1.log" "$B/$1.use" 2>/dev/null | tail -n 1 | cut -f1
}
set_last_use() {
	for k in $(cat "$T/keys.$1"); do touch -d "$2" "$B/$k.use"; done
}
assert_entries() {  # NAME present|absent
	for k in $(cat "$T/keys.$1"); do
		if [ "$2" = present ]; then
			[ -d "$B/$k" ] || fail "entry $k of run $1 was removed"
		else
			[ ! -e "$B/$k" ] && [ ! -e "$B/$k.json" ] || fail "entry $k of run $1 is still there"
		fi
	done
}

run_with "make" old
run_with "make && echo 2" mid
run_with "make && echo 3" new
set_last_use old "40 days ago"
set_last_use mid "10 days ago"

expect_exit 0 "$ABTOOL" cache
assert_contains "$T/out" "6 entries"
assert_contains "$T/out" "40d ago"
assert_contains "$T/out" "$(head -n 1 "$T/keys.new" | cut -c1-12)"

# --older-than: exactly the entries last used 40 days ago
expect_exit 0 "$ABTOOL" cache prune --older-than 30d --store "$R/.git/abtool/abtool.db"
assert_contains "$T/out" "removed 2 entries"
assert_entries old absent
assert_entries mid present
assert_entries new present

# --keep-size: a size that holds only the newest run's entries removes the other run's
keep=0
for k in $(cat "$T/keys.new"); do keep=$((keep + $(entry_size "$k"))); done
expect_exit 0 "$ABTOOL" cache prune --keep-size 1G
assert_contains "$T/out" "removed 0 entries"
expect_exit 0 "$ABTOOL" cache prune --keep-size "$keep"
assert_contains "$T/out" "removed 2 entries"
assert_entries mid absent
assert_entries new present
expect_exit 64 "$ABTOOL" cache prune
expect_exit 64 "$ABTOOL" cache prune --keep-size lots
expect_exit 64 "$ABTOOL" cache prune --older-than 30

# an entry a running run holds survives prune and clear; the run finishes
# (its first sample hangs until the prune and the clear are done)
EXP_BUILD="make && echo 4" EXP_PAIRS=2 write_exp "$R"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$R/exp.yaml"
touch "$T/hang"
"$ABTOOL" run "$R/exp.yaml" --quiet --inconclusive=accept >"$T/run.out" 2>"$T/run.err" &
pid=$!
await hung
"$ABTOOL" show latest --json --store "$R/.git/abtool/abtool.db" | jq -r '.builds[].cache_key' >"$T/keys.live"
set_last_use live "40 days ago"
expect_exit 0 "$ABTOOL" cache prune --older-than 30d
assert_contains "$T/out" "in use by a running run"
assert_entries live present
expect_exit 0 "$ABTOOL" cache clear
assert_contains "$T/out" "in use by a running run"
assert_entries live present
assert_entries new absent
rm -f "$T/hang"
release
wait $pid || fail "the run that held the entries failed: $(cat "$T/run.err")"
assert_entries live present

# an interrupted run's entries survive a prune of the store that has it
# (SIGINT while its first sample hangs)
EXP_BUILD="make && echo 5" EXP_PAIRS=6 write_exp "$R"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$R/exp.yaml"
touch "$T/hang"
"$ABTOOL" run "$R/exp.yaml" --quiet >"$T/run.out" 2>"$T/run.err" &
pid=$!
await hung
kill -INT $pid
wait $pid
[ $? -eq 130 ] || fail "the interrupted run did not exit 130"
rm -f "$T/hang"
"$ABTOOL" show latest --json --store "$R/.git/abtool/abtool.db" | jq -r '.builds[].cache_key' >"$T/keys.int"
set_last_use int "40 days ago"
set_last_use live "40 days ago"
expect_exit 0 "$ABTOOL" cache prune --older-than 30d --store "$R/.git/abtool/abtool.db"
assert_contains "$T/out" "used by an interrupted run"
assert_entries int present
assert_entries live absent

# clear: everything goes but the interrupted run's entries, which only the store knows
expect_exit 0 "$ABTOOL" cache clear --store "$R/.git/abtool/abtool.db"
assert_entries int present
expect_exit 0 "$ABTOOL" cache clear --store "$T/nowhere.db"
assert_contains "$T/err" "not checking for interrupted runs"
assert_entries int absent  # without the store that knows the run, nothing protects them
expect_exit 0 "$ABTOOL" cache
assert_contains "$T/out" "0 entries"

# the config file's cap, after a run, least recently used first
mkdir -p "$XDG_CONFIG_HOME/abtool"
run_with "make && echo 6" a
run_with "make && echo 7" b
set_last_use a "2 days ago"
keep=0
for k in $(cat "$T/keys.b"); do keep=$((keep + $(entry_size "$k"))); done
# room for two runs' entries (b and the next) and the interrupted run's, not three
held=0
for k in $(cat "$T/keys.int"); do held=$((held + $(entry_size "$k"))); done
printf '# abtool config\ncache:\n  max_size: %s\n' $((held + keep * 2 + keep / 4)) >"$XDG_CONFIG_HOME/abtool/config"
run_with "make && echo 8" c
assert_entries a absent
assert_entries b present
assert_entries c present

# a bad config file names file:line:column
printf 'cache:\n  max_sise: 2G\n' >"$XDG_CONFIG_HOME/abtool/config"
# --store, outside any repository: the file is not read (no store to look
# up, no repository whose project it could name)
(cd "$T" && "$ABTOOL" history --store "$R/.git/abtool/abtool.db" --limit 1 >/dev/null) \
	|| fail "history --store outside a repository read the bad config file"
# in a repository it is, for its project: (docs/history.md, "Projects")
cd "$R" || fail "cd"
expect_exit 64 "$ABTOOL" history --store "$R/.git/abtool/abtool.db" --limit 1
expect_exit 64 "$ABTOOL" history
assert_contains "$T/err" "$XDG_CONFIG_HOME/abtool/config:2:3: cache: unknown key"
echo PASS
