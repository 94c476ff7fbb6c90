# 4 KiB of (seeded) random bytes: not a YAML text file, exit 64.
. "$(dirname "$0")/corpus.sh"

perl -e 'srand(7); print map { chr(int(rand(256))) } 1 .. 4096' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:1:" "$ABTOOL" check "$T/exp.yaml"
assert_contains "$T/err" ": not a YAML text file: "
echo ok
