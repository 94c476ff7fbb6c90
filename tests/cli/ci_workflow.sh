# The GitHub Actions workflow of docs/ci.md (abtool init --workflow
# github-actions): its jobs' abtool action steps (action.yml) run here as
# the runner would run them on a pull request (tests/cli/gha_fake.py): the head 3x faster than the merge base passes the first
# job, while the second job catches the pull request's last commit, which
# is 10x slower than its exact parent. The gate decides on cpu_ns, which
# other jobs on the machine barely move.
. "$(dirname "$0")/lib.sh"

# origin: main with the experiment; a pull request branch of two commits
mkdir -p "$T/origin/perf"
git -C "$T/origin" init -q -b main
printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' > "$T/origin/Makefile"
echo bench > "$T/origin/.gitignore"
bench_source 150 > "$T/origin/bench.c"
cat > "$T/origin/perf/gate.yaml" <<'EOF2'
name: pr-gate
repo: ..
build: make
benchmark: ./bench 1
checksum: {regex: 'checksum=(\S+)'}
metric: cpu_ns
pairs: 6
accept:
  - name: no regression
    no_regression: 3%
EOF2
git -C "$T/origin" add -A && git -C "$T/origin" commit -qm "base"
git -C "$T/origin" checkout -q -b pr
bench_source 5 > "$T/origin/bench.c"; git -C "$T/origin" commit -qam "pr: 30x faster"
bench_source 50 > "$T/origin/bench.c"; git -C "$T/origin" commit -qam "pr: 10x slower again"
git -C "$T/origin" checkout -q main
git clone -q "$T/origin" "$T/work"
head=$(git -C "$T/origin" rev-parse pr)
git -C "$T/work" checkout -q "$head"

"$ABTOOL" init --workflow github-actions "$T/workflow.yml" 2>/dev/null || fail "init --workflow"
python3 - "$T/workflow.yml" <<'EOF2' || fail "the workflow's permissions or checkout"
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
assert wf['permissions'] == {'contents': 'read'}, wf.get('permissions')
for name, job in wf['jobs'].items():
    steps = job['steps']
    assert any(s.get('with', {}).get('fetch-depth') == 0 for s in steps), name + ': full history'
    assert any(s.get('uses', '').startswith('abtool/abtool@v') for s in steps), name + ': the action'
EOF2
# the action's shell steps (tests/cli/gha_fake.py), on the pull request's event;
# abtool's build comes from the cache: the binary under test
export RUNNER_TEMP="$T/runner" GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$T/summary.md" GITHUB_BASE_REF=main
mkdir -p "$RUNNER_TEMP/abtool-build"
cp "$ABTOOL" "$RUNNER_TEMP/abtool-build/abtool"
printf '{"pull_request": {"number": 7, "head": {"sha": "%s"}}}\n' "$head" > "$T/event.json"
export GITHUB_EVENT_PATH="$T/event.json"
gate() {  # gate JOB: the job's abtool step in the work tree
	(cd "$T/work" && python3 "$ABTOOL_TEST_SRC/tests/cli/gha_fake.py" --outputs "$T/$1.outputs" \
		"$ABTOOL_TEST_SRC" "$T/workflow.yml" "$1")
}
reports="$RUNNER_TEMP/abtool-reports"

expect_exit 0 gate head-vs-merge-base
assert_contains "$T/out" "Verdict: accepted"
[ "$(jqv "$T/head-vs-merge-base.outputs" .gate.verdict)" = accepted ] || fail "the verdict output"
[ "$(jqv "$reports/abtool.json" .exact_parent)" = false ] || fail "merge-base gating recorded as exact"
[ "$(jqv "$reports/abtool.json" .parent.oid)" = "$(git -C "$T/origin" rev-parse main)" ] || fail "merge base"
[ -s "$reports/abtool.html" ] && [ -s "$reports/abtool-junit.xml" ] || fail "evidence files"
# recorded under the pull request, not the file's design
[ "$(jqv "$reports/abtool.json" .design)" = pr-7 ] || fail "--design"
case "$(jqv "$reports/abtool.json" .reproduce)" in *" --design pr-7") ;; *) fail "reproduce without --design" ;; esac

expect_exit 1 gate every-commit-vs-exact-parent
[ "$(ls "$reports"/abtool-[0-9a-f]*.json | wc -l)" = 2 ] || fail "one report per commit"
[ "$(jqv "$reports/abtool-$(git -C "$T/origin" rev-parse pr~1).json" .verdict)" = accepted ] || fail "first commit"
[ "$(jqv "$reports/abtool-$head.json" .verdict)" = rejected ] || fail "the 10x slower commit"
[ "$(jqv "$reports/abtool-$head.json" .exact_parent)" = true ] || fail "exact parent"
grep -q '^::error title=abtool%3A no regression (fail)::' "$T/out" "$T/err" || fail "annotation"
[ "$(grep -c '^# pr-gate — ' "$T/summary.md")" = 3 ] || fail "three summaries appended"
cd "$T/work" || fail "cd"
expect_exit 0 "$ABTOOL" designs --json
[ "$(jqv "$T/out" 'map(.design + ":" + (.runs | tostring) + ":" + .latest_verdict) | join(",")')" = "pr-7:3:rejected" ] \
	|| fail "designs: $(cat "$T/out")"
echo ok
