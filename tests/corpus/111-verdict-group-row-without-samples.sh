# verdict --group of a group whose shards are all finished but one of
# whose rows has no sample left in the store (deleted by hand) is
# incomplete (exit 2, not decided), naming the row, its shard and run;
# it used to decide on the rows left ("rejected ... in all 3 rows" of a
# matrix of 4). The candidate is 3x slower in cpu_ns, so the complete
# group is rejected.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w"
cd "$T/w"
cat >exp.yaml <<'EOF2'
name: shards
sides:
  a: {name: a, command: "i=0; while [ $i -lt 15000 ]; do i=$((i+1)); done; echo n={n}"}
  b: {name: b, command: "i=0; while [ $i -lt 45000 ]; do i=$((i+1)); done; echo n={n}"}
matrix: {n: [1, 2, 3, 4]}
metric: cpu_ns
pairs: 8
warmup: 0
accept:
  - name: no regression
    no_regression: 10%
EOF2
expect_exit 1 "$ABTOOL" run exp.yaml --store s.db --seed 1 -q --shard 1/2 --group g
expect_exit 1 "$ABTOOL" run exp.yaml --store s.db --seed 2 -q --shard 2/2 --group g
expect_exit 1 "$ABTOOL" verdict --group g --store s.db -q
shard=$(sqlite3 s.db "select run_id from samples where row_idx = 1 limit 1")
sqlite3 s.db "delete from samples where row_idx = 1" || fail "cannot delete the row's samples"
expect_fail 2 "abtool: group 'g' is incomplete, not decided: no measured pair of row n=2 (shard " \
	"$ABTOOL" verdict --group g --store s.db
assert_contains "$T/err" ", run $shard); the store lacks the samples of 1 row of the plan"
assert_not_contains "$T/err" "verdict:"
echo ok
