# dependencies: a program and a library it builds against, in two
# repositories; only the library changes (the program is at the same
# revision on both sides). The candidate is clearly faster: accepted, both
# repositories' revisions are in the JSON report, and `abtool history
# --rev` finds the run by the library's candidate commit and shows the
# library's revisions (in --json and under the run in the table). The
# Reproduce line pins the library's commits (--dependency), so running it
# after the library moved measures the same ones; so does resume. The
# verdicts are on cpu_ns, which other jobs on the machine barely move.
. "$(dirname "$0")/lib.sh"

# the library: work() does N million steps
lib() {
	printf 'unsigned long long work(void)\n{\n\tunsigned long long x = 1, i;\n\tfor (i = 0; i < %s * 1000000ULL; i++)\n\t\tx = x * 6364136223846793005ULL + 1442695040888963407ULL;\n\treturn x;\n}\n' "$1" > "$T/lib/work.c"
}
mkdir -p "$T/lib" "$T/prog"
git -C "$T/lib" init -q
lib 40
git -C "$T/lib" add -A && git -C "$T/lib" commit -qm "lib: work 40"
lib 4
git -C "$T/lib" commit -qam "lib: work 4, ten times as fast"

git -C "$T/prog" init -q
cat > "$T/prog/main.c" <<'EOF2'
#include <stdio.h>
unsigned long long work(void);
int main(void)
{
	volatile unsigned long long sink = work();
	(void)sink;
	printf("checksum=42\n");
	return 0;
}
EOF2
printf 'prog: main.c\n\tcc -O1 -o prog main.c $(LIBDIR)/work.c\n' > "$T/prog/Makefile"
echo prog > "$T/prog/.gitignore"
git -C "$T/prog" add -A && git -C "$T/prog" commit -qm "prog"
cat > "$T/prog/exp.yaml" <<'EOF2'
name: faster-lib
design: lib-halved
parent: HEAD                 # the program is at the same revision on both sides
exact_parent: false
build: make
benchmark: ./prog
checksum: {regex: 'checksum=(\S+)'}
metric: cpu_ns
pairs: 6
dependencies:
  - name: lib
    repo: ../lib
    candidate: HEAD
    exact_parent: true       # the library's parent is its candidate's first parent
    path: vendor/lib
    env: LIBDIR
accept:
  - name: gain
    faster_by: 20%
EOF2
db="$T/s.db"
# check resolves the dependency's revisions as run will
expect_exit 0 "$ABTOOL" check "$T/prog/exp.yaml"
assert_contains "$T/out" "dependency lib: parent $(git -C "$T/lib" rev-parse --short=10 HEAD~1) "
assert_contains "$T/out" "candidate $(git -C "$T/lib" rev-parse --short=10 HEAD) "
expect_exit 0 "$ABTOOL" run "$T/prog/exp.yaml" --store "$db" --json "$T/r.json" --summary "$T/sum.md"
assert_contains "$T/out" "Verdict: accepted"
prog=$(git -C "$T/prog" rev-parse HEAD)
lc=$(git -C "$T/lib" rev-parse HEAD)
lp=$(git -C "$T/lib" rev-parse HEAD~1)
[ "$(jqv "$T/r.json" .parent.oid)" = "$prog" ] && [ "$(jqv "$T/r.json" .candidate.oid)" = "$prog" ] \
	|| fail "the program is at one revision"
