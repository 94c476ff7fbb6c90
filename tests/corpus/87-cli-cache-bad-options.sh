# abtool cache with bad options: a size or a duration without its unit,
# prune without a limit, a limit without prune, an unknown action: exit 64
# naming what it expected, and the cache untouched.
. "$(dirname "$0")/corpus.sh"

expect_fail 64 "prune needs --older-than DURATION or --keep-size SIZE" "$ABTOOL" cache prune
for s in lots 2Q -1G "2 G"; do
	expect_fail 64 "--keep-size: expected a size like 2G, 500M or 64K (powers of 1024), got '$s'" \
		"$ABTOOL" cache prune --keep-size "$s"
done
for d in 30 -3d soon; do
	expect_fail 64 "--older-than: expected a duration like 30d, 12h or 90m, got '$d'" \
		"$ABTOOL" cache prune --older-than "$d"
done
expect_fail 64 "--older-than and --keep-size go with 'abtool cache prune'" \
	"$ABTOOL" cache clear --keep-size 2G
expect_fail 64 "expected list, prune or clear, got 'purge'" "$ABTOOL" cache purge
[ ! -e "$XDG_CACHE_HOME/abtool" ] || fail "a bad cache command touched the cache"
echo ok
