# The names and keys the action's prepare step (scripts/action/prepare.sh)
# gives each job of the workflows `abtool init --workflow` writes, as the
# runner would run it (tests/cli/gha_fake.py --only prepare, GITHUB_JOB
# set to the job's id): every job, and every shard of a matrix job, uploads
# an artifact of its own name (upload-artifact@v4 refuses a second one in
# a workflow run), the verdict job's download pattern takes every shard's
# and not its own; the store's cache key of a pull request is restored by
# the prefix of the next pull request of the same base branch (and of a
# push to that branch), never by one of another base branch; the sharded
# workflow has no more shards than the pr-gate template has rows.
. "$(dirname "$0")/lib.sh"

src=$ABTOOL_TEST_SRC
for w in github-actions github-actions-sharded; do
	"$ABTOOL" init --workflow $w "$T/$w.yml" 2>/dev/null || fail "init --workflow $w"
done
export RUNNER_TEMP="$T/runner" GITHUB_ACTIONS=true
mkdir -p "$RUNNER_TEMP"
# prepare WORKFLOW JOB OUT [--set k=v ...]: the job's prepare step; its outputs as JSON in OUT
prepare() {
	local wf=$1 job=$2 out=$3
	shift 3
	python3 "$src/tests/cli/gha_fake.py" --only prepare --outputs "$out" \
		--set github.run_id=4242 --set github.run_attempt=1 "$@" "$src" "$T/$wf.yml" "$job" \
		>"$T/prepare.out" 2>"$T/prepare.err" || { cat "$T/prepare.err" >&2; fail "prepare of $wf/$job"; }
}

# Every job of each workflow, every value of its matrix, on one pull request.
export GITHUB_EVENT_NAME=pull_request GITHUB_REF=refs/pull/7/merge GITHUB_BASE_REF=main GITHUB_RUN_ID=4242
for wf in github-actions github-actions-sharded; do
	python3 - "$T/$wf.yml" >"$T/$wf.jobs" <<'EOF2' || fail "the jobs of $wf"
import itertools, sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
for name, job in wf['jobs'].items():
    if not any('uses' in s and not s['uses'].startswith('actions/') for s in job['steps']):
        continue  # no abtool step
    matrix = (job.get('strategy') or {}).get('matrix') or {}
    keys = sorted(matrix)
    for values in itertools.product(*(matrix[k] for k in keys)):
        print(name, *('--set matrix.%s=%s' % (k, v) for k, v in zip(keys, values)))
EOF2
	n=0
	while read -r job sets; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # the --set words
		prepare "$wf" "$job" "$T/$wf.$n.json" $sets
		jqv "$T/$wf.$n.json" .prepare.artifact >>"$T/$wf.artifacts"
	done <"$T/$wf.jobs"
	[ "$n" -ge 2 ] || fail "$wf: $n jobs with the abtool action, expected at least 2"
	[ "$(sort "$T/$wf.artifacts" | uniq -d)" = "" ] ||
		fail "$wf: two jobs upload an artifact of one name: $(sort "$T/$wf.artifacts" | uniq -d | tr '\n' ' ')"
	[ "$(sort -u "$T/$wf.artifacts" | wc -l)" = "$n" ] || fail "$wf: not one artifact name per job"
done
sed 's/^/  /' "$T/github-actions.artifacts" "$T/github-actions-sharded.artifacts"
grep -qx 'abtool-reports-head-vs-merge-base' "$T/github-actions.artifacts" || fail "the merge-base job's artifact"
# the verdict job downloads the shards' artifacts by its pattern, and not its own
pattern=$(python3 -c 'import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
print([s for s in wf["jobs"]["verdict"]["steps"] if s.get("uses", "").startswith("actions/download-artifact")][0]["with"]["pattern"])' \
	"$T/github-actions-sharded.yml") || fail "the verdict job's download pattern"
shards=0
while read -r a; do
	# shellcheck disable=SC2254 # the pattern, as download-artifact matches it
	case $a in
	$pattern) shards=$((shards + 1)) ;;
	abtool-verdict-*) ;;
	*) fail "artifact '$a' is neither a shard's ($pattern) nor the verdict's" ;;
	esac
done <"$T/github-actions-sharded.artifacts"
[ "$shards" = "$(grep -c 'matrix.shard' "$T/github-actions-sharded.jobs")" ] || fail "the pattern misses a shard"

# The sharded workflow sized to the template it shards: no more shards than rows.
"$ABTOOL" init --template pr-gate "$T/gate.yaml" 2>/dev/null || fail "init --template pr-gate"
rows=$(python3 -c 'import sys, yaml, math
m = yaml.safe_load(open(sys.argv[1])).get("matrix") or {}
print(math.prod(len(v) for v in m.values()))' "$T/gate.yaml")
counts=$(sed -n 's/.*matrix\.shard=[0-9]*\/\([0-9]*\).*/\1/p' "$T/github-actions-sharded.jobs" | sort -u)
[ "$(echo "$counts" | wc -l)" = 1 ] || fail "shards of different counts: $counts"
[ "$counts" -le "$rows" ] || fail "the sharded workflow has $counts shards, the pr-gate template $rows rows"

# The store's cache: pull request 7, then 8 of the same base branch (a job's
# run on each, on one runner image), a push to main, a pull request on release.
out() {  # out FILE NAME: the prepare step's output NAME
	jq -r --arg k "$2" '.prepare[$k] // empty' "$1"
}
key() {  # key OUT: the merge-base job's prepare, under the GITHUB_* variables set
	prepare github-actions head-vs-merge-base "$1"
}
GITHUB_REF=refs/pull/7/merge GITHUB_RUN_ID=100 key "$T/pr7.json"
GITHUB_REF=refs/pull/8/merge GITHUB_RUN_ID=200 key "$T/pr8.json"
GITHUB_EVENT_NAME=push GITHUB_REF=refs/heads/main GITHUB_REF_NAME=main GITHUB_BASE_REF= GITHUB_RUN_ID=300 \
	key "$T/push.json"
GITHUB_REF=refs/pull/9/merge GITHUB_BASE_REF=main-2 GITHUB_RUN_ID=400 key "$T/other.json"
for f in pr7 pr8 push other; do
	printf '  %s: key %s, restore-keys %s\n' $f "$(out "$T/$f.json" store-key)" \
		"$(out "$T/$f.json" store-prefix)"
done
# restores KEY_FILE PREFIX_FILE: actions/cache restores the newest cache whose key starts with a restore key
restores() {
	local key prefix
	key=$(out "$1" store-key) prefix=$(out "$2" store-prefix)
	[ -n "$prefix" ] && [ "${key#"$prefix"}" != "$key" ]
}
[ "$(out "$T/pr7.json" store-key)" != "$(out "$T/pr8.json" store-key)" ] ||
	fail "two pull requests save under one key (a cache is never overwritten: the second would not be saved)"
restores "$T/pr7.json" "$T/pr8.json" || fail "pull request 8 does not restore pull request 7's store"
restores "$T/push.json" "$T/pr8.json" || fail "a pull request does not restore its base branch's store"
restores "$T/pr8.json" "$T/push.json" || fail "a push to main does not restore main's pull requests' store"
restores "$T/pr7.json" "$T/other.json" && fail "a pull request on main-2 restores main's store"
restores "$T/other.json" "$T/pr8.json" && fail "a pull request on main restores main-2's store"
# the shards and the verdict of a group restore the same base branch's store too
restores "$T/pr7.json" "$T/github-actions-sharded.1.json" || fail "a shard does not restore the base branch's store"
echo ok
