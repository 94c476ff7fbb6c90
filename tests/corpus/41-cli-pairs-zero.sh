# --pairs 0 (and other out-of-range counts) is refused before anything
# is read or stored: exit 64 with the range.
. "$(dirname "$0")/corpus.sh"

for n in 0 -4 100001 eight; do
	expect_fail 64 "abtool run: --pairs: expected an integer from 1 to 100000, got '$n'" \
		"$ABTOOL" run "$T/exp.yaml" --pairs "$n" --store "$T/store.db"
done
expect_fail 64 "abtool calibrate: --pairs: expected an integer from 5 to 100000, got '0'" \
	"$ABTOOL" calibrate "$T/exp.yaml" --pairs 0 --store "$T/store.db"
[ ! -e "$T/store.db" ] || fail "a store was created"
echo ok
