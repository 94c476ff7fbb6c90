# environment.commands: each command's exit status, timeout and stderr
# are recorded beside its stdout (host.command_results), a failed or
# timed-out command is a warning in the report, and `abtool env EXP.yaml`
# runs and prints them as a run records them.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 40 20
EXP_PAIRS=2 EXP_EXTRA='environment:
  commands: ["echo version 1.2; echo to-stderr >&2", "echo hi; exit 3", "sleep 30"]
  commands_timeout: 1s' write_exp "$T/repo"

# abtool env EXP.yaml: text
"$ABTOOL" env "$T/repo/exp.yaml" >"$T/env.txt" 2>"$T/env.err" || fail "env EXP.yaml exited $?"
assert_contains "$T/env.txt" '$ echo version 1.2; echo to-stderr >&2   (exit 0)'
assert_contains "$T/env.txt" '  version 1.2'
assert_contains "$T/env.txt" '    to-stderr'
assert_contains "$T/env.txt" '$ echo hi; exit 3   (exit 3)'
assert_contains "$T/env.txt" '$ sleep 30   (timed out after 1 s)'
assert_contains "$T/env.txt" "warning: environment.commands: 'echo hi; exit 3' exit 3"
assert_contains "$T/env.txt" "warning: environment.commands: 'sleep 30' timed out after 1 s"
# ... and JSON
"$ABTOOL" env "$T/repo/exp.yaml" --json >"$T/env.json" || fail "env EXP.yaml --json"
r='.fingerprint.command_results'
[ "$(jqv "$T/env.json" "$r[\"echo hi; exit 3\"].exit_code")" = 3 ] || fail "env --json exit_code"
[ "$(jqv "$T/env.json" "$r[\"sleep 30\"].timed_out")" = true ] || fail "env --json timed_out"
[ "$(jqv "$T/env.json" "$r[\"sleep 30\"].exit_code")" = null ] || fail "a timed-out command has no exit code"
# without an experiment there are no commands; a bad file is refused
"$ABTOOL" env --json >"$T/plain.json" || fail "env"
[ "$(jqv "$T/plain.json" '.fingerprint | has("commands")')" = false ] || fail "env without EXP.yaml ran commands"
expect_exit 64 "$ABTOOL" env "$T/nonexistent.yaml"
expect_exit 64 "$ABTOOL" env "$T/repo/exp.yaml" extra

# a run records the same, and warns in the report
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --json "$T/r.json" --md "$T/r.md"
h='.host.command_results'
[ "$(jqv "$T/r.json" '.host.commands["echo hi; exit 3"]')" = hi ] || fail "stdout in host.commands"
[ "$(jqv "$T/r.json" "$h[\"echo version 1.2; echo to-stderr >&2\"].stderr")" = to-stderr ] || fail "stderr kept"
[ "$(jqv "$T/r.json" "$h[\"echo version 1.2; echo to-stderr >&2\"].status")" = "exit 0" ] || fail "status exit 0"
[ "$(jqv "$T/r.json" "$h[\"echo hi; exit 3\"].status")" = "exit 3" ] || fail "status exit 3"
[ "$(jqv "$T/r.json" "$h[\"sleep 30\"].status")" = "timed out after 1 s" ] || fail "status timed out"
assert_contains "$T/r.md" "environment.commands: 'echo hi; exit 3' exit 3"
assert_contains "$T/r.md" "environment.commands: 'sleep 30' timed out after 1 s"
assert_not_contains "$T/r.md" "environment.commands: 'echo version"
python3 "$(dirname "$0")/validate_json.py" "$ABTOOL_TEST_SRC/docs/report-schema.json" "$T/r.json" ||
	fail "the report with command_results does not validate against docs/report-schema.json"

# commands_timeout takes a duration
EXP_EXTRA='environment: {commands: ["true"], commands_timeout: soon}' write_exp "$T/repo"
expect_exit 64 "$ABTOOL" check "$T/repo/exp.yaml"
assert_contains "$T/err" "environment.commands_timeout: expected a duration like 500ms, 60s or 10m"
echo ok
