# --row measures a subset of the matrix: on a scaling experiment the base
# row a scaling predicate needs is added and said; rows keep the
# experiment's own indices in the store; the subset is in the plan, the
# options and the Reproduce line; a rule whose rows are all outside the
# subset is not evaluated; the run is partial and sets no design's
# standing (designs, block_rejected). A candidate about 10x slower, on
# cpu_ns.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 10 100
cat > "$T/repo/exp.yaml" <<'EOF2'
name: rows
design: rows-design
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1, 2, 4]}
scaling: {parameter: lanes, work: total}
metric: cpu_ns
pairs: 6
history: {block_rejected: true}
accept:
  - name: no regression at 4
    where: {lanes: 4}
    no_regression: 5%
  - name: scaling at 4
    where: {lanes: 4}
    scaling_not_worse: 50%
  - name: low lanes
    where: {lanes: 2}
    no_regression: 5%
EOF2
db="$T/repo/.git/abtool/abtool.db"

# check shows the subset; bad selections are refused, naming what exists
expect_exit 0 "$ABTOOL" check "$T/repo/exp.yaml" --row lanes=4
assert_contains "$T/out" "rows      2 of 3 (--row, a partial run): lanes=1, lanes=4"
assert_contains "$T/out" "added     lanes=1: the base row a scaling predicate needs"
assert_contains "$T/out" "rule      low lanes: not evaluated"
expect_exit 64 "$ABTOOL" check "$T/repo/exp.yaml" --row threads=4
assert_contains "$T/err" "--row threads=4: the matrix has no such parameter; the matrix's parameters are: lanes"
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml" --row lanes=3
assert_contains "$T/err" "--row lanes=3: '3' is not a value of lanes; its values are: 1, 2, 4"
expect_exit 64 "$ABTOOL" calibrate "$T/repo/exp.yaml" --row lanes
assert_contains "$T/err" "--row: expected NAME=VALUE"

expect_exit 1 "$ABTOOL" run "$T/repo/exp.yaml" --row lanes=4 --seed 5 --json "$T/part.json"
assert_contains "$T/out" "**Partial run**"
assert_contains "$T/err" "abtool: a partial run of 2 of 3 rows (--row lanes=4): it sets no design's standing"
assert_contains "$T/err" "abtool: row lanes=1 is added: a scaling predicate needs it as the base row"
[ "$(jqv "$T/part.json" .verdict)" = rejected ] || fail "the subset's verdict"
[ "$(jqv "$T/part.json" '.subset.rows | join(",")')" = lanes=4 ] || fail "subset rows"
[ "$(jqv "$T/part.json" '.subset.added | join(",")')" = lanes=1 ] || fail "the base row is added"
[ "$(jqv "$T/part.json" '.subset.not_evaluated | join(",")')" = "low lanes" ] || fail "not evaluated"
[ "$(jqv "$T/part.json" .subset.partial)" = true ] || fail "partial"
python3 "$(dirname "$0")/validate_json.py" "$ABTOOL_TEST_SRC/docs/report-schema.json" "$T/part.json" ||
	fail "the report does not match docs/report-schema.json"
[ "$(jqv "$T/part.json" '.rules[2].detail')" = "not evaluated: every row it selects is outside the subset (--row)" ] ||
	fail "rule 3's detail: $(jqv "$T/part.json" '.rules[2].detail')"
case $(jqv "$T/part.json" .reproduce) in
*" --row lanes=4"*) ;;
*) fail "the Reproduce line lacks the subset: $(jqv "$T/part.json" .reproduce)" ;;
esac
# the experiment's own row indices: lanes=1 is row 0, lanes=4 row 2; nothing planned for row 1
[ "$(sqlite3 "$db" "select group_concat(r, ',') from (select distinct row_idx as r from samples where run_id = 1 order by r)")" = 0,2 ] ||
	fail "row indices in the store"
[ "$(sqlite3 "$db" "select count(*) from samples where run_id = 1")" = 28 ] || fail "2 rows x (6 + 1) x 2 samples"
[ "$(sqlite3 "$db" "select json_extract(options, '\$.partial') from runs where id = 1")" = 1 ] || fail "options: partial"

# a partial rejection sets no standing: designs shows none, block_rejected lets the full run go
"$ABTOOL" designs --json --store "$db" > "$T/designs.json" || fail "designs"
[ "$(jqv "$T/designs.json" '.[0].latest_verdict')" = null ] || fail "a partial run set the standing"
expect_exit 1 "$ABTOOL" run "$T/repo/exp.yaml" --seed 5 --json "$T/full.json"
[ "$(jqv "$T/full.json" '.subset')" = null ] || fail "a full run has no subset"
"$ABTOOL" designs --json --store "$db" > "$T/designs.json" || fail "designs"
[ "$(jqv "$T/designs.json" '.[0].latest_verdict')" = rejected ] || fail "the full run sets the standing"
expect_exit 64 "$ABTOOL" run "$T/repo/exp.yaml" --row lanes=4
assert_contains "$T/err" "design 'rows-design' was rejected in run 2"
echo ok
