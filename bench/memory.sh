#!/bin/bash
# memory.sh - peak RSS of the abtool process during a 10,000-sample
# experiment (/bin/true, one row, 5,000 pairs, warmup 0), from
# /usr/bin/time -v, with a 1,000-sample run to show how it grows. Peer:
# hyperfine -N --runs 10000 /bin/true, which also keeps every time in
# memory. The zygote that starts abtool's samples is a process of its own
# and is reported beside it. Target: under 32 MiB.
#
# Usage: bench/memory.sh [SAMPLES]   (default 10000)
. "$(dirname "$0")/lib.sh"
need hyperfine git /usr/bin/time ps

N=${1:-10000}
header

EXP_PAIRS=$((N / 2)) true_repo "$B/big" "[/bin/true]"
EXP_PAIRS=500 true_repo "$B/small" "[/bin/true]"
# one row of 2,800 pairs: just under 2^22 Walsh averages, the most that
# abtool held in memory for the Hodges-Lehmann estimate before 2^18
EXP_PAIRS=2800 true_repo "$B/walsh" "[/bin/true]"

peak_kib() { # LOG: "Maximum resident set size (kbytes)" of /usr/bin/time -v
	sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$1"
}

rc=0
/usr/bin/time -v -o "$B/small.time" "$ABTOOL" run "$B/small/exp.yaml" --store "$B/small.db" --quiet \
	> /dev/null 2> "$B/last.err" || rc=$?
verdict_ok "$rc"
rc=0
/usr/bin/time -v -o "$B/walsh.time" "$ABTOOL" run "$B/walsh/exp.yaml" --store "$B/walsh.db" --quiet \
	> /dev/null 2> "$B/last.err" || rc=$?
verdict_ok "$rc"
rc=0
# the zygote's RSS while the run goes on
( sleep 2; ps -o rss= -C memfd:abtool-zy 2>/dev/null | head -n1 > "$B/zygote.rss" ) &
/usr/bin/time -v -o "$B/big.time" "$ABTOOL" run "$B/big/exp.yaml" --store "$B/big.db" --quiet \
	> /dev/null 2> "$B/last.err" || rc=$?
verdict_ok "$rc"
wait
/usr/bin/time -v -o "$B/hf.time" hyperfine -N --runs "$N" --style none /bin/true > /dev/null 2>&1

big=$(peak_kib "$B/big.time"); small=$(peak_kib "$B/small.time"); hf=$(peak_kib "$B/hf.time")
echo
echo "| process | samples | peak RSS | ratio to hyperfine | target |"
echo "| --- | --- | --- | --- | --- |"
echo "| abtool run | 1000 | $(awk -v k="$small" 'BEGIN { printf "%.1f", k / 1024 }') MiB | $(ratio "$small" "$hf" 2) | - |"
walsh=$(peak_kib "$B/walsh.time")
echo "| abtool run, one row of 2,800 pairs | 5600 | $(awk -v k="$walsh" 'BEGIN { printf "%.1f", k / 1024 }') MiB | $(ratio "$walsh" "$hf" 2) | < 32 MiB: $(awk -v k="$walsh" 'BEGIN { print (k < 32768 ? "met" : "not met") }') |"
echo "| abtool run | $N | $(awk -v k="$big" 'BEGIN { printf "%.1f", k / 1024 }') MiB | $(ratio "$big" "$hf" 2) | < 32 MiB: $(awk -v k="$big" 'BEGIN { print (k < 32768 ? "met" : "not met") }') |"
echo "| its zygote (RSS during the run) | - | $(awk -v k="$(cat "$B/zygote.rss" 2>/dev/null || echo 0)" 'BEGIN { printf "%.1f", k / 1024 }') MiB | - | - |"
echo "| peer: hyperfine -N --runs $N /bin/true | $N | $(awk -v k="$hf" 'BEGIN { printf "%.1f", k / 1024 }') MiB | 1.00 | - |"
echo
echo "growth per sample (1,000 -> $N): $(awk -v a="$small" -v b="$big" -v n="$N" 'BEGIN { printf "%.0f", (b - a) * 1024 / (n - 1000) }') bytes"
echo "load after: $(load_now)"
