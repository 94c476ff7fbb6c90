# Deeply nested YAML within the 1 MiB limit: 500000 '[' took libyaml's
# scanner minutes of CPU (its cost per token grows with the depth), so
# `abtool check` seemed to hang. Nesting beyond 64 levels is refused at
# once (exit 64), with the place; so is deep block nesting, and the same
# holds for analyze's rules file.
. "$(dirname "$0")/corpus.sh"

{
	printf 'name: x\nbenchmark: ./bench\nmatrix: {lanes: '
	head -c 500000 /dev/zero | tr '\0' '['
} >"$T/flow.yaml"
# (refused by the depth check before the document is loaded: the message
# comes from it; `timeout 60` only keeps a regression from hanging CI)
expect_fail 64 "flow.yaml:3:79: YAML nested more than 64 levels deep (an experiment or rules file needs a few)" \
	timeout 60 "$ABTOOL" check "$T/flow.yaml"

{
	printf 'name: x\nbenchmark: ./bench\nenv:\n'
	for i in $(seq 1 70); do printf "%$((i * 2))sk$i:\n" ''; done
	printf "%142sv: x\n" ''
} >"$T/block.yaml"
expect_fail 64 "block.yaml:" "$ABTOOL" check "$T/block.yaml"
assert_contains "$T/err" "YAML nested more than 64 levels deep"

printf 'parent\tcandidate\n10\t9\n' >"$T/pairs.tsv"
{ printf 'accept: '; head -c 200000 /dev/zero | tr '\0' '{'; } >"$T/rules.yaml"
expect_fail 64 "rules.yaml:1:" timeout 60 "$ABTOOL" analyze "$T/pairs.tsv" --accept "$T/rules.yaml"
assert_contains "$T/err" "YAML nested more than 64 levels deep"
echo ok
