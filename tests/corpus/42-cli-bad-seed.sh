# A bad --seed: exit 64 with what a seed is.
. "$(dirname "$0")/corpus.sh"

for s in -3 12abc 0x10 99999999999999999999 ''; do
	expect_fail 64 "abtool run: --seed: expected a non-negative integer, got '$s'" \
		"$ABTOOL" run "$T/exp.yaml" --seed "$s" --store "$T/store.db"
done
echo ok
