# The hyperfine layout (abtool report N --format hyperfine, run
# --hyperfine F; docs/reports.md, "hyperfine's JSON"): read with Python's
# json module the way hyperfine's scripts read an export (plot_whisker.py
# and plot_histogram.py: each result's command and times;
# plot_parametrized.py: parameters, mean and stddev), and checked against
# the same run's raw samples (--format tsv): the times are the wall times
# of the pairs' successful samples, in seconds, and the statistics are
# theirs. A comparison's entries carry its -n names.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 6 2
cat >"$T/repo/exp.yaml" <<'EOF2'
name: hf
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1, 2]}
metric: cpu_ns
pairs: 4
warmup: 1
accept:
  - {name: anything, no_regression: 1000%}
EOF2
db="$T/repo/.git/abtool/abtool.db"
"$ABTOOL" run "$T/repo/exp.yaml" --seed 1 --quiet --hyperfine "$T/run.json" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -le 2 ] || { cat "$T/err" >&2; fail "run exited $rc"; }
expect_exit 0 "$ABTOOL" report 1 --store "$db" --format hyperfine -o "$T/report.json"
cmp -s "$T/run.json" "$T/report.json" || fail "report --format hyperfine differs from run --hyperfine"
expect_exit 0 "$ABTOOL" report 1 --store "$db" --format tsv -o "$T/samples.tsv"

python3 - "$T/report.json" "$T/samples.tsv" <<'PY' || fail "the hyperfine layout (above)"
import csv, json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
# what plot_whisker.py and plot_histogram.py read
labels = [b["command"] for b in results]
times = [b["times"] for b in results]
assert labels == ["parent (lanes=1)", "candidate (lanes=1)", "parent (lanes=2)",
                  "candidate (lanes=2)"], labels
# what plot_parametrized.py reads
assert [b["parameters"]["lanes"] for b in results] == ["1", "1", "2", "2"], results
want = {}
for s in csv.DictReader(open(sys.argv[2]), delimiter="\t"):
    if s["pair"] and s["status"] == "ok":
        want.setdefault((s["side"], s["lanes"]), []).append(int(s["wall_ns"]) / 1e9)
for b in results:
    side, lanes = b["command"].split(" ")[0], b["parameters"]["lanes"]
    t = b["times"]
    assert t == want[(side, lanes)], (b["command"], t, want[(side, lanes)])
    assert len(t) == 4 and all(isinstance(x, float) and x > 0 for x in t), t
    assert b["min"] == min(t) and b["max"] == max(t), b
    assert abs(b["mean"] - statistics.fmean(t)) <= 1e-12 * b["mean"], b
    assert abs(b["median"] - statistics.median(t)) <= 1e-12 * b["median"], b
    assert abs(b["stddev"] - statistics.stdev(t)) <= 1e-9 * b["stddev"] + 1e-15, b
    assert b["exit_codes"] == [0] * 4, b
    assert 0 <= b["user"] and 0 <= b["system"], b
PY

# A comparison: the entries carry the sides' -n names and no parameters.
"$ABTOOL" compare -n quick -n slower 'true' 'true; true' --pairs 4 --store "$T/cmp.db" \
	--hyperfine "$T/cmp.json" --quiet >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -le 2 ] || { cat "$T/err" >&2; fail "compare exited $rc"; }
python3 - "$T/cmp.json" <<'PY' || fail "the comparison's hyperfine layout (above)"
import json, sys
results = json.load(open(sys.argv[1]))["results"]
assert [b["command"] for b in results] == ["quick", "slower"], results
assert all(b["parameters"] == {} and len(b["times"]) == 4 for b in results), results
PY
echo ok
