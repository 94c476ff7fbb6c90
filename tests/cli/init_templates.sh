# `abtool init`: every template passes `abtool check` and, run on a
# candidate 10x faster in CPU time, gives the verdict its header comment
# states for the `abtool demo` repository (whose candidate is faster too),
# and rejects the same change the other way round (10x slower). The
# equivalence template also accepts an A/A (a candidate that only changes
# a README). init never overwrites a file, and an unknown template lists
# the known ones.
# Nothing here decides on what the host does. The templates' rules decide
# on wall time; each written template gets `metric: cpu_ns` appended
# before it runs, and the candidate does a tenth of the parent's work
# (WORK 6 against 60: about 7 ms against 66 ms of CPU, so a pair is
# reversed only by a sample's own CPU time inflated by some 60 ms, where
# a loaded machine adds a few). A rule that names
# its own metric (memory's maxrss_bytes) keeps it: the memory template
# runs on a second repository whose sides both touch a 16 MiB ballast,
# as the demo's do, so that their peak RSS is steady; its 4,096 page
# faults add the same CPU time to both sides (a few ms, up to 70 ms on a
# loaded machine), so there the work is 300 against 30: still over 4x.
# The A/A decides on `work`, a count the benchmark prints, equal on both
# sides: every pair ties and B/A is exactly 1 (the A/A error of timings
# is the scripted source's, tests/unit/). What a template says of its
# verdict on the demo's own 1.4x in CPU time is a timing claim, for
# bench/, not for a test: here a template's stated verdict must be the
# one it gives a candidate 10x faster.
. "$(dirname "$0")/lib.sh"

# tmpl_source WORK [BALLAST]: lib.sh's benchmark (./bench LANES,
# checksum=), with BALLAST (1) a 16 MiB table like the demo's, each page
# of it written at every run (a byte a page: the kernel's page faults are
# the cost, not a memset).
tmpl_source() {
	if [ "${2:-0}" = 1 ]; then
		bench_source "$1" | sed -e 's|^#include <stdlib.h>$|&\nstatic volatile unsigned char ballast[16 << 20];|' \
			-e 's|^\tint lanes = .*|&\n\tfor (size_t b = 0; b < sizeof(ballast); b += 4096)\n\t\tballast[b] = (unsigned char)lanes;|'
	else
		bench_source "$1"
	fi
}
# tmpl_repo DIR PARENT_WORK CANDIDATE_WORK [BALLAST]: like make_repo.
tmpl_repo() {
	mkdir -p "$1"
	git -C "$1" init -q
	printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' >"$1/Makefile"
	echo bench >"$1/.gitignore"
	tmpl_source "$2" "${4:-0}" >"$1/bench.c"
	git -C "$1" add -A
	git -C "$1" commit -qm "parent: work $2"
	tmpl_source "$3" "${4:-0}" >"$1/bench.c"
	git -C "$1" commit -qam "candidate: work $3"
}
R="$T/repo"
tmpl_repo "$R" 60 6
tmpl_repo "$T/ballast" 300 30 1
grep -q 'ballast\[b\] = ' "$T/ballast/bench.c" || fail "no ballast"

"$ABTOOL" init --list > "$T/list" || fail "init --list"
for t in no-regression lane-split memory pr-gate equivalence; do
	R="$T/repo"
	[ "$t" = memory ] && R="$T/ballast"
	grep -q "^  $t " "$T/list" || fail "template $t not listed"
	expect_exit 0 "$ABTOOL" init --template "$t" "$R/$t.yaml"
	expect_exit 0 "$ABTOOL" check "$R/$t.yaml"
	assert_contains "$T/out" "ok"
	grep -q '^metric:' "$R/$t.yaml" && fail "template $t sets metric: itself"
	echo "metric: cpu_ns" >>"$R/$t.yaml"
	want=$(sed -n 's/^# Verdict on the `abtool demo` repository.*: \([a-z]*\)$/\1/p' "$R/$t.yaml")
	[ -n "$want" ] || fail "template $t does not state its verdict on the demo"
	case $want in accepted) code=0 ;; rejected) code=1 ;; inconclusive) code=2 ;; *) code=3 ;; esac
	expect_exit $code "$ABTOOL" run "$R/$t.yaml" --json "$T/$t.json"
	[ "$(jqv "$T/$t.json" .verdict)" = "$want" ] || fail "template $t: verdict $(jqv "$T/$t.json" .verdict), documented $want"
	# and the gate closes: the same two commits the other way round make
	# a candidate 10x slower, which every template rejects
	expect_exit 1 "$ABTOOL" run "$R/$t.yaml" --candidate HEAD~1 --parent HEAD --json "$T/$t-slower.json"
	case "$t: $(jqv "$T/$t-slower.json" '.reasons[0]')" in
	equivalence:*"(a difference beyond "*"): fail"*) ;;
	equivalence:*) fail "template $t on a slower candidate: $(jqv "$T/$t-slower.json" '.reasons[0]')" ;;
	*"(a regression above "*"): fail"*) ;;
	*) fail "template $t on a slower candidate: $(jqv "$T/$t-slower.json" '.reasons[0]')" ;;
	esac
done
R="$T/repo"
# The equivalence template on an A/A: a README-only candidate against its
# exact parent (the faster version on both sides), its rule on `work`,
# which the benchmark prints as 1000 on both sides: accepted.
echo "notes" > "$R/README"
git -C "$R" add README
git -C "$R" commit -qm "README only"
sed -e 's|^benchmark: \([^#]*[^# ]\) *#.*|benchmark: \1; echo work=1000|' -e 's|^metric: cpu_ns$|metric: work|' \
	"$R/equivalence.yaml" >"$R/aa.yaml"
printf 'metrics:\n  work: {regex: "work=([0-9]+)", better: lower}\n' >>"$R/aa.yaml"
grep -q '^benchmark: ./bench {lanes}; echo work=1000$' "$R/aa.yaml" || fail "aa.yaml: $(grep '^benchmark:' "$R/aa.yaml")"
expect_exit 0 "$ABTOOL" run "$R/aa.yaml" --json "$T/aa.json"
[ "$(jqv "$T/aa.json" .verdict)" = accepted ] || fail "equivalence A/A: verdict $(jqv "$T/aa.json" .verdict)"
[ "$(jqv "$T/aa.json" '[.rows[].ratio] | unique | @json')" = "[1]" ] || fail "equivalence A/A: ratios $(jqv "$T/aa.json" '[.rows[].ratio]')"
# never overwrite
expect_exit 64 "$ABTOOL" init --template memory "$T/ballast/memory.yaml"
assert_contains "$T/err" "already exists"
expect_exit 64 "$ABTOOL" init --template nope
assert_contains "$T/err" "no template 'nope'"
assert_contains "$T/err" "lane-split"
# to stdout (the file, before this case appended its metric: line)
"$ABTOOL" init --template lane-split > "$T/stdout.yaml" || fail "init to stdout"
sed '$d' "$R/lane-split.yaml" | cmp -s "$T/stdout.yaml" - || fail "stdout differs from the file"
echo ok
