# run --shard / --group and verdict with bad options: malformed K/N, a
# shard without its group, a group without its shard, verdict without a
# group, with an operand, on a missing store or a group it does not hold:
# exit 64 naming what was expected, nothing measured or created.
. "$(dirname "$0")/corpus.sh"

printf 'name: x\nbenchmark: ./bench {lanes}\nmatrix: {lanes: [1, 2]}\naccept:\n  - {name: r, faster_by: 5%%}\n' \
	> "$T/exp.yaml"
for s in 1 0/2 3/2 a/b 1/2/3 "1 /2" 1/0 -1/2 1/1001; do
	expect_fail 64 "--shard: expected K/N, shard K of N" "$ABTOOL" run "$T/exp.yaml" --shard "$s" --group g
done
expect_fail 64 "--shard and --group go together" "$ABTOOL" run "$T/exp.yaml" --shard 1/2
expect_fail 64 "--shard and --group go together" "$ABTOOL" run "$T/exp.yaml" --group g
expect_fail 64 "--group: give the shards' group a name on one line" \
	"$ABTOOL" run "$T/exp.yaml" --shard 1/2 --group "$(printf 'a\nb')"
expect_fail 64 "expected --group ID" "$ABTOOL" verdict
expect_fail 64 "expected --group ID" "$ABTOOL" verdict --group g extra
expect_fail 64 "there is no store at" "$ABTOOL" verdict --group g --store "$T/none.db"
[ ! -e "$T/none.db" ] || fail "verdict created a store"
# a store without runs (a command that only reads no longer makes one of an empty file)
"$ABTOOL" config block_rejected false --store "$T/empty.db" > /dev/null 2>&1 || fail "config"
expect_fail 64 "no run of group 'g' in the store" "$ABTOOL" verdict --group g --store "$T/empty.db"
echo ok
