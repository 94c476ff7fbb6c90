# A benchmark that fails partway through a run (its 7th call exits 1):
# exit 3, verdict invalid, and nothing measured before it is lost: the 6
# samples of the first 6 calls stay committed in the store, each with the
# checksum that call printed, the failed sample is stored as failed, and
# the store passes integrity_check.
. "$(dirname "$0")/corpus.sh"

db="$T/store.db"
make_repo "$T/repo" 2 1
cat >"$T/bench.sh" <<EOF2
#!/bin/sh
n=\$((\$(cat "$T/count" 2>/dev/null || echo 0) + 1))
echo \$n >"$T/count"
[ \$n = 7 ] && { echo "call 7 breaks" >&2; exit 1; }
out=\$(./bench "\$@")
echo "\$out"
echo "\$n \$out" >>"$T/calls"
EOF2
chmod +x "$T/bench.sh"
EXP_PAIRS=6 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
expect_fail 3 "failed" "$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
[ "$(cat "$T/count")" = 7 ] || fail "the run went on after the failed sample: $(cat "$T/count") calls"
[ "$(wc -l <"$T/calls")" = 6 ] || fail "expected 6 good calls"
# status 1 is "ran"; the 7th ran and failed
[ "$(sqlite3 "$db" "select count(*) from samples where status = 1 and exit_code = 0")" = 6 ] \
	|| fail "committed good samples: $(sqlite3 "$db" "select count(*) from samples where status = 1 and exit_code = 0"), expected 6"
# every good call's checksum, in order, is a committed sample's
sed 's/.*checksum=//' "$T/calls" >"$T/want"
sqlite3 "$db" "select checksum from samples where status = 1 and exit_code = 0 order by seq" >"$T/got"
cmp -s "$T/want" "$T/got" || fail "committed checksums differ from what the calls printed"
[ "$(sqlite3 "$db" "select count(*) from samples where status = 1 and exit_code = 0 and wall_ns > 0")" = 6 ] || fail "wall times"
[ "$(sqlite3 "$db" "select seq from samples where status = 1 and exit_code = 1")" = 6 ] || fail "the failed sample is not stored"
[ "$(sqlite3 "$db" "select verdict from runs where id = 1")" = invalid ] || fail "verdict"
assert_integrity "$db"
echo ok
