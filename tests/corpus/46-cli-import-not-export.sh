# import of a file that is not an export (other JSON, not JSON at all, a
# missing file): exit 64 (74 for a file that cannot be read), the file and
# what import reads; nothing is stored.
. "$(dirname "$0")/corpus.sh"

echo '{"rows": []}' >"$T/other.json"
expect_fail 64 "cannot import '$T/other.json': not an abtool export: \"schema\" is missing, expected \"abtool-export-1\"; import reads what 'abtool export RUN --format json' writes" \
	"$ABTOOL" import "$T/other.json" --store "$T/store.db"
printf 'run\tseq\n' >"$T/samples.tsv"
expect_fail 64 "$T/samples.tsv:1:3: not JSON: '[' or '{' expected near 'run'" "$ABTOOL" import "$T/samples.tsv" --store "$T/store.db"
assert_contains "$T/err" "import reads what 'abtool export RUN --format json' writes"
expect_fail 74 "cannot read '$T/none.json'" "$ABTOOL" import "$T/none.json" --store "$T/store.db"
[ "$(sqlite3 "$T/store.db" "select count(*) from runs")" = 0 ] || fail "something was imported"
echo ok
