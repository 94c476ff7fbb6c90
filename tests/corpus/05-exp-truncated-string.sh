# A file cut inside a quoted string: a YAML syntax error at the end of the
# file that names where the string started (exit 64).
. "$(dirname "$0")/corpus.sh"

printf 'name: cut\nbenchmark: "./bench --lanes' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:2:" "$ABTOOL" check "$T/exp.yaml"
assert_contains "$T/err" "YAML syntax error: found unexpected end of stream (while scanning a quoted scalar that starts at 2:12)"
echo ok
