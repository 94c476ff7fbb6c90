# Values of the wrong type: each names file:line:column, the key path and
# the type expected (exit 64).
. "$(dirname "$0")/corpus.sh"

printf 'name: x\nbenchmark: ./bench\npairs: many\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:3:1: pairs: expected an integer from 1 to 100000" "$ABTOOL" check "$T/exp.yaml"
printf 'name: [x]\nbenchmark: ./bench\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:1:1: name: expected a string" "$ABTOOL" check "$T/exp.yaml"
printf 'name: x\nbenchmark: ./bench\ntimeout: 5\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:3:1: timeout: expected a duration like 500ms, 60s or 10m" "$ABTOOL" check "$T/exp.yaml"
printf 'name: x\nbenchmark: ./bench\naccept:\n  - name: r\n    min_pair_wins: {k: 7}\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:5:5: accept[0].min_pair_wins: " "$ABTOOL" check "$T/exp.yaml"
echo ok
