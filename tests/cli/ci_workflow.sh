# serial
# The GitHub Actions workflow of docs/ci.md (abtool init --workflow
# github-actions), its gate steps run here as the runner would run them on
# a pull request: the head 2x faster than the merge base passes the first
# job, while the second job catches the pull request's last commit, which
# is 2x slower than its exact parent.
. "$(dirname "$0")/lib.sh"

# origin: main with the experiment; a pull request branch of two commits
mkdir -p "$T/origin/perf"
git -C "$T/origin" init -q -b main
printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' > "$T/origin/Makefile"
echo bench > "$T/origin/.gitignore"
bench_source 40 > "$T/origin/bench.c"
cat > "$T/origin/perf/gate.yaml" <<'EOF2'
name: pr-gate
repo: ..
build: make
benchmark: ./bench 1
checksum: {regex: 'checksum=(\S+)'}
pairs: 6
accept:
  - name: no regression
    no_regression: 3%
EOF2
git -C "$T/origin" add -A && git -C "$T/origin" commit -qm "base"
git -C "$T/origin" checkout -q -b pr
bench_source 10 > "$T/origin/bench.c"; git -C "$T/origin" commit -qam "pr: 4x faster"
bench_source 20 > "$T/origin/bench.c"; git -C "$T/origin" commit -qam "pr: 2x slower again"
git -C "$T/origin" checkout -q main
git clone -q "$T/origin" "$T/work"
head=$(git -C "$T/origin" rev-parse pr)
git -C "$T/work" checkout -q "$head"

"$ABTOOL" init --workflow github-actions "$T/workflow.yml" 2>/dev/null || fail "init --workflow"
bin=$(dirname "$ABTOOL")
# extract_step JOB: the run script of the job's step whose name starts with
# "Gate", with the pull request's expressions substituted
extract_step() {
	python3 - "$T/workflow.yml" "$1" "$head" <<'EOF2'
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
steps = wf['jobs'][sys.argv[2]]['steps']
assert any(s.get('with', {}).get('fetch-depth') == 0 for s in steps), 'full history is checked out'
run = [s['run'] for s in steps if s.get('name', '').startswith('Gate')][0]
run = run.replace('${{ github.event.pull_request.head.sha }}', sys.argv[3])
run = run.replace('${{ github.base_ref }}', 'main')
run = run.replace('${{ github.event.pull_request.number }}', '7')
assert '${{' not in run, run
print(run)
EOF2
}
for job in head-vs-merge-base every-commit-vs-exact-parent; do
	extract_step $job > "$T/$job.sh" || fail "no gate step in $job"
done

cd "$T/work" || fail "cd"
export EXPERIMENT=perf/gate.yaml GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$T/summary.md" PATH="$bin:$PATH"
expect_exit 0 bash -e "$T/head-vs-merge-base.sh"
assert_contains "$T/out" "Verdict: accepted"
[ "$(jqv "$T/work/abtool.json" .exact_parent)" = false ] || fail "merge-base gating recorded as exact"
[ "$(jqv "$T/work/abtool.json" .parent.oid)" = "$(git -C "$T/origin" rev-parse main)" ] || fail "merge base"
[ -s "$T/work/abtool.html" ] && [ -s "$T/work/abtool-junit.xml" ] || fail "evidence files"
# recorded under the pull request, not the file's design
[ "$(jqv "$T/work/abtool.json" .design)" = pr-7 ] || fail "--design"
case "$(jqv "$T/work/abtool.json" .reproduce)" in *" --design pr-7") ;; *) fail "reproduce without --design" ;; esac

expect_exit 1 bash -e "$T/every-commit-vs-exact-parent.sh"
[ "$(ls "$T"/work/abtool-*.json | wc -l)" = 2 ] || fail "one report per commit"
[ "$(jqv "$T/work/abtool-$(git -C "$T/origin" rev-parse pr~1).json" .verdict)" = accepted ] || fail "first commit"
[ "$(jqv "$T/work/abtool-$head.json" .verdict)" = rejected ] || fail "the 2x slower commit"
[ "$(jqv "$T/work/abtool-$head.json" .exact_parent)" = true ] || fail "exact parent"
grep -q '^::error title=abtool%3A no regression (fail)::' "$T/err" || fail "annotation"
[ "$(grep -c '^# pr-gate — ' "$T/summary.md")" = 3 ] || fail "three summaries appended"
expect_exit 0 "$ABTOOL" designs --json
[ "$(jqv "$T/out" 'map(.design + ":" + (.runs | tostring) + ":" + .latest_verdict) | join(",")')" = "pr-7:3:rejected" ] \
	|| fail "designs: $(cat "$T/out")"
echo ok