[ "$(jqv "$T/r.json" '.dependencies[0].name')" = lib ] || fail "dependency name"
[ "$(jqv "$T/r.json" '.dependencies[0].parent.oid')" = "$lp" ] || fail "library parent"
[ "$(jqv "$T/r.json" '.dependencies[0].candidate.oid')" = "$lc" ] || fail "library candidate"
[ "$(jqv "$T/r.json" '.dependencies[0].exact_parent')" = true ] || fail "exact"
assert_contains "$T/out" "| dependency \`lib\` (\`vendor/lib\`) | \`${lp:0:10}\` lib: work 40 (exact parent) | \`${lc:0:10}\` lib: work 4, ten times as fast |"
# the CI summary: one line for the dependencies
assert_contains "$T/sum.md" "Dependencies: \`lib\` \`${lp:0:10}\` → \`${lc:0:10}\` (exact parent)."
expect_exit 0 "$ABTOOL" report 1 --store "$db" --format html
[ "$(grep -c "</code> lib: work 40</td>" "$T/out")" = 1 ] || fail "the HTML provenance lacks the library parent's subject"
expect_exit 0 "$ABTOOL" history --store "$db" --rev "${lc:0:8}" --json
[ "$(jq length "$T/out")" = 1 ] || fail "history --rev does not find the library's candidate"
# the run's dependencies say why it matched: both sides' full commits
[ "$(jq -c '.[0].dependencies' "$T/out")" = "[{\"name\":\"lib\",\"parent\":\"$lp\",\"candidate\":\"$lc\"}]" ] \
	|| fail "history --json lacks the library's revisions: $(jq -c '.[0].dependencies' "$T/out")"
expect_exit 0 "$ABTOOL" history --store "$db" --rev "${lp:0:8}" --json
[ "$(jq length "$T/out")" = 1 ] || fail "history --rev does not find the library's parent"
# the table keeps its columns and says under the run which dependency matched
expect_exit 0 "$ABTOOL" history --store "$db" --rev "${lc:0:8}"
[ "$(sed -n 2p "$T/out" | grep -o "${prog:0:10}\.\.${prog:0:10}")" = "${prog:0:10}..${prog:0:10}" ] \
	|| fail "the run's line shows the program's revisions"
[ "$(sed -n 3p "$T/out")" = "    dependency lib: ${lp:0:10}..${lc:0:10}" ] || fail "no dependency line under the run"
[ "$(wc -l < "$T/out")" = 3 ] || fail "one header, one run, one dependency line"
# --rev is of any case, and so is the dependency line's match
expect_exit 0 "$ABTOOL" history --store "$db" --rev "$(echo "${lc:0:8}" | tr a-f A-F)"
[ "$(sed -n 3p "$T/out")" = "    dependency lib: ${lp:0:10}..${lc:0:10}" ] || fail "no dependency line for an upper-case --rev"
# a match on the program's own commit needs no such line
expect_exit 0 "$ABTOOL" history --store "$db" --rev "${prog:0:8}"
assert_not_contains "$T/out" "dependency lib"
[ "$(sqlite3 "$db" "select name || ' ' || candidate_oid from run_dependencies")" = "lib $lc" ] || fail "stored"
expect_exit 0 "$ABTOOL" show 1 --store "$db"
assert_contains "$T/out" "  dependency lib (vendor/lib): parent ${lp:0:10} (exact parent), candidate ${lc:0:10}"
# a second run is fully cached (the dependency is part of the build key)
expect_exit 0 "$ABTOOL" run "$T/prog/exp.yaml" --store "$db"
assert_contains "$T/err" "parent: build cached"

# The Reproduce line pins the library's commits too: after the library
# moves on (candidate: HEAD now names another commit), it measures the
# same two library commits.
repro=$(jqv "$T/r.json" .reproduce)
case "$repro" in
*" --dependency lib=$lp..$lc"*) ;;
*) fail "the Reproduce line does not pin the library: $repro" ;;
esac
lib 10
git -C "$T/lib" commit -qam "lib: work 10"
[ "$(git -C "$T/lib" rev-parse HEAD)" != "$lc" ] || fail "the library did not move"
eval "set -- ${repro#abtool }"
expect_exit 0 "$ABTOOL" "$@" --store "$db" --json "$T/again.json"
[ "$(jqv "$T/again.json" '.dependencies[0].parent.oid')" = "$lp" ] || fail "reproduced: library parent"
[ "$(jqv "$T/again.json" '.dependencies[0].candidate.oid')" = "$lc" ] || fail "reproduced: library candidate"
[ "$(jqv "$T/again.json" '.dependencies[0].exact_parent')" = true ] || fail "reproduced: exact"
[ "$(jqv "$T/again.json" .reproduce)" = "$repro" ] || fail "the reproduced run's Reproduce line differs"
# without the pin the file's revspecs apply: the library's new HEAD
expect_exit 0 "$ABTOOL" check "$T/prog/exp.yaml"
assert_contains "$T/out" "candidate $(git -C "$T/lib" rev-parse --short=10 HEAD) "
expect_exit 0 "$ABTOOL" check "$T/prog/exp.yaml" --dependency "lib=${lp:0:12}..${lc:0:12}"
assert_contains "$T/out" "dependency lib: parent ${lp:0:10} lib: work 40, candidate ${lc:0:10} lib: work 4"

