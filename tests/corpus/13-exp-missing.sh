# A missing experiment file: exit 64, the path, and how to write one.
. "$(dirname "$0")/corpus.sh"

expect_fail 64 "'$T/nope.yaml': no such file; check the path, or write an experiment file with 'abtool init $T/nope.yaml'" \
	"$ABTOOL" run "$T/nope.yaml" --store "$T/store.db"
expect_fail 64 "no such file" "$ABTOOL" check "$T/nope.yaml"
[ ! -e "$T/store.db" ] || fail "a missing file created a store"
echo ok
