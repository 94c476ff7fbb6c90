# A benchmark printing more than 1 MiB with `checksum: {stdout: sha256}`:
# the checksum hashes the whole stdout, so no warning about truncated
# output (neither while sampling nor in the report); the samples keep the
# output_truncated flag and their checksums match.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
cat >"$T/flood.sh" <<'EOF2'
#!/bin/sh
head -c 3000000 /dev/zero | tr '\0' x
echo
exec ./bench "$@"
EOF2
chmod +x "$T/flood.sh"
sed -i -e "s|^benchmark: .*|benchmark: $T/flood.sh {lanes}|" \
	-e "s|^checksum: .*|checksum: {stdout: sha256}|" "$T/repo/exp.yaml"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --json "$T/r.json"
assert_not_contains "$T/err" "printed more output than abtool keeps"
assert_not_contains "$T/out" "output_truncated"
[ "$(jqv "$T/r.json" '[.warnings[] | select(test("output_truncated"))] | length')" = 0 ] \
	|| fail "the report warns about truncation: $(jqv "$T/r.json" .warnings)"
[ "$(sqlite3 "$T/store.db" "select count(*) from samples where status = 1 and flags like '%output_truncated%'")" = 6 ] \
	|| fail "samples not flagged output_truncated"
[ "$(jqv "$T/r.json" .rows[0].checksum_match)" = true ] || fail "checksum_match"

# With a metric read from stdout the truncation matters again, and the
# warning names only the metrics.
cat >>"$T/repo/exp.yaml" <<'EOF2'
metrics:
  lanes_seen: {regex: 'lanes=([0-9]+)', unit: n, better: lower}
EOF2
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db" --json "$T/r2.json"
assert_contains "$T/err" "printed more output than abtool keeps"
assert_contains "$T/err" "): metrics come from what was kept"
assert_contains "$T/out" "metrics were read from the first 1 MiB"
assert_integrity "$T/store.db"
echo ok
