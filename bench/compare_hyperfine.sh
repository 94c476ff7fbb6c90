#!/usr/bin/env bash
# compare_hyperfine.sh [RUNS [ROUNDS]] - `abtool compare` beside hyperfine
# on the same two commands in the same run, `sleep 0.01` (A) and `sleep
# 0.02` (B), both without a shell (abtool compare -N, hyperfine -N), RUNS
# runs of each command (default 30, after 3 warmups) in each of ROUNDS
# rounds (default 5), the two tools alternated round by round. Prints, per
# round, hyperfine's ratio B/A (mean over mean, with the spread hyperfine
# gives it) and its ratio of medians, abtool's ratio B/A (Hodges-Lehmann,
# with its 90% interval) and verdict, whether abtool decided that A is the
# faster (its interval above 1), and whether the two ratios agree within
# 10% (the target of issue 35). The order of the tools alternates round
# by round. Then the same with a shell, for scale:
# hyperfine's default (it subtracts its measured shell start) and abtool
# --shell=default (nothing subtracted: the shell's start is timed on both
# sides, which pulls the ratio toward 1).
#
# By default the comparison has no rule, so compare decides which side
# is faster (two-sided, exit 0 when shown: "`sleep 0.01` ran 1.45 [...]
# times faster than `sleep 0.02`"); RULE='--faster-by 20%' gives it a
# rule instead, which B, the slower, fails (exit 1).
. "$(dirname "$0")/lib.sh"
need hyperfine jq

RUNS=${1:-30}
ROUNDS=${2:-5}
RULE=${RULE-}
CMD_A='sleep 0.01'
CMD_B='sleep 0.02'
header
echo "A: \`$CMD_A\`, B: \`$CMD_B\`; $RUNS runs of each per tool and round (abtool: $RUNS pairs), 3 warmups; $ROUNDS rounds; hyperfine $(hyperfine --version | cut -d' ' -f2); abtool's rule: ${RULE:-none}"

# hyperfine_ratio JSON: "ratio sd median-ratio median-A median-B" (ms):
# B/A of the means with hyperfine's spread of it (the standard deviations
# propagated), and of the medians; "nan" for the ratios when hyperfine's
# shell correction left A at 0 or below (it subtracts a mean shell start
# measured apart, which a busy host can make longer than the command)
hyperfine_ratio() {
	jq -r '.results as [$a, $b]
		| if $a.mean <= 0 or $a.median <= 0 then
			"nan nan nan \(1000 * $a.median) \(1000 * $b.median)" else
		($b.mean / $a.mean) as $r
		| ((($a.stddev / $a.mean) | . * .) + (($b.stddev / $b.mean) | . * .) | sqrt) as $rel
		| "\($r) \($r * $rel) \($b.median / $a.median) \(1000 * $a.median) \(1000 * $b.median)" end' "$1"
}

# abtool_row JSON RC: "ratio lo hi verdict/exit faster median-A median-B"
# (ms) of abtool's report
abtool_row() {
	jq -r --arg rc "$2" '.rows[0] as $r
		| "\($r.ratio) \($r.ci[0] // "nan") \($r.ci[1] // "nan") \(.verdict)/\($rc)"
		+ " \(if ($r.ci[0] // 0) > 1 then "yes" else "no" end)"
		+ " \($r.parent.median / 1e6) \($r.candidate.median / 1e6)"' "$1"
}

rows=()
# run_hyperfine OPTIONS: hyperfine's report in $B/h.json
run_hyperfine() {
	# shellcheck disable=SC2086
	hyperfine $1 -w 3 -r "$RUNS" --style none --export-json "$B/h.json" "$CMD_A" "$CMD_B" \
		>"$B/h.out" 2>&1 || { cat "$B/h.out" >&2; exit 1; }
}

# run_abtool OPTIONS: abtool's report in $B/a.json, its exit code in $B/a.rc
run_abtool() {
	local rc=0
	# shellcheck disable=SC2086
	"$ABTOOL" compare $1 "$CMD_A" "$CMD_B" --pairs "$RUNS" --warmup 3 $RULE -q \
		--store "$B/s.db" --json "$B/a.json" >/dev/null 2>"$B/a.err" || rc=$?
	[ "$rc" -le 3 ] || { cat "$B/a.err" >&2; exit 1; }
	echo "$rc" >"$B/a.rc"
}

# round SHELL_LABEL HYPERFINE_OPTIONS ABTOOL_OPTIONS N: round N of both
# tools, hyperfine first in odd rounds and abtool first in even ones
round() {
	local label=$1 agree rc
	if (($4 % 2)); then
		run_hyperfine "$2"
		run_abtool "$3"
	else
		run_abtool "$3"
		run_hyperfine "$2"
	fi
	rc=$(cat "$B/a.rc")
	read -r hf_ratio hf_sd hf_med hf_a hf_b <<<"$(hyperfine_ratio "$B/h.json")"
	read -r ab_ratio ab_lo ab_hi ab_verdict ab_faster ab_a ab_b <<<"$(abtool_row "$B/a.json" "$rc")"
	agree=$(awk -v a="$ab_ratio" -v h="$hf_ratio" 'BEGIN { if (h == "nan") { print "n/a"; exit }
		d = a / h - 1; if (d < 0) d = -d
		printf "%s (%+.1f%%)", d <= 0.10 ? "yes" : "no", 100 * (a / h - 1) }')
	printf '| %s | %s | %.1f, %.1f | %.3f ± %.3f | %.3f | %.1f, %.1f | %.3f [%.3f, %.3f] | %s | %s | %s |\n' \
		"$label" "$4" "$hf_a" "$hf_b" "$hf_ratio" "$hf_sd" "$hf_med" "$ab_a" "$ab_b" "$ab_ratio" "$ab_lo" \
		"$ab_hi" "$ab_verdict" "$ab_faster" "$agree"
	rows+=("${label%% *} $hf_ratio $ab_ratio")
}

echo
echo "| shell | round | hyperfine median A, B (ms) | hyperfine B/A (means) | hyperfine B/A (medians) | abtool median A, B (ms) | abtool B/A [90% CI] | abtool verdict/exit | A faster | within 10% |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for ((i = 1; i <= ROUNDS; i++)); do
	round "none (-N)" "-N" "-N" "$i"
done
for ((i = 1; i <= ROUNDS; i++)); do
	round "/bin/sh" "" "--shell=default" "$i"
done
echo
for label in none /bin/sh; do
	hf=$(printf '%s\n' "${rows[@]}" | awk -v l="$label" '$1 == l && $2 != "nan" { print $2 }' | median)
	ab=$(printf '%s\n' "${rows[@]}" | awk -v l="$label" '$1 == l && $2 != "nan" { print $3 }' | median)
	awk -v l="$label" -v h="$hf" -v a="$ab" 'BEGIN { d = a / h - 1
		printf "shell %s: median over the rounds: hyperfine %.3f, abtool %.3f: %+.1f%%, %s\n", l, h, a,
			100 * d, (d <= 0.10 && d >= -0.10) ? "within 10%" : "NOT within 10%" }'
done
echo "load at the end: $(load_now)"
