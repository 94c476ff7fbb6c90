#!/bin/bash
# build_cache.sh - a second run of the same experiment performs no build,
# and how long it takes before its first sample starts.
#
# The experiment builds a small C program with `make` (its build command
# also appends a line to a counter file, so executions are counted, not
# guessed from timings). The program is the benchmark: it appends the
# clock (CLOCK_REALTIME, ns) to a file, so the first line there is the
# moment the first sample started. Each repeat has an empty build cache:
#   cold    first run: two checkouts and two builds
#   cached  the same run again: no build may run
# Peer: the same experiment without a build command (its benchmark is the
# prebuilt program), run twice the same way: the cached time-to-first-
# sample of both differs only by the build cache's lookup of a built
# tree. Target: a cached run reaches its first sample in under 200 ms
# plus the experiment's own set-up (this experiment has none:
# no environment.commands, a one-row matrix).
#
# Usage: bench/build_cache.sh [REPEATS]   (default 5; medians)
. "$(dirname "$0")/lib.sh"
need git cc make

REPEATS=${1:-5}
header

stamp_source() {
	cat <<'EOF2'
/* Append CLOCK_REALTIME in ns to the file argv[1]. */
#include <fcntl.h>
#include <stdio.h>
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
}

R="$B/repo"
mkdir -p "$R"
git -C "$R" init -q
stamp_source > "$R/stamp.c"
printf 'stamp: stamp.c\n\tcc -O2 -o stamp stamp.c\n' > "$R/Makefile"
echo stamp > "$R/.gitignore"
git -C "$R" add -A
git -C "$R" commit -qm parent
echo "/* candidate */" >> "$R/stamp.c"
git -C "$R" commit -qam candidate
stamp_source > "$B/stamp.c"
cc -O2 -o "$B/stamp" "$B/stamp.c"

mkdir -p "$B/with" "$B/without"
cat > "$B/with/exp.yaml" <<EOF2
name: bench-build-cache
design: abtool-bench
repo: $R
build: echo built >> $B/builds && make
artifacts: [stamp]
benchmark: [./stamp, $B/stamps]
pairs: 1
warmup: 0
EOF2
cat > "$B/without/exp.yaml" <<EOF2
name: bench-build-cache-none
design: abtool-bench
repo: $R
benchmark: [$B/stamp, $B/stamps]
pairs: 1
warmup: 0
EOF2

first_sample() { # EXP: time from starting abtool to its first sample, ns
	local t0 rc=0
	rm -f "$B/stamps"
	t0=$(epoch_ns)
	"$ABTOOL" run "$1" --store "$B/store.db" --quiet > "$B/last.out" 2> "$B/last.err" || rc=$?
	verdict_ok "$rc"
	echo $(( $(head -n1 "$B/stamps") - t0 ))
}

builds() {
	if [ -f "$B/builds" ]; then wc -l < "$B/builds"; else echo 0; fi
}

rebuilt=0
for r in $(seq 1 "$REPEATS"); do
	export XDG_CACHE_HOME="$B/cache-$r"
	before=$(builds)
	first_sample "$B/with/exp.yaml" >> "$B/with.cold"
	cold_builds=$(( $(builds) - before ))
	first_sample "$B/with/exp.yaml" >> "$B/with.cached"
	cached_builds=$(( $(builds) - before - cold_builds ))
	echo "$cold_builds" >> "$B/cold.count"
	echo "$cached_builds" >> "$B/cached.count"
	[ "$cached_builds" = 0 ] || rebuilt=1
	first_sample "$B/without/exp.yaml" >> "$B/without.cold"
	first_sample "$B/without/exp.yaml" >> "$B/without.cached"
done

wc=$(median < "$B/with.cached"); nc=$(median < "$B/without.cached")
echo
echo "| experiment | builds run (cold / cached) | first sample after, cold | first sample after, cached | target |"
echo "| --- | --- | --- | --- | --- |"
echo "| make-built benchmark | $(sort -u "$B/cold.count" | paste -sd/) / $(sort -u "$B/cached.count" | paste -sd/) | $(ns_to ms "$(median < "$B/with.cold")") ms | $(ns_to ms "$wc") ms | cached < 200 ms and no build: $(awk -v t="$wc" -v r="$rebuilt" 'BEGIN { print (t < 2e8 && r == 0 ? "met" : "not met") }') |"
echo "| peer: no build command | - | $(ns_to ms "$(median < "$B/without.cold")") ms | $(ns_to ms "$nc") ms | - |"
echo
echo "ratio cached start-up with a build / without: $(ratio "$wc" "$nc" 2); difference $(awk -v a="$wc" -v b="$nc" 'BEGIN { printf "%.3f", (a - b) / 1e6 }') ms: the lookup of a built tree (noise when negative)"
echo "load after: $(load_now)"
