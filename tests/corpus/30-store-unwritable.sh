# A store that cannot be created (under a regular file: unwritable even
# for root): exit 74 before anything is built, the path named and what to
# do.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
expect_fail 74 "cannot open the store '/dev/null/abtool.db': unable to open database file: Not a directory; give --store a file in a folder you can write" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store /dev/null/abtool.db
touch "$T/plain"
expect_fail 74 "cannot create the store '$T/plain/sub/abtool.db': cannot create directory '$T/plain/sub': Not a directory; give --store a file in a folder you can write" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/plain/sub/abtool.db"
ABTOOL_STORE=/dev/null/abtool.db expect_fail 74 "cannot open the store '/dev/null/abtool.db'" "$ABTOOL" history
[ ! -e "$XDG_CACHE_HOME/abtool/builds" ] || fail "something was built before the store opened"
echo ok
