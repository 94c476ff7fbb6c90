# A benchmark that prints 50 MB on stdout before its checksum: the run
# works, the samples are flagged output_truncated (warned on stderr and in
# the report), and abtool does not hold the 50 MB (max RSS, measured on a
# run whose builds are cached, so no compiler counts).
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --quiet
cat >"$T/flood.sh" <<'EOF2'
#!/bin/sh
head -c 50000000 /dev/zero | tr '\0' x
echo
exec ./bench "$@"
EOF2
chmod +x "$T/flood.sh"
sed -i "s|^benchmark: .*|benchmark: $T/flood.sh {lanes}|" "$T/repo/exp.yaml"
expect_decided /usr/bin/time -o "$T/rss" -f %M "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --json "$T/r.json"
assert_contains "$T/err" "printed more output than abtool keeps"
assert_contains "$T/out" "flagged 'output_truncated'"
rss=$(tail -n 1 "$T/rss")
# (the memory bound holds in the normal build; ASan's shadow memory is not abtool's)
[ -n "${ABTOOL_SANITIZED:-}" ] || [ "$rss" -lt 30000 ] || fail "max RSS $rss KiB: the output was held in memory"
[ "$(sqlite3 "$T/store.db" "select count(*) from samples where run_id = 2 and status = 1 and flags like '%output_truncated%' and checksum = '7919'")" = 6 ] \
	|| fail "samples not flagged, or their checksum lost: $(sqlite3 "$T/store.db" "select flags, checksum from samples where run_id = 2")"
[ "$(jqv "$T/r.json" .rows[0].checksum_match)" = true ] || fail "checksum_match"
echo "max RSS $rss KiB"
assert_integrity "$T/store.db"
echo ok
