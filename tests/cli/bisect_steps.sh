# abtool bisect's steps (the third statistics audit, items 11 and 12), on a
# generated 12-commit repository where commit 7 makes lanes=4 do 10x the
# work, decided on the benchmark's own count of its steps (a metric it
# prints; exact, as in bisect.sh, so that no step's decision depends on
# the machine: designed error 0):
# - with a sequential plan the steps run its looks, their alpha spent at the
#   bisect's level, and stop once decided (fewer pairs than the maximum);
#   --steps fixed runs every pair of the maximum, as documented;
# - a step is not a design's run: its runs are of kind 'bisect', the design
#   is not listed by `designs` nor `designs --rejected` (the confirmation
#   is a rejected run of the experiment's rules), a later `abtool run` of the
#   experiment hears of no rejection and block_rejected does not refuse it;
# - history marks the steps, and keeps marking them after `export`/`import`
#   and after `sync` to a second store, where the bisect itself is not.
. "$(dirname "$0")/lib.sh"

dir="$T/repo"
mkdir -p "$dir"
git -C "$dir" init -q
printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' > "$dir/Makefile"
echo bench > "$dir/.gitignore"
for i in $(seq 1 12); do
	f=1
	[ "$i" -ge 7 ] && f=10
	cat > "$dir/bench.c" <<EOF2
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int lanes = atoi(argv[1]);
	double factor = lanes >= 4 ? $f : 1.0;
	unsigned long long n = (unsigned long long)(1e6 * factor), x = 1, i;
	volatile unsigned long long sink;
	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
	(void)sink;
	printf("checksum=%d steps=%llu\n", lanes * 31, n);
	return 0;
}
EOF2
	echo "commit $i" > "$dir/NOTES"
	git -C "$dir" add -A
	git -C "$dir" commit -qm "commit $i"
done
cat > "$dir/exp.yaml" <<'EOF2'
name: bisect-steps
design: halve-the-loop
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
metrics:
  steps: {regex: 'steps=(\S+)', unit: steps, better: lower}
matrix: {lanes: [1, 4]}
metric: steps
pairs: {min: 8, max: 32}
warmup: 0
accept:
  - name: no regression
    no_regression: 40%
EOF2
db="$T/a.db"

# 1. sequential steps (the default for a sequential plan): commit 7, and
# the steps that reach stop before the plan's 32 pairs
expect_exit 0 "$ABTOOL" bisect "$dir/exp.yaml" --good HEAD~11 --bad HEAD --row lanes=4 --seed 1 \
	--store "$db" --json "$T/seq.json"
[ "$(jqv "$T/seq.json" .culprit.subject)" = "commit 7" ] || fail "sequential steps: culprit $(jqv "$T/seq.json" .culprit.subject)"
[ "$(jqv "$T/seq.json" .step_plan.kind)" = sequential ] || fail "the steps are not sequential"
[ "$(jqv "$T/seq.json" '[.steps[] | select(.decision == "reaches") | .pairs] | min')" -lt 32 ] ||
	fail "no step stopped before the last look: $(jqv "$T/seq.json" '[.steps[] | .pairs] | join(",")')"
assert_contains "$T/out" "(sequential: the plan's looks, their alpha spent at that level, each stopping once decided)"
steps=$(jqv "$T/seq.json" '.steps | length')
[ "$(sqlite3 "$db" "select count(*) from runs where kind = 'bisect'")" = "$steps" ] || fail "the steps' kind"
alpha=$(jqv "$T/seq.json" .alpha_per_comparison)
run=$(jqv "$T/seq.json" '.steps[1].run')
[ "$(sqlite3 "$db" "select json_extract(options, '$.sequential.alpha') from runs where id = $run")" = "$alpha" ] ||
	fail "a step's plan is not at the bisect's level"

