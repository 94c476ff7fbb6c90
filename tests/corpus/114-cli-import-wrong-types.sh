# import checks the types and values of an export's fields before it
# writes anything: a seed that is not a number, a negative time, a run
# "running" (no process runs it here), a uuid that is a path, a sample's
# side that is a number are each refused with exit 64 naming the field
# (they used to be imported, and a later sync stopped at them with 74, or
# the store's CHECK constraint answered with 74). The store stays empty;
# the export as written imports.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w"
cd "$T/w"
expect_decided "$ABTOOL" compare true 'true ' --pairs 2 --store a.db -q
"$ABTOOL" export 1 --format json --store a.db >ex.json || fail "export"
check() {  # check JQ PHRASE
	jq "$1" ex.json >bad.json || fail "jq $1"
	expect_fail 64 "cannot import 'bad.json': $2" "$ABTOOL" import bad.json --store b.db
	[ ! -e b.db ] || [ "$(sqlite3 b.db "select count(*) from runs")" = 0 ] || fail "$1 was imported"
}
check '.run.seed = "x"' 'run.seed: expected an integer, got "x"'
check '.samples[0].wall_ns = -5' 'samples[0].wall_ns: expected a whole number, 0 or more, got -5'
check '.run.status = "running"' 'run.status: expected "finished", "interrupted" or "failed", got "running" (a run still running: finish it with abtool resume, then export it again)'
check '.run.uuid = "../../etc/passwd"' 'run.uuid: expected 32 lowercase hexadecimal digits, as abtool'"'"'s run ids are, got "../../etc/passwd"'
check '.samples[3].side = 7' 'samples[3].side: expected "parent" or "candidate", got 7'
check '.samples[1].pair_order = "CD"' 'samples[1].pair_order: expected "AB" or "BA", got "CD"'
check '.samples[2].status = 9' 'samples[2].status: expected an integer from 0 to 3, got 9'
check '.run.exact_parent = "yes"' 'run.exact_parent: expected true or false, got "yes"'
expect_exit 0 "$ABTOOL" import ex.json --store b.db
assert_contains "$T/out" "imported run"
echo ok
