# A matrix or a plan beyond the experiment's limits is refused when the
# file loads (check says so) and when --pairs grows the plan, before
# anything is stored (exit 64): a 1 KB file with three 100-value
# parameters (a million rows, 18 million samples) once passed check and
# took gigabytes at run. The message gives the default limit and the key
# that raises it; raised, the same file passes.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w"
cd "$T/w"
values=$(seq -s, 0 99)
printf 'name: big\nsides: {a: {name: a, command: "true {x}{y}{z}"}, b: {name: b, command: "true"}}\nmatrix:\n  x: [%s]\n  y: [%s]\n  z: [%s]\n' \
	"$values" "$values" "$values" >rows.yaml
expect_fail 64 "rows.yaml:3:1: matrix: the matrix has 1000000 rows, more than limits.rows (10000, the default); measure fewer values, or raise the limit in the experiment file with limits: {rows: 1000000}" \
	"$ABTOOL" check rows.yaml
expect_fail 64 "more than limits.rows" "$ABTOOL" run rows.yaml --store s.db
[ ! -e s.db ] || fail "a store was made for a refused plan"

printf 'name: big\nsides: {a: {name: a, command: "true {x}{y}"}, b: {name: b, command: "true"}}\nmatrix:\n  x: [%s]\n  y: [%s]\npairs: 8\n' \
	"$values" "$values" >samples.yaml
expect_fail 64 "samples.yaml:6:1: pairs: the plan has 180000 samples (10000 rows x 2 sides x (8 pairs + 1 warmup)), more than limits.samples (100000, the default); plan fewer rows or pairs (--row, --pairs), or raise the limit in the experiment file with limits: {samples: 180000}" \
	"$ABTOOL" check samples.yaml
printf 'limits: {samples: 180000}\n' >>samples.yaml
expect_exit 0 "$ABTOOL" check samples.yaml
assert_contains "$T/out" "180000 samples"
# the command line grows the plan past the limit
expect_fail 64 "samples.yaml, --warmup 2: the plan has 200000 samples" \
	"$ABTOOL" run samples.yaml --store s.db --warmup 2
expect_fail 64 "samples.yaml, --pairs 20: the plan has 420000 samples (10000 rows x 2 sides x (20 pairs + 1 warmup)), more than limits.samples (180000)" \
	"$ABTOOL" run samples.yaml --store s.db --pairs 20
[ ! -e s.db ] || [ "$(sqlite3 s.db "select count(*) from runs")" = 0 ] || fail "a refused plan was stored"
printf 'name: x\nsides: {a: {name: a, command: "true"}, b: {name: b, command: "true"}}\nlimits: {rows: 2000000}\n' >bad.yaml
expect_fail 64 "bad.yaml:3:10: limits.rows: expected an integer from 1 to 1000000" "$ABTOOL" check bad.yaml
echo ok
