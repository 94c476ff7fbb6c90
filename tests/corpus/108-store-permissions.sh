# With umask 022, the store abtool creates is the user's alone: the
# per-user store ($XDG_DATA_HOME/abtool/abtool.db, which compare uses
# outside repositories) gets folders 0700 (the XDG base directory
# specification's mode) and the file 0600, and so does a repository's own
# store (.git/abtool, 0700; abtool.db, 0600): both hold failed samples'
# output and the host name. An existing store keeps its mode.
. "$(dirname "$0")/corpus.sh"

umask 022
mkdir -p "$T/w"
cd "$T/w"
export XDG_DATA_HOME="$T/xdg"
expect_decided "$ABTOOL" compare true true --pairs 1 -q
[ "$(stat -c %a "$T/xdg")" = 700 ] || fail "XDG_DATA_HOME made $(stat -c %a "$T/xdg")"
[ "$(stat -c %a "$T/xdg/abtool")" = 700 ] || fail "the per-user store's folder is $(stat -c %a "$T/xdg/abtool")"
[ "$(stat -c %a "$T/xdg/abtool/abtool.db")" = 600 ] || fail "the per-user store is $(stat -c %a "$T/xdg/abtool/abtool.db")"
for f in "$T/xdg/abtool/"*; do
	[ "$(stat -c %a "$f")" = 600 ] || fail "$f is $(stat -c %a "$f")"
done

# a repository's own store
git init -q "$T/repo"
cd "$T/repo"
expect_exit 0 "$ABTOOL" config block_rejected true
[ "$(stat -c %a .git/abtool)" = 700 ] || fail ".git/abtool is $(stat -c %a .git/abtool)"
[ "$(stat -c %a .git/abtool/abtool.db)" = 600 ] || fail "the repository's store is $(stat -c %a .git/abtool/abtool.db)"

# a store made by an older abtool keeps its mode
chmod 640 .git/abtool/abtool.db
expect_exit 0 "$ABTOOL" config block_rejected false
[ "$(stat -c %a .git/abtool/abtool.db)" = 640 ] || fail "an existing store's mode changed"
echo ok
