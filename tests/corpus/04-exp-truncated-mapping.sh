# A file cut in the middle of a flow mapping: a YAML syntax error that
# names the line and column (the end of the file), and where the mapping started (exit 64).
. "$(dirname "$0")/corpus.sh"

printf 'name: cut\nbenchmark: ./bench {lanes}\nmatrix: {lanes: [1, 2], work' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:4:1: YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping that starts at 3:9)" \
	"$ABTOOL" check "$T/exp.yaml"
echo ok
