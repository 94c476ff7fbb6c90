# compare given no rule (issue 35, item 14): the default rule `differs`
# on the sequential plan 8..64 decides which side is faster, exits 0 when a
# difference is shown and 2 when none is at the maximum, and the reports
# print hyperfine's summary line. Decided on a count the commands print
# (--metric work: exact, the same on every run) and on cpu_ns at 10x the
# work with the faster side about 30 ms of CPU, never on wall time.
# Designed error of the cpu_ns case: it fails only when no look's repeated
# interval excludes 1 up to 64 pairs, which needs about half of the pairs
# reversed, each by a CPU-time inflation of the faster side of some 200 ms
# (the issue's busy host inflates a sample by up to 100 ms now and then):
# below 1e-9.
. "$(dirname "$0")/lib.sh"

# loop N: N million dependent multiply-adds, then "work=N000000"
cat >"$T/loop.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	unsigned long long n = strtoull(argv[1], NULL, 10) * 1000000ULL, x = 1, i;
	volatile unsigned long long sink;
	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
	(void)sink;
	printf("work=%llu\n", n);
	return 0;
}
EOF2
cc -O1 -o "$T/loop" "$T/loop.c" || fail "cc loop.c"
db="$T/s.db"

# 10x the work on the printed count: every pair says so, the first look
# (8 pairs) decides, exit 0, and the line names the faster side
expect_exit 0 "$ABTOOL" compare --store "$db" --metric work -n small -n big --seed 1 --format text \
	--json "$T/c.json" "$T/loop 1" "$T/loop 10"
assert_contains "$T/out" '`small` was 10.00 [10.00, 10.00] times better than `big` on work'
[ "$(jqv "$T/c.json" '[.verdict, (.rules | length), .rules[0].name, .rules[0].differs, .rules[0].outcome,
	.rows[0].pairs, .sequential.max_pairs] | map(tostring) | join(" ")')" = "accepted 1 differs true pass 8 64" ] \
	|| fail "the difference: $(jq -c '[.verdict, .rules, .rows[0].pairs]' "$T/c.json")"
assert_contains "$T/c.json" "(a difference shown, in favour of small): pass"
# the Markdown report: the line under the verdict
expect_exit 0 "$ABTOOL" report 1 --store "$db"
assert_contains "$T/out" '`small` was 10.00 [10.00, 10.00] times better than `big` on work'
# the JSON document validates against the schema, `differs: true` and all
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then
		"$p" "$(dirname "$0")/validate_json.py" "$ABTOOL_TEST_SRC/docs/report-schema.json" "$T/c.json" \
			|| fail "the comparison's report does not validate"
		break
	fi
done

# an A/A of identical counts: the ratio is exactly 1, no look decides, the
# row runs to the maximum (64 pairs) and the verdict is inconclusive: exit 2
expect_exit 2 "$ABTOOL" compare --store "$db" --metric work -n one -n same --json "$T/aa.json" \
	"$T/loop 1" "$T/loop 1"
assert_contains "$T/out" '`one` and `same`: no difference shown, which is not equivalence (ratio B/A 1.000 [1.000, 1.000] contains 1)'
[ "$(jqv "$T/aa.json" '[.verdict, .rules[0].outcome, .rows[0].pairs, .rows[0].ratio] | map(tostring) | join(" ")')" \
	= "inconclusive inconclusive 64 1" ] || fail "the A/A: $(jq -c '[.verdict, .rules, .rows[0].pairs]' "$T/aa.json")"
assert_contains "$T/aa.json" "no difference shown, which is not equivalence (the interval contains 1.000): inconclusive"
# the JUnit view skips it with that reason, as the exit code says
expect_exit 0 "$ABTOOL" report 2 --store "$db" --format junit
assert_contains "$T/out" "no difference shown, which is not equivalence"
assert_contains "$T/out" "<skipped"

# -r 3: fewer pairs than an exact one-sided 95% bound needs (5): said on
# stderr before the first sample (the run's events follow it), and the
# summary line still says no difference is shown
expect_exit 2 "$ABTOOL" compare --store "$db" --metric work -r 3 -n one -n same "$T/loop 1" "$T/loop 1"
assert_contains "$T/err" "warning: 3 pairs per row at most: an exact one-sided 95% bound needs 5"
[ "$(grep -n '3 pairs per row at most' "$T/err" | cut -d: -f1)" -lt "$(grep -n 'verdict: ' "$T/err" | cut -d: -f1)" ] \
	|| fail "the warning came after the run: $(cat "$T/err")"
assert_contains "$T/out" '`one` and `same`: no difference shown (ratio B/A 1.000; 3 pairs are too few for an interval)'

# a rule given: only that rule, on the fixed 8 pairs, as before
expect_exit 0 "$ABTOOL" compare --store "$db" --metric work --faster-by 50% --json "$T/r.json" --quiet \
	"$T/loop 10" "$T/loop 1"
[ "$(jqv "$T/r.json" '[(.rules | map(.name) | join(",")), .rows[0].pairs, (.sequential == null)]
	| map(tostring) | join(" ")')" = "faster-by 8 true" ] || fail "a rule given: $(jq -c .rules "$T/r.json")"

# cpu_ns at 10x the work: hyperfine's wording, "ran N [L, U] times faster"
expect_exit 0 "$ABTOOL" compare --store "$db" --metric cpu_ns -n fast -n slow --json "$T/t.json" \
	"$T/loop 20" "$T/loop 200"
grep -qE '^`fast` ran [0-9]+\.[0-9]{2} \[[0-9]+\.[0-9]{2}, [0-9]+\.[0-9]{2}\] times faster than `slow`$' "$T/out" \
	|| fail "no summary line: $(grep -F 'times faster' "$T/out")"
[ "$(jqv "$T/t.json" '.verdict + " " + .rules[0].outcome')" = "accepted pass" ] || fail "cpu_ns verdict"
echo ok