# 2. steps are not designs: no design listed, nothing remembered or blocked
expect_exit 0 "$ABTOOL" designs --store "$db" --json
[ "$(jq length "$T/out")" = 0 ] || fail "designs lists a bisect's steps: $(cat "$T/out")"
expect_exit 0 "$ABTOOL" designs --rejected --store "$db" --json
[ "$(jq length "$T/out")" = 0 ] || fail "designs --rejected lists a bisect's steps"
expect_exit 0 "$ABTOOL" config block_rejected true --store "$db"
expect_exit 2 "$ABTOOL" run "$dir/exp.yaml" --pairs 2 --row lanes=1 --store "$db"
assert_not_contains "$T/err" "was rejected"
[ "$(sqlite3 "$db" "select count(*) from runs where kind = 'ab'")" = 1 ] || fail "the run after the bisect"

# 3. history marks the steps, also in another store after export/import
# and after sync, where the bisect itself does not travel
expect_exit 0 "$ABTOOL" history --store "$db"
assert_contains "$T/out" "bisect 1 step 0 (endpoints)"
uuid=$(sqlite3 "$db" "select substr(uuid, 1, 8) from bisects where id = 1")
confirm=$(jqv "$T/seq.json" .culprit.run)
expect_exit 0 "$ABTOOL" export "$confirm" --format json --store "$db" -o "$T/confirm.json"
expect_exit 0 "$ABTOOL" import "$T/confirm.json" --store "$T/b.db"
[ "$(sqlite3 "$T/b.db" "select kind from runs")" = bisect ] || fail "import lost the step's kind"
expect_exit 0 "$ABTOOL" show 1 --store "$T/b.db"
assert_contains "$T/out" "a step ($((steps - 1)), confirm) of bisect $uuid of another store"
expect_exit 0 "$ABTOOL" history --store "$T/b.db" --all-projects
assert_contains "$T/out" "bisect $uuid step $((steps - 1)) (confirm)"
expect_exit 0 "$ABTOOL" designs --store "$T/b.db" --all-projects --json
[ "$(jq length "$T/out")" = 0 ] || fail "an imported step makes a design"
expect_exit 0 "$ABTOOL" sync --from "$db" --to "$T/c.db"
[ "$(sqlite3 "$T/c.db" "select count(*) from runs where kind = 'bisect'")" = "$steps" ] || fail "sync lost the steps' kind"
expect_exit 0 "$ABTOOL" history --store "$T/c.db" --all-projects --json
[ "$(jq '[.[] | select(.bisect != null)] | length' "$T/out")" = "$steps" ] || fail "sync lost the steps' marks"
[ "$(jq -r '[.[] | select(.bisect != null) | .bisect.role] | sort | unique | join(",")' "$T/out")" = \
  "$(jq -r '[.steps[] | .role] | sort | unique | join(",")' "$T/seq.json")" ] || fail "the synced marks' roles"
expect_exit 0 "$ABTOOL" history --store "$T/c.db" --all-projects
assert_contains "$T/out" "bisect $uuid step 0 (endpoints)"

# 4. --steps fixed: every pair of the plan's maximum, as documented
expect_exit 0 "$ABTOOL" bisect "$dir/exp.yaml" --good HEAD~11 --bad HEAD --row lanes=4 --seed 1 \
	--store "$T/fixed.db" --steps fixed --json "$T/fixed.json"
[ "$(jqv "$T/fixed.json" .culprit.subject)" = "commit 7" ] || fail "fixed steps: culprit"
[ "$(jqv "$T/fixed.json" .step_plan.kind)" = fixed ] || fail "the steps are not fixed"
[ "$(jqv "$T/fixed.json" '[.steps[] | .pairs] | unique | join(",")')" = 32 ] ||
	fail "fixed steps ran other than 32 pairs: $(jqv "$T/fixed.json" '[.steps[] | .pairs] | join(",")')"
[ "$(sqlite3 "$T/fixed.db" "select count(*) from runs where options like '%\"sequential\":{%'")" = 0 ] ||
	fail "a fixed step ran looks"
expect_exit 64 "$ABTOOL" bisect "$dir/exp.yaml" --good HEAD~11 --bad HEAD --steps sequential --pairs 8 \
	--store "$T/fixed.db"
assert_contains "$T/err" "--steps sequential: the experiment's plan is fixed"
echo ok
