# SIGINT while a large plan is made and stored stops abtool there (exit
# 130), not after it has written every planned sample: the run is not
# stored, and the store holds no sample. The signal arrives while the
# environment.commands, which run just before the plan, wait for it.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w"
cd "$T/w"
values=$(seq -s, 0 99)
cat >big.yaml <<EOF2
name: big
sides: {a: {name: a, command: "true {x}{y}"}, b: {name: b, command: "true"}}
matrix: {x: [$values], y: [$values]}
pairs: 4
warmup: 0
environment:
  commands: ["echo started 1<>'$T/events'; while [ -e '$T/hang' ]; do sleep 0.05; done"]
EOF2
expect_exit 0 "$ABTOOL" check big.yaml
assert_contains "$T/out" "80000 samples"
events_open
touch "$T/hang"
"$ABTOOL" run big.yaml --store s.db >"$T/out" 2>"$T/err" &
interrupt_when_started $!
[ $rc = 130 ] || { cat "$T/err" >&2; fail "exit $rc after SIGINT, expected 130"; }
assert_contains "$T/err" "abtool: interrupted by SIGINT before the run was stored"
[ "$(sqlite3 s.db "select count(*) from samples")" = 0 ] || fail "the plan was stored after SIGINT"
[ "$(sqlite3 s.db "select count(*) from runs")" = 0 ] || fail "the run was stored after SIGINT"
echo ok