# resume keeps the pinned commits (the stored ones), whatever HEAD says now
id=$(sqlite3 "$db" "select max(id) from runs")
sqlite3 "$db" "update runs set status = 'interrupted', verdict = null where id = $id;
	update samples set status = 0 where run_id = $id and seq >= (select max(seq) - 1 from samples where run_id = $id)"
expect_exit 0 "$ABTOOL" resume "$id" --store "$db" --json "$T/resumed.json"
[ "$(jqv "$T/resumed.json" '.dependencies[0].candidate.oid')" = "$lc" ] || fail "resumed: library candidate"
[ "$(jqv "$T/resumed.json" .reproduce)" = "$repro" ] || fail "resumed: the Reproduce line changed"

# a name that is not a dependency, or a malformed pin, is refused
expect_exit 64 "$ABTOOL" run "$T/prog/exp.yaml" --store "$db" --dependency "gc=$lp..$lc"
assert_contains "$T/err" "--dependency: 'gc' is not a dependency of $T/prog/exp.yaml (its dependencies: lib)"
expect_exit 64 "$ABTOOL" run "$T/prog/exp.yaml" --store "$db" --dependency "lib=$lp..$lc" --dependency "lib=$lc..$lc"
assert_contains "$T/err" "--dependency: 'lib' is given twice"
expect_exit 64 "$ABTOOL" run "$T/prog/exp.yaml" --store "$db" --dependency "lib=$lc"
assert_contains "$T/err" "--dependency: expected NAME=PARENT..CANDIDATE"
expect_exit 64 "$ABTOOL" run "$T/prog/exp.yaml" --store "$db" --dependency "lib=$lp..nosuch"
assert_contains "$T/err" "dependencies[0] 'lib' (--dependency)"
expect_exit 64 "$ABTOOL" run "$T/prog/exp.yaml" --store "$db" --overlay-from HEAD
assert_contains "$T/err" "--overlay-from: $T/prog/exp.yaml has no 'overlay:' paths to take from 'HEAD'"
[ "$(sqlite3 "$db" "select count(*) from runs")" = "$id" ] || fail "a refused run was stored"

# an A/A calibration builds every dependency at its parent on both sides too
expect_exit 0 "$ABTOOL" calibrate "$T/prog/exp.yaml" --store "$db" --pairs 5 --quiet --json "$T/cal.json"
[ "$(jqv "$T/cal.json" '.dependencies[0].candidate.oid')" = "$(jqv "$T/cal.json" '.dependencies[0].parent.oid')" ] \
	|| fail "calibration: the library differs between the sides"
# and its Reproduce line pins that commit, which calibrate takes
calp=$(jqv "$T/cal.json" '.dependencies[0].parent.oid')
case "$(jqv "$T/cal.json" .reproduce)" in
*" --dependency lib=$calp..$calp"*) ;;
*) fail "calibration reproduce: $(jqv "$T/cal.json" .reproduce)" ;;
esac
expect_exit 0 "$ABTOOL" calibrate "$T/prog/exp.yaml" --store "$db" --pairs 5 --quiet --json "$T/cal2.json" \
	--dependency "lib=$calp..$calp"
[ "$(jqv "$T/cal2.json" '.dependencies[0].candidate.oid')" = "$calp" ] || fail "calibrate --dependency"
echo ok
