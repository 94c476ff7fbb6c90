# A duplicate key names both places (exit 64).
. "$(dirname "$0")/corpus.sh"

printf 'name: x\nbenchmark: ./bench\npairs: 8\nname: y\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:4:1: name: duplicate key 'name' (first at 1:1)" "$ABTOOL" check "$T/exp.yaml"
printf 'name: x\nbenchmark: ./bench\nmatrix: {lanes: [1], lanes: [2]}\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:3:22: matrix.lanes: duplicate key 'lanes' (first at 3:10)" "$ABTOOL" check "$T/exp.yaml"
echo ok
