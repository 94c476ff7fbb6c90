# A command that only reads, given an empty file as its store, says that
# nothing was stored there (exit 64) and leaves the file as it was: it
# does not turn it into a store (221 KB of schema). A command that
# writes may start a store in it.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w"
cd "$T/w"
: >e.db
expect_fail 64 "the store 'e.db' is an empty file (--store); nothing was stored there yet, and a command that only reads creates no store" \
	"$ABTOOL" history --store e.db
[ ! -s e.db ] || fail "history wrote $(stat -c %s e.db) bytes into the empty file"
expect_fail 64 "is an empty file" "$ABTOOL" show 1 --store e.db
expect_fail 64 "is an empty file" "$ABTOOL" export 1 --format json --store e.db
ABTOOL_STORE=e.db expect_fail 64 "is an empty file (from ABTOOL_STORE)" "$ABTOOL" designs
[ ! -s e.db ] || fail "a read-only command wrote into the empty file"
[ "$(ls)" = e.db ] || fail "files beside the store: $(ls)"
expect_decided "$ABTOOL" compare true true --pairs 1 --store e.db -q
[ "$(sqlite3 e.db "select count(*) from runs")" = 1 ] || fail "compare did not store its run in the empty file"
echo ok
