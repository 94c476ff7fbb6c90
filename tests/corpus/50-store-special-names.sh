# Store names that sqlite treats specially: "" (a temporary database),
# ":memory:" and "file:...?mode=memory" (in memory). Each would take a
# whole run and lose it on exit while saying "stored as run 1". An empty
# name is refused (exit 64); the others are ordinary files in the
# working directory, and the run is there afterwards.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
mkdir "$T/work"
cd "$T/work" || fail "cd"
expect_fail 64 "the store's file name is empty; give --store a file" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store ""
[ ! -e "$XDG_CACHE_HOME/abtool/builds" ] || fail "something was built before the store was refused"
for name in ":memory:" "file:runs.db?mode=memory"; do
	expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$name" --quiet
	[ -f "$T/work/$name" ] || fail "no file '$name' in the working directory: the run was lost"
	[ "$(sqlite3 "file:$T/work/$name" "select count(*) from runs where status = 'finished'" 2>/dev/null ||
		sqlite3 "$T/work/$name" "select count(*) from runs where status = 'finished'")" = 1 ] ||
		fail "the run is not in '$name'"
	expect_exit 0 "$ABTOOL" history --store "$name"
	assert_contains "$T/out" "e2e-design"
done
echo ok
