# sync --from X --to X is refused (exit 64, "name one store") however the
# store is named: ./X, its absolute path, a symbolic link to it, a hard
# link; it used to compare the names only and copy the store into itself.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w"
cd "$T/w"
expect_decided "$ABTOOL" compare true 'true ' --pairs 2 --store s.db -q
ln -s s.db link.db
ln s.db hard.db
for to in ./s.db "$T/w/s.db" link.db hard.db; do
	expect_fail 64 "--from and --to name one store ('s.db'); give two" "$ABTOOL" sync --from s.db --to "$to"
done
expect_fail 64 "name one store" "$ABTOOL" sync --from link.db --to s.db --dry-run
[ "$(sqlite3 s.db "select count(*) from runs")" = 1 ] || fail "the store changed"
expect_exit 0 "$ABTOOL" sync --from s.db --to other.db
[ "$(sqlite3 other.db "select count(*) from runs")" = 1 ] || fail "sync to another store copied nothing"
echo ok
