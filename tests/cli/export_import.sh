# smoke
# export and import, on wall time (the default metric). Designed error: 0:
# the run may take any verdict (exit 0, 1 or 2); every comparison is of
# that run with its own export, import and store rows.
# A real run in store A, exported and imported into store B (which already
# holds another run, so local ids differ): samples, rows, builds, rule
# results, notes and the report are identical; a second import is a no-op;
# the TSV export has one line per sample with every field.
. "$(dirname "$0")/lib.sh"

a=$(test_store a)
b=$(test_store b)
make_repo "$T/repo" 80 20
cd "$T/repo"  # the importing repository: an old export joins its project
EXP_LANES="1, 2" EXP_NAME=halve EXP_DESIGN=halve-the-loop EXP_METRIC=wall_ns write_exp "$T/repo"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$a" --quiet --seed 21
expect_exit 0 "$ABTOOL" note 1 --store "$a" "measured on the quiet box"
expect_exit 0 "$ABTOOL" note --design halve-the-loop --store "$a" "idea from the loop review"
# B has a run of its own first: the imported run gets local id 2 there.
cp "$ABTOOL_TEST_SRC/tests/fixtures/store-v1.db" "$T/v1.db"
expect_exit 0 "$ABTOOL" export 2 --store "$T/v1.db" -o "$T/other.json"
expect_exit 0 "$ABTOOL" import "$T/other.json" --store "$b"

expect_exit 0 "$ABTOOL" export 1 --format json --store "$a" -o "$T/a.json"
[ "$(jqv "$T/a.json" .schema)" = abtool-export-1 ] || fail "schema"
[ "$(jqv "$T/a.json" '.samples | length')" = 28 ] || fail "2 rows x (6 pairs + 1 warmup) x 2 sides = 28 samples"
[ "$(jqv "$T/a.json" '.samples[0] | keys | length')" = 31 ] || fail "every sample field"
jqv "$T/a.json" '.samples[0] | has("started_ns") and has("runq_ns") and has("waited_ns")' | grep -qx true ||
	fail "the sample's timing fields (migration 12)"
[ "$(jqv "$T/a.json" '.samples[5].metrics.wall_ns')" = "$(sql "$a" "SELECT wall_ns FROM samples WHERE seq = 5")" ] \
	|| fail "metrics as numbers"
[ "$(jqv "$T/a.json" '.experiment.text')" = "$(cat "$T/repo/exp.yaml")" ] || fail "experiment text"
[ "$(jqv "$T/a.json" '.notes | map(.scope + ":" + .text) | join("|")')" \
	= "run:measured on the quiet box|design:idea from the loop review" ] || fail "notes"

expect_exit 0 "$ABTOOL" import "$T/a.json" --store "$b"
uuid=$(jqv "$T/a.json" .run.uuid)
assert_contains "$T/out" "imported run $uuid as run 2: halve, design 'halve-the-loop', $(jqv "$T/a.json" .run.verdict)"
expect_exit 0 "$ABTOOL" export 2 --format json --store "$b" -o "$T/b.json"

# Identical but for the local id and the export time.
strip='del(.exported_at, .run.id, .run.report.run_id)'
jq -S "$strip" "$T/a.json" >"$T/a.cmp"
jq -S "$strip" "$T/b.json" >"$T/b.cmp"
diff "$T/a.cmp" "$T/b.cmp" >&2 || fail "export of B's run differs from A's"
[ "$(jqv "$T/b.json" .run.id)" = 2 ] || fail "new local id"
[ "$(jqv "$T/b.json" .run.report.run_id)" = 2 ] || fail "the report names the local id"
for table in samples rows builds rule_results row_results rule_row_results; do
	na=$(sql "$a" "SELECT count(*) FROM $table WHERE run_id = 1")
	nb=$(sql "$b" "SELECT count(*) FROM $table WHERE run_id = 2")
	[ "$na" = "$nb" ] && [ "$na" -gt 0 ] || fail "$table: $na in A, $nb in B"
done
[ "$(sql "$a" "SELECT * FROM samples WHERE run_id = 1 ORDER BY seq" | cut -d'|' -f2- | sha256sum)" \
	= "$(sql "$b" "SELECT * FROM samples WHERE run_id = 2 ORDER BY seq" | cut -d'|' -f2- | sha256sum)" ] \
	|| fail "sample rows differ"
# The report regenerates from B as it did from A, but for the run's id.
"$ABTOOL" report 1 --store "$a" | sed 's/run 1 ·/run N ·/; s/report 1 --format/report N --format/' >"$T/a.md"
"$ABTOOL" report 2 --store "$b" | sed 's/run 2 ·/run N ·/; s/report 2 --format/report N --format/' >"$T/b.md"
cmp -s "$T/a.md" "$T/b.md" || fail "the Markdown report differs"
# It is searchable and listed in B.
[ "$("$ABTOOL" history --store "$b" --grep "quiet box" --json | jq -r 'map(.uuid) | join(",")')" = "$uuid" ] \
	|| fail "imported note not searchable"

