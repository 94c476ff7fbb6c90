# An unknown key, top-level and nested: exit 64 with a "did you mean".
. "$(dirname "$0")/corpus.sh"

printf 'name: x\nbenchmark: ./bench\nbenchmrk: ./other\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:3:1: benchmrk: unknown key 'benchmrk'; did you mean 'benchmark'?" \
	"$ABTOOL" check "$T/exp.yaml"
printf 'name: x\nbenchmark: ./bench\naccept:\n  - name: r\n    faster_than: 5%%\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:5:5: accept[0].faster_than: unknown key 'faster_than'" "$ABTOOL" check "$T/exp.yaml"
echo ok
