# A rule whose where: matches no row of the matrix is refused (exit 64),
# never a silent pass over zero rows.
. "$(dirname "$0")/corpus.sh"

printf 'name: x\nbenchmark: ./bench {lanes}\nmatrix: {lanes: [1, 2]}\naccept:\n  - name: r\n    where: {lanes: [16]}\n    faster_by: 5%%\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:6:21: accept[0].where.lanes[0]: no row has lanes = 16; its values are 1, 2" \
	"$ABTOOL" check "$T/exp.yaml"
printf 'name: x\nbenchmark: ./bench {lanes}\nmatrix: {lanes: [1, 2]}\naccept:\n  - name: r\n    where: {lanes: ">=4"}\n    faster_by: 5%%\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:6:5: accept[0].where: selects no row of the matrix" "$ABTOOL" check "$T/exp.yaml"
echo ok
