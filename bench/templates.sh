#!/bin/bash
# templates.sh - what each `abtool init` template decides on the `abtool
# demo` repository, against the verdict its header comment documents
# ("# Verdict on the `abtool demo` repository ...: VERDICT").
#
# The demo's candidate is only about 1.3x faster (B/A 0.7-0.8 in wall and
# CPU time), so a template's verdict on it depends on the machine and its
# load: this is a timing claim, measured here and never asserted by a
# test (tests/cli/init_templates.sh checks each documented verdict on a
# candidate 10x faster in CPU time instead). Each template runs as written
# (wall time, the templates' metric) and with `metric: cpu_ns` appended,
# REPEATS times each; the table gives the verdicts and how many match the
# documented one.
#
# Usage: bench/templates.sh [REPEATS [TEMPLATE...]]   (default 1, every template)
. "$(dirname "$0")/lib.sh"
need git cc make jq

REPEATS=${1:-1}
[ $# -gt 0 ] && shift
templates=${*:-no-regression lane-split memory pr-gate equivalence}
header
"$ABTOOL" demo --dir "$B/demo" --store "$B/demo.db" >/dev/null 2>&1 || true  # (its own run, on wall time, is not counted)
[ -d "$B/demo/.git" ] || { echo "$BENCH: abtool demo made no repository" >&2; exit 1; }
echo
echo "| template | metric | documented | verdicts | as documented |"
echo "| --- | --- | --- | --- | --- |"
for t in $templates; do
	"$ABTOOL" init --template "$t" "$B/demo/$t.yaml" >/dev/null 2>&1
	want=$(sed -n 's/^# Verdict on the `abtool demo` repository.*: \([a-z]*\)$/\1/p' "$B/demo/$t.yaml")
	cp "$B/demo/$t.yaml" "$B/demo/$t-cpu.yaml"
	echo "metric: cpu_ns" >>"$B/demo/$t-cpu.yaml"
	for m in wall_ns cpu_ns; do
		f="$B/demo/$t.yaml"
		[ "$m" = cpu_ns ] && f="$B/demo/$t-cpu.yaml"
		got="" same=0
		for _ in $(seq 1 "$REPEATS"); do
			"$ABTOOL" run "$f" --quiet --store "$B/store.db" --json "$B/r.json" >/dev/null 2>&1 || true
			v=$(jq -r .verdict "$B/r.json" 2>/dev/null || echo error)
			got="$got${got:+, }$v"
			[ "$v" = "$want" ] && same=$((same + 1))
		done
		echo "| $t | $m | $want | $got | $same of $REPEATS |"
	done
done
echo
echo "load after: $(load_now)"
