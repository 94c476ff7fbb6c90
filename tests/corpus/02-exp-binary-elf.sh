# An executable given as the experiment file: refused as binary (exit 64)
# before libyaml sees it, at line 1 column 1.
. "$(dirname "$0")/corpus.sh"

cp "$(type -P true)" "$T/bench"
expect_fail 64 "bench:1:1: not a YAML text file: control character U+007F (is it binary?)" \
	"$ABTOOL" check "$T/bench"
echo ok
