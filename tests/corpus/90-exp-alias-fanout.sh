# YAML aliases that expand hugely: 5,000 aliases of one anchored 200 KB
# string (a 1 MB file of text) took `abtool check` 3.1 s and 988 MB, and
# 250,000 aliases ran out of memory, because the walk builds an alias's
# value at every alias. What aliases may expand to is bounded (1,000,000
# nodes, 64 MiB of text; docs/experiment-file.md), counted from the events
# before the document is walked: refused at once, exit 64, at the alias.
# So are a "billion laughs" of nested aliases and an alias inside its
# own anchor (a cycle).
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
{
	printf 'hypothesis: &big "'
	head -c 200000 /dev/zero | tr '\0' 'x'
	printf '"\n'
	cat "$T/repo/exp.yaml"
	printf 'dependencies:\n'
	for i in $(seq 1 5000); do printf '  - *big\n'; done
} >"$T/fanout.yaml"
[ "$(wc -c <"$T/fanout.yaml")" -gt 200000 ] || fail "the case did not write the file"
/usr/bin/time -v -o "$T/time" "$ABTOOL" check "$T/fanout.yaml" >"$T/out" 2>"$T/err"
code=$?
[ "$code" -eq 64 ] || { cat "$T/err" >&2; fail "expected exit 64, got $code"; }
line=$(grep -n '^  - \*big' "$T/fanout.yaml" | sed -n 335p | cut -d: -f1)
assert_contains "$T/err" "fanout.yaml:$line:5: alias *big takes the file past what its aliases may expand to (1000000 nodes and 64 MiB of text in all"
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$T/time")
[ "$rss" -lt 100000 ] || fail "max RSS $rss KiB for 5,000 aliases"
elapsed=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$T/time")
secs=$(echo "$elapsed" | awk -F: '{ print ($1 * 60 + $2) }')
[ -n "${ABTOOL_SANITIZED:-}" ] || awk -v s="$secs" 'BEGIN { exit !(s < 1) }' || fail "took $elapsed"

# nested aliases: 10 strings, each level 10 aliases of the one below (10^9)
{
	cat "$T/repo/exp.yaml"
	printf 'l0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
	for i in $(seq 1 9); do
		printf 'l%d: &a%d [' "$i" "$i"
		for j in $(seq 1 10); do printf '*a%d%s' $((i - 1)) "$([ "$j" -lt 10 ] && echo ,)"; done
		printf ']\n'
	done
} >"$T/laughs.yaml"
expect_fail 64 "alias *a4 takes the file past what its aliases may expand to" \
	timeout 60 "$ABTOOL" check "$T/laughs.yaml"
grep -qE '^abtool: [^ ]*laughs.yaml:[0-9]+:[0-9]+: alias' "$T/err" || fail "no file:line:column"

# an alias inside the node it names
{ cat "$T/repo/exp.yaml"; printf 'matrix: &m {lanes: [1, *m]}\n'; } >"$T/cycle.yaml"
expect_fail 64 "alias *m refers to the node that contains it (a cycle)" \
	timeout 60 "$ABTOOL" check "$T/cycle.yaml"

# a few aliases of a real file still work
{ cat "$T/repo/exp.yaml"; printf 'env: {A: &v "1", B: *v}\n'; } >"$T/repo/few.yaml"
expect_exit 0 "$ABTOOL" check "$T/repo/few.yaml"
echo ok
