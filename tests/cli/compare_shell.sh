# compare and the shell (issue 35, item 11): a command without shell
# syntax runs as its own process, not under /bin/sh -c (whose start was
# timed with it); -N never uses a shell; --shell=default and a command
# with shell syntax put both commands under /bin/sh (both, so that its
# start is timed on both sides), which the report's provenance shows and
# a notice on stderr says is not subtracted; -N refuses an unbalanced
# quote; the Reproduce line keeps -N. What ran is read from the sample's
# own output: the name of its parent process (dash, Debian's /bin/sh,
# stays the parent of the command it runs), never from a time.
. "$(dirname "$0")/lib.sh"

W="$T/work"
mkdir -p "$W"
cd "$W"
# parent [ARG...]: prints its parent process's name and its arguments
cat >"$W/parent.c" <<'EOF2'
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	char path[64], comm[64] = "?";
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)getppid());
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%63s", comm) != 1)
			comm[0] = '?';
		fclose(f);
	}
	printf("parent=%s args=%d", comm, argc - 1);
	for (i = 1; i < argc; i++)
		printf(" [%s]", argv[i]);
	putchar('\n');
	return 0;
}
EOF2
cc -O1 -o "$W/parent" "$W/parent.c" || fail "cc parent.c"
[ "$(/bin/sh -c "$W/parent")" = "parent=sh args=0" ] || fail "this /bin/sh does not stay the parent"
store=$(test_store s)

# compare_parent NAME ARGS...: a comparison of one pair whose checksum is
# what side A's sample printed; the report in $T/NAME.json
compare_parent() {
	local name=$1
	shift
	expect_exit 2 "$ABTOOL" compare "$@" --pairs 1 --warmup 0 --store "$store" \
		--checksum-regex '^(parent=.*)$' --json "$T/$name.json" --md "$T/$name.md"
}

# no shell syntax: the command is the sample's process, its words split
# as the shell would (quotes kept together)
compare_parent plain "./parent 'a b' \"c\"" "./parent 'a b' \"c\""
[ "$(jqv "$T/plain.json" .rows[0].checksum)" != "parent=sh args=2 [a b] [c]" ] \
	|| fail "a plain command ran under /bin/sh"
[ "$(jqv "$T/plain.json" .rows[0].checksum | sed 's/^parent=[^ ]* //')" = "args=2 [a b] [c]" ] \
	|| fail "words: $(jqv "$T/plain.json" .rows[0].checksum)"
assert_not_contains "$T/err" "run through"
assert_contains "$T/plain.md" "| command | \`./parent 'a b' c\` |"

# -N: no shell even with shell syntax: '|' is an argument
compare_parent none -N "./parent x | cat" "./parent x | cat"
[ "$(jqv "$T/none.json" .rows[0].checksum | sed 's/^parent=[^ ]* //')" = "args=3 [x] [|] [cat]" ] \
	|| fail "-N: $(jqv "$T/none.json" .rows[0].checksum)"
[ "$(jqv "$T/none.json" .rows[0].checksum)" != "parent=sh args=3 [x] [|] [cat]" ] || fail "-N ran a shell"
assert_contains "$T/none.md" "abtool compare --no-shell "
assert_not_contains "$T/err" "run through"

# shell syntax in B: both through /bin/sh, said on stderr and in the provenance
compare_parent piped "./parent a" "./parent a | cat"
[ "$(jqv "$T/piped.json" .rows[0].checksum)" = "parent=sh args=1 [a]" ] \
	|| fail "A did not run under /bin/sh beside a B that needs it: $(jqv "$T/piped.json" .rows[0].checksum)"
assert_contains "$T/err" "abtool: both commands run through /bin/sh -c (B: '|'): the shell's start is timed on both sides and nothing is subtracted for it"
assert_contains "$T/piped.md" "| command | \`/bin/sh -c './parent a'\` | \`/bin/sh -c './parent a \\| cat'\` |"
# the Reproduce line gives the commands as they were written
assert_contains "$T/piped.md" "'./parent a' './parent a | cat'"

# --shell=default: /bin/sh without shell syntax; --shell none is -N
compare_parent default --shell=default "./parent" "./parent"
[ "$(jqv "$T/default.json" .rows[0].checksum)" = "parent=sh args=0" ] || fail "--shell=default"
assert_contains "$T/err" "run through /bin/sh -c (--shell)"
compare_parent none2 --shell none "./parent a|b" "./parent a|b"
[ "$(jqv "$T/none2.json" .rows[0].checksum | sed 's/^parent=[^ ]* //')" = "args=1 [a|b]" ] \
	|| fail "--shell none: $(jqv "$T/none2.json" .rows[0].checksum)"
# -q: no notice
expect_exit 2 "$ABTOOL" compare "./parent | cat" "./parent | cat" --pairs 1 --warmup 0 --store "$store" -q
assert_not_contains "$T/err" "run through"

# refused before anything runs: an unbalanced quote under -N, an empty command
expect_exit 64 "$ABTOOL" compare -N "./parent 'a" "./parent" --store "$store"
assert_contains "$T/err" "abtool compare: command A './parent 'a' (run without a shell): an unbalanced ' (opened at character 10)"
expect_exit 64 "$ABTOOL" compare "./parent" "  " --store "$store"
assert_contains "$T/err" "abtool compare: command B is empty"
[ "$(sql "$store" "SELECT count(*) FROM runs")" = 6 ] || fail "runs: $(sql "$store" "SELECT count(*) FROM runs")"
echo ok