# A finished run's row results (written with its verdict) hold the
# report's numbers: one primary line per row, the rule outcomes per row.
[ "$(jqv "$T/a.json" '.row_results | map(select(.is_primary == 1) | [.row_idx, .metric, .ratio, .ci_low,
	.ci_high, .pair_wins, .pairs, .parent_median, .candidate_rsd, .p_signed_rank]) | tojson')" \
	= "$(jqv "$T/a.json" '.run.report.rows | to_entries | map([.key, .value.metric, .value.ratio,
	.value.ci[0], .value.ci[1], .value.pair_wins, .value.pairs, .value.parent.median,
	.value.candidate.rsd, .value.p_signed_rank]) | tojson')" ] || fail "row_results differ from the report"
[ "$(jqv "$T/a.json" '.row_results | map(select(.is_primary == 1)) | length')" = 2 ] || fail "2 primary row results"
[ "$(jqv "$T/a.json" '.rule_row_results | map("\(.rule_idx):\(.row_idx):\(.outcome)") | join(",")')" \
	= "$(jqv "$T/a.json" '[.run.report.rules | to_entries[] | .key as $i | .value.rows | to_entries[] |
	"\($i):\(.key):\(.value.outcome)"] | join(",")')" ] || fail "rule_row_results differ from the report"
# An export without them (an older abtool's) gets them from its report.
jq '.run.uuid = "0123456789abcdef0123456789abcdee" | del(.row_results, .rule_row_results)
	| .rule_results |= map(del(.metric))' "$T/a.json" >"$T/old.json"
expect_exit 0 "$ABTOOL" import "$T/old.json" --store "$b"
expect_exit 0 "$ABTOOL" export 3 --format json --store "$b" -o "$T/old-b.json"
[ "$(jq -S '.row_results, .rule_row_results, .rule_results' "$T/old-b.json")" \
	= "$(jq -S '.row_results, .rule_row_results, .rule_results' "$T/a.json")" ] \
	|| fail "row results not derived again on import"

# Importing the same run again changes nothing.
before=$(sql "$b" "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM samples), (SELECT count(*) FROM notes)")
expect_exit 0 "$ABTOOL" import "$T/a.json" --store "$b"
assert_contains "$T/out" "run $uuid is already in the store '$b' as run 2; nothing imported"
[ "$(sql "$b" "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM samples), (SELECT count(*) FROM notes)")" \
	= "$before" ] || fail "second import changed the store"

# Broken input is refused with a reason, and nothing is stored.
echo '{"schema": "abtool-export-1"' >"$T/bad.json"
expect_exit 64 "$ABTOOL" import "$T/bad.json" --store "$b"
assert_contains "$T/err" "bad.json:"
jq '.run.uuid = "0123456789abcdef0123456789abcdef" | .experiment.text = "name: edited\n"' "$T/a.json" >"$T/edited.json"
expect_exit 64 "$ABTOOL" import "$T/edited.json" --store "$b"
assert_contains "$T/err" "experiment.hash"
expect_exit 74 "$ABTOOL" import "$T/missing.json" --store "$b"
assert_contains "$T/err" "cannot read '$T/missing.json'"
"$ABTOOL" report 1 --store "$a" --format json >"$T/report.json"
expect_exit 64 "$ABTOOL" import "$T/report.json" --store "$b"
assert_contains "$T/err" "not an abtool export"
[ "$(sql "$b" "SELECT count(*) FROM runs")" = 3 ] || fail "a refused import stored something"

# TSV: a header and one line per sample, every field.
expect_exit 0 "$ABTOOL" export 1 --format tsv --store "$a"
[ "$(wc -l <"$T/out")" = 29 ] || fail "TSV lines"
head -n 1 "$T/out" | tr '\t' '\n' >"$T/cols"
for col in run seq row_idx param.lanes pair warmup side pair_order status started_at wall_ns user_ns sys_ns \
	maxrss_bytes minflt majflt nvcsw nivcsw exit_code signal timed_out flags checksum error stdout stderr metric.cpu_ns; do
	grep -qx "$col" "$T/cols" || fail "TSV column $col"
done
awk -F'\t' 'NR > 1 && NF != '"$(wc -l <"$T/cols")"' { exit 1 }' "$T/out" || fail "ragged TSV"
col=$(grep -nx wall_ns "$T/cols" | cut -d: -f1)
[ "$(awk -F'\t' -v c="$col" 'NR == 7 { print $c }' "$T/out")" = "$(sql "$a" "SELECT wall_ns FROM samples WHERE seq = 5")" ] \
	|| fail "TSV wall_ns of seq 5"
[ "$(awk -F'\t' 'NR == 2 { print $1 }' "$T/out")" = "$uuid" ] || fail "TSV run uuid"
expect_exit 64 "$ABTOOL" export 1 --format csv --store "$a"
echo ok
