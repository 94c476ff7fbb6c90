# The JSON report of real runs validates against docs/report-schema.json:
# a run with scaling, a benchmark metric (higher is better) and rules of
# every predicate; a checksum mismatch and a build failure (invalid: the
# optional and null fields). The schema is closed, so a field written but
# not documented fails here; and it must reject broken documents.
. "$(dirname "$0")/lib.sh"

SCHEMA="$ABTOOL_TEST_SRC/docs/report-schema.json"
VALIDATE="$(dirname "$0")/validate_json.py"
PY=""
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then
		PY=$p
		break
	fi
done
[ -n "$PY" ] || fail "no python3 with jsonschema: install python3-jsonschema (scripts/install-deps --test)"
validate() {
	"$PY" "$VALIDATE" "$SCHEMA" "$@" || fail "schema validation failed: $*"
}

# 1. Scaling, a benchmark metric, every kind of predicate.
make_repo "$T/ok" 10 5
EXP_LANES="1, 2" EXP_PAIRS=4 EXP_EXTRA="  - name: steady
    where: {lanes: 2}
    min_pair_wins: 75%
    max_rsd: 50%
    max_ci_width: 50%
  - name: same lanes
    metric: lanes_seen
    slower_by: 1%
    min_pair_wins: 1
hypothesis: halving the work halves the time
scaling: {parameter: lanes, work: per_lane}
metrics:
  lanes_seen: {regex: 'lanes=(\\d+)', unit: lanes, better: higher}" write_exp "$T/ok"
"$ABTOOL" run "$T/ok/exp.yaml" --json "$T/ok.json" --quiet >"$T/out" 2>"$T/err"
[ $? -le 2 ] || { cat "$T/err" >&2; fail "run 1"; }
[ "$(jqv "$T/ok.json" '.rows[1].metrics.lanes_seen.better')" = higher ] || fail "benchmark metric"
[ "$(jqv "$T/ok.json" '.rows[1].parent.scaling != null')" = true ] || fail "scaling"
"$ABTOOL" report 1 --store "$T/ok/.git/abtool/abtool.db" --format json >"$T/again.json" || fail "report"
validate "$T/ok.json" "$T/again.json"

# 2. A checksum mismatch: invalid, rows without statistics, checksum_values.
make_repo "$T/mismatch" 10 5 1
EXP_PAIRS=4 write_exp "$T/mismatch"
expect_exit 3 "$ABTOOL" run "$T/mismatch/exp.yaml" --json "$T/mismatch.json"
[ "$(jqv "$T/mismatch.json" '.rows[0].checksum_match')" = false ] || fail "mismatch"
[ "$(jqv "$T/mismatch.json" '.rows[0].checksum')" = null ] || fail "checksum null"
[ "$(jqv "$T/mismatch.json" '.hypothesis')" = null ] || fail "hypothesis null"
validate "$T/mismatch.json"

# 3. A build failure: a build with detail, no sample at all.
make_repo "$T/broken" 10 5
echo 'this is not C;' >>"$T/broken/bench.c"
git -C "$T/broken" commit -qam "candidate: broken"
EXP_PAIRS=4 write_exp "$T/broken"
expect_exit 3 "$ABTOOL" run "$T/broken/exp.yaml" --json "$T/broken.json"
[ "$(jqv "$T/broken.json" '.builds[1].status')" = failed ] || fail "failed build"
validate "$T/broken.json"

# 4. The golden fixture's report (interrupted and resumed run).
validate "$ABTOOL_TEST_SRC/tests/golden/report.json"

# The schema is not vacuous: broken documents fail.
jq 'del(.verdict)' "$T/ok.json" >"$T/bad1.json"
jq '.rows[0].ratio = "fast"' "$T/ok.json" >"$T/bad2.json"
jq '.rows[0].undocumented = 1' "$T/ok.json" >"$T/bad3.json"
jq 'del(.rows[0].ci)' "$T/ok.json" >"$T/bad4.json"
for bad in 1 2 3 4; do
	if "$PY" "$VALIDATE" "$SCHEMA" "$T/bad$bad.json" 2>/dev/null; then
		fail "bad$bad.json validates"
	fi
done
echo ok
