# history --grep searches what a user wrote and what distinguishes a run,
# not the explanations abtool writes into every reason (issue 35, item
# 8): "noise alone reaches 5 of 6 ..." (a passing min_pair_wins finding
# beside a failing one) and "not fewer than noise allows" (an
# inconclusive one) no longer make --grep noise find their runs; the run
# whose hypothesis says noise, and one whose note does, are found. A
# rule's name, a row's parameters, the finding that failed and an
# integrity failure are still found. On sqlite and on PostgreSQL alike
# (PG_CASES). The runs compare commands that print a count (v), so their
# reasons are the same on every host.
. "$(dirname "$0")/lib.sh"

db=$(test_store store)
# exp FILE NAME HYPOTHESIS A B RULE [EXTRA]: a comparison of the commands A
# and B, which print v=N, under the rule RULE
exp() {
	cat >"$T/$1" <<EOF2
name: $2
design: $2
hypothesis: $3
sides:
  a: {name: before, command: "$4"}
  b: {name: after, command: "$5"}
metric: v
metrics:
  v: {regex: "v=([0-9]+)", better: lower}
pairs: 6
warmup: 0
${7:-}
accept:
  - $6
EOF2
}
# 1: rejected: faster_by fails, min_pair_wins passes (6 of 6 wins), on
# the row load=heavy
exp mixed.yaml batched-publication "batching removes the convoy on the allocation lock" \
	"echo v=100" "echo v=99" "{name: material gain, faster_by: 10%, min_pair_wins: 5}" "matrix: {load: [heavy]}"
# 2: inconclusive: 4 wins of 6 where 5 are needed (the candidate's first
# four samples print less, then more), not fewer than noise allows
exp wins.yaml fewer-wakeups "waking one waiter instead of all of them saves the herd" "echo v=2" \
	"n=\$(cat n 2>/dev/null || echo 0); echo \$((n + 1)) >n; if [ \$n -lt 4 ]; then echo v=1; else echo v=3; fi" \
	"{name: majority wins, min_pair_wins: 5}"
# 3: accepted, its hypothesis says noise
exp noisy.yaml quieter-timer "a coarser timer takes the noise out of the wakeup path" "echo v=2" "echo v=1" \
	"{name: faster, faster_by: 10%}"
# 4: invalid: the sides print different checksums
exp wrong.yaml cheaper-hash "a cheaper hash of the same keys" "echo v=2 sum=7919" "echo v=1 sum=7920" \
	"{name: faster, faster_by: 10%}" "checksum: {regex: 'sum=(\\S+)'}"
expect_exit 1 "$ABTOOL" run "$T/mixed.yaml" --store "$db" -q
expect_exit 2 "$ABTOOL" run "$T/wins.yaml" --store "$db" -q
expect_exit 0 "$ABTOOL" run "$T/noisy.yaml" --store "$db" -q
expect_exit 3 "$ABTOOL" run "$T/wrong.yaml" --store "$db" -q
expect_exit 0 "$ABTOOL" note 4 --store "$db" "the noise floor of this box hides a 1% change"
expect_exit 0 "$ABTOOL" note 1 --store "$db" "measured again on the quiet box: the same"
# the reasons hold abtool's explanations with the word
expect_exit 0 "$ABTOOL" history --store "$db" --json
jq -r '.[] | select(.id == 1 or .id == 2) | .reasons[0]' "$T/out" >"$T/reasons"
[ "$(grep -c noise "$T/reasons")" = 2 ] || fail "the reasons do not explain with 'noise': $(cat "$T/reasons")"
grep -q "(observed; noise alone reaches 5 of 6 with probability" "$T/reasons" || fail "no 'noise alone reaches'"
grep -q "not fewer than noise allows" "$T/reasons" || fail "no 'not fewer than noise allows'"

# grep TEXT WANT: the runs history --grep TEXT lists, as "4,3"
grep_is() {
	expect_exit 0 "$ABTOOL" history --store "$db" --grep "$1" --ids
	[ "$(tr '\n' ',' <"$T/out" | sed 's/,$//')" = "$2" ] ||
		fail "--grep '$1': runs '$(tr '\n' ',' <"$T/out")', expected '$2'"
}
grep_is noise 4,3                 # run 4's note, run 3's hypothesis
grep_is "noise alone" ""          # abtool's explanation
grep_is allows ""
grep_is probability ""
grep_is least ""                  # run 1's passing finding ("at least the 5 needed")
grep_is "material gain" 1         # a rule's name
grep_is "majority wins" 2
grep_is heavy 1                   # a row's parameter
grep_is "lower bound" 1           # the failing finding
grep_is "fewer needed" 2          # the inconclusive one
grep_is checksum 4                # an integrity failure, whole
grep_is 7920 4
grep_is "quiet box" 1             # a note
grep_is herd 2                    # a hypothesis
# what the search reads of each run (runs.search_text), the same on both engines
[ "$(sql "$db" "SELECT search_text FROM runs WHERE id = 1")" = "material gain
load=heavy: ratio 0.990
lower bound 0.990 above 0.909 = 1/1.1" ] || fail "run 1's search text: $(sql "$db" "SELECT search_text FROM runs WHERE id = 1")"
[ "$(sql "$db" "SELECT search_text FROM runs WHERE id = 2")" = "majority wins
all: ratio 0.866
4 pair wins, fewer than the 5 needed" ] || fail "run 2's search text: $(sql "$db" "SELECT search_text FROM runs WHERE id = 2")"

# export and import keep it: the imported run is found as its original
expect_exit 0 "$ABTOOL" export 1 --store "$db"
cp "$T/out" "$T/run1.json"
other=$(test_store other)
expect_exit 0 "$ABTOOL" import "$T/run1.json" --store "$other"
expect_exit 0 "$ABTOOL" history --store "$other" --grep "material gain" --ids
[ "$(cat "$T/out")" = 1 ] || fail "the imported run is not found by its rule's name"
expect_exit 0 "$ABTOOL" history --store "$other" --grep noise --ids
[ ! -s "$T/out" ] || fail "the imported run is found by 'noise'"
echo ok
