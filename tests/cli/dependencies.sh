# serial
# dependencies: a program and a library it builds against, in two
# repositories; only the library changes (the program is at the same
# revision on both sides). The candidate is clearly faster: accepted, both
# repositories' revisions are in the JSON report, and `abtool history
# --rev` finds the run by the library's candidate commit.
. "$(dirname "$0")/lib.sh"

# the library: work() does N million steps
lib() {
	printf 'unsigned long long work(void)\n{\n\tunsigned long long x = 1, i;\n\tfor (i = 0; i < %s * 1000000ULL; i++)\n\t\tx = x * 6364136223846793005ULL + 1442695040888963407ULL;\n\treturn x;\n}\n' "$1" > "$T/lib/work.c"
}
mkdir -p "$T/lib" "$T/prog"
git -C "$T/lib" init -q
lib 40
git -C "$T/lib" add -A && git -C "$T/lib" commit -qm "lib: work 40"
lib 20
git -C "$T/lib" commit -qam "lib: work 20, twice as fast"

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
assert_contains "$T/out" "| dependency \`lib\` (\`vendor/lib\`) | \`${lp:0:10}\` lib: work 40 (exact parent) | \`${lc:0:10}\` lib: work 20, twice as fast |"
# the CI summary: one line for the dependencies
assert_contains "$T/sum.md" "Dependencies: \`lib\` \`${lp:0:10}\` → \`${lc:0:10}\` (exact parent)."
expect_exit 0 "$ABTOOL" history --store "$db" --rev "${lc:0:8}" --json
[ "$(jq length "$T/out")" = 1 ] || fail "history --rev does not find the library's candidate"
expect_exit 0 "$ABTOOL" history --store "$db" --rev "${lp:0:8}" --json
[ "$(jq length "$T/out")" = 1 ] || fail "history --rev does not find the library's parent"
[ "$(sqlite3 "$db" "select name || ' ' || candidate_oid from run_dependencies")" = "lib $lc" ] || fail "stored"
expect_exit 0 "$ABTOOL" show 1 --store "$db"
assert_contains "$T/out" "  dependency lib (vendor/lib): parent ${lp:0:10} (exact parent), candidate ${lc:0:10}"
# a second run is fully cached (the dependency is part of the build key)
expect_exit 0 "$ABTOOL" run "$T/prog/exp.yaml" --store "$db"
assert_contains "$T/err" "parent: build cached"
echo ok
