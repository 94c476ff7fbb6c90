# environment.require: an unmet condition makes the verdict inconclusive
# (exit 2) with the reason, whatever the rules say; environment.commands
# outputs are stored in the fingerprint; a bad key names file:line:col.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 40 4   # 10x faster on cpu_ns (write_exp): the rules accept it
EXP_EXTRA='environment:
  require: {min_online_cpus: 4096, max_steal: 50%}
  commands: ["echo compiler-x 1.2"]' write_exp "$T/repo"
expect_exit 2 "$ABTOOL" run "$T/repo/exp.yaml" --json "$T/r.json"
assert_contains "$T/out" "Verdict: inconclusive"
assert_contains "$T/out" "host condition not met (environment.require)"
assert_contains "$T/out" "at least 4096 required"
assert_contains "$T/out" "without that, the rules would have said: accepted"
[ "$(jqv "$T/r.json" '.host.commands["echo compiler-x 1.2"]')" = "compiler-x 1.2" ] || fail "command output"

# met conditions leave the verdict to the rules
EXP_EXTRA='environment: {require: {min_online_cpus: 1}}' write_exp "$T/repo"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml"
assert_not_contains "$T/out" "environment.require"

EXP_EXTRA='environment:
  require: {governer: performance}' write_exp "$T/repo"
expect_exit 64 "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/err" "exp.yaml:16:13: environment.require.governer: unknown key 'governer'; did you mean 'governor'?"
echo ok
