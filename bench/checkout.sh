#!/bin/bash
# checkout.sh - materializing a tree with abtool (libgit2, objects borrowed
# through alternates) against `git worktree add --detach`, on a generated
# repository of 20,000 files and on a real history (a clone of this
# repository, so nothing of the source repository is written).
#
# abtool has no command that only materializes, so the time is taken from
# outside: an experiment with no build command and benchmark /bin/true,
# 1 pair, warmup 0; the time from starting `abtool run` to the first
# sample (the benchmark is a tiny C program that appends the clock to a
# file) covers start-up, two trees and the cache lookups.
#   cold    empty build cache: both trees are checked out
#   cached  the same run again: both trees come from the cache
# One tree's materialization is (cold - cached) / 2; the peer is one
# `git worktree add --detach DIR COMMIT` of the candidate. Nothing is
# deleted while measuring (each repeat has a cache and worktrees of its
# own, removed at the end): ext4 makes file creation slower for about 30 s
# after many deletions, which would penalize whichever tool runs next.
# Targets: cold materialization at most 1.5x git worktree add; a cached
# tree ready in under 100 ms (the whole cached start-up is an upper bound).
#
# Usage: bench/checkout.sh [REPEATS [FILES]]   (default 5 20000)
. "$(dirname "$0")/lib.sh"
need git cc

REPEATS=${1:-5}
FILES=${2:-20000}
header

cat > "$B/stamp.c" <<'EOF2'
/* Append CLOCK_REALTIME in ns to the file argv[1]. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	struct timespec ts;
	char line[32];
	int fd, n;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (argc < 2 || (fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT, 0644)) < 0)
		return 1;
	n = snprintf(line, sizeof(line), "%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return write(fd, line, n) == n ? 0 : 1;
}
EOF2
cc -O2 -o "$B/stamp" "$B/stamp.c"

# gen_repo DIR N: N files of a few hundred bytes in 200 folders of 10
# subfolders, committed; the candidate changes one file.
gen_repo() {
	local dir=$1 n=$2
	mkdir -p "$dir"
	git -C "$dir" init -q
	git -C "$dir" config gc.auto 0   # no background gc while measuring
	awk -v n="$n" -v dir="$dir" 'BEGIN {
		for (i = 0; i < n; i++) {
			d = sprintf("%s/src/m%03d/s%d", dir, i % 200, int(i / 200) % 10)
			if (!(d in made)) { system("mkdir -p " d); made[d] = 1 }
			f = sprintf("%s/f%05d.c", d, i)
			printf "/* file %d */\nint f%d(int x)\n{\n\treturn x * %d + %d;\n}\n", i, i, i % 97, i % 89 > f
			for (k = 0; k < 8; k++) printf "/* padding line %d of file %d */\n", k, i > f
			close(f)
		}
	}'
	git -C "$dir" add -A
	git -C "$dir" commit -qm parent
	echo "/* changed */" >> "$dir/src/m000/s0/f00000.c"
	git -C "$dir" commit -qam candidate
	git -C "$dir" gc -q    # packed, as a clone would be
}

# exp_for DIR NAME: the experiment file (outside the repository)
exp_for() {
	mkdir -p "$B/exp-$2"
	cat > "$B/exp-$2/exp.yaml" <<EOF2
name: bench-checkout-$2
design: abtool-bench
repo: $1
candidate: ${CAND:-HEAD}
benchmark: [$B/stamp, $B/stamp-$2]
pairs: 1
warmup: 0
EOF2
}

# first_sample NAME: run the experiment; the time from start to the first
# sample in ns is appended to $B/NAME.{cold|cached} by the caller.
first_sample() {
	local name=$1 t0 rc=0 first
	rm -f "$B/stamp-$name"
	t0=$(epoch_ns)
	"$ABTOOL" run "$B/exp-$name/exp.yaml" --store "$B/store.db" --quiet > "$B/last.out" 2> "$B/last.err" || rc=$?
	verdict_ok "$rc"
	first=$(head -n1 "$B/stamp-$name")
	echo $((first - t0))
}

worktree() { # REPO NAME R: git worktree add of the candidate, timed
	local t0 t1
	t0=$(epoch_ns)
	git -C "$1" worktree add -q --detach "$B/wt-$2-$3" "${CAND:-HEAD}"
	t1=$(epoch_ns)
	echo $((t1 - t0)) >> "$B/$2.git"
}

echo "generating $FILES files ..." >&2
gen_repo "$B/gen" "$FILES"
sync
sleep "${SETTLE:-30}"   # let the generator's temporary files age (see above)
# A clone of this repository's history: a real tree, and worktrees and
# alternates point at the clone, not at the original.
git clone -q --no-hardlinks "$ROOT" "$B/self"
CAND=HEAD exp_for "$B/gen" gen
CAND=HEAD exp_for "$B/self" self
# The same run with the work tree at the parent: the candidate is then not
# the checked-out commit, and abtool skips its work-tree check (a stat of
# every tracked file), so the difference is that check's cost.
CAND=$(git -C "$B/gen" rev-parse HEAD) exp_for "$B/gen" gen-nocheck

for r in $(seq 1 "$REPEATS"); do
	for name in gen self; do
		repo=$B/$name
		export XDG_CACHE_HOME="$B/cache-$r"
		if [ $((r % 2)) = 1 ]; then worktree "$repo" "$name" "$r"; fi
		first_sample "$name" >> "$B/$name.cold"
		first_sample "$name" >> "$B/$name.cached"
		if [ "$name" = gen ]; then
			git -C "$repo" checkout -q --detach HEAD~1
			first_sample gen-nocheck >> "$B/gen.nocheck"
			git -C "$repo" checkout -q -
		fi
		if [ $((r % 2)) = 0 ]; then worktree "$repo" "$name" "$r"; fi
	done
done

echo
echo "| repository | files | abtool cold start-up (2 trees) | abtool cached start-up | one tree (cold - cached) / 2 | git worktree add | ratio abtool/git | cached tree target | cold target |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for name in gen self; do
	c=$(median < "$B/$name.cold"); h=$(median < "$B/$name.cached"); g=$(median < "$B/$name.git")
	one=$(awk -v c="$c" -v h="$h" 'BEGIN { printf "%.0f", (c - h) / 2 }')
	x=$(ratio "$one" "$g" 2)
	files=$(git -C "$B/$name" ls-files | wc -l)
	label=$([ "$name" = gen ] && echo "generated" || echo "this repository ($(git -C "$B/self" rev-parse --short HEAD))")
	met_cached=$(awk -v h="$h" 'BEGIN { print (h < 1e8 ? "< 100 ms: met" : "< 100 ms: not met") }')
	met_cold=$(awk -v x="$x" 'BEGIN { print (x <= 1.5 ? "<= 1.5x: met" : "<= 1.5x: not met") }')
	echo "| $label | $files | $(ns_to ms "$c") ms | $(ns_to ms "$h") ms | $(ns_to ms "$one") ms | $(ns_to ms "$g") ms | $x | $met_cached | $met_cold |"
done
n=$(median < "$B/gen.nocheck")
echo
echo "generated, cached start-up when the candidate is not the checked-out commit (no work-tree check): $(ns_to ms "$n") ms; the work-tree check of $(git -C "$B/gen" ls-files | wc -l) tracked files costs the difference, $(ns_to ms $(( $(median < "$B/gen.cached") - n ))) ms"
echo
echo "load after: $(load_now)"
