# A store on a read-only file system (a read-only bind mount, in a mount
# namespace of its own): sqlite cannot make the -wal and -shm files its
# WAL needs beside the store, even to read it. Exit 74 with what happened
# and what to do (copy the store to a writable place, pass --store),
# instead of "enabling WAL: unable to open database file: No such file or
# directory". A new store there is refused the same way; the copy works.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
mkdir -p "$T/ro"
db="$T/ro/store.db"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
unshare -m true 2>/dev/null || { echo "skipped: no mount namespace (unshare -m)"; exit 0; }
cat >"$T/inside.sh" <<EOF2
mount --bind -o ro "$T/ro" "$T/ro" || exit 99
"$ABTOOL" history --store "$db" >"$T/out1" 2>"$T/err1"; echo \$? >"$T/rc1"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/ro/new.db" >"$T/out2" 2>"$T/err2"; echo \$? >"$T/rc2"
EOF2
unshare -m sh "$T/inside.sh"
[ $? = 99 ] && { echo "skipped: no read-only bind mount"; exit 0; }
[ "$(cat "$T/rc1")" = 74 ] || { cat "$T/err1" >&2; fail "history: exit $(cat "$T/rc1"), expected 74"; }
assert_contains "$T/err1" "abtool: store '$db' cannot be written: its file system is mounted read-only (while opening); abtool writes beside its store even to read it (sqlite's '$db-wal' and '$db-shm'), so it cannot be used where it is; copy it to a writable folder and pass --store with the copy, or make it writable"
assert_not_contains "$T/err1" "No such file or directory"
[ "$(cat "$T/rc2")" = 74 ] || { cat "$T/err2" >&2; fail "run: exit $(cat "$T/rc2"), expected 74"; }
assert_contains "$T/err2" "cannot open the store '$T/ro/new.db': its file system is mounted read-only; give --store a file in a folder you can write"
cp "$db" "$T/copy.db"
expect_exit 0 "$ABTOOL" history --store "$T/copy.db"
assert_contains "$T/out" "e2e-design"
# a folder without write permission (root writes anywhere)
if [ "$(id -u)" != 0 ]; then
	chmod 555 "$T/ro"
	expect_fail 74 "its folder '$T/ro' is not writable (Permission denied)" "$ABTOOL" history --store "$db"
	chmod 755 "$T/ro"
fi
echo ok
