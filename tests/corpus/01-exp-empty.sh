# An empty experiment file (and one of only comments): exit 64, the file
# named, and what an experiment needs.
. "$(dirname "$0")/corpus.sh"

: >"$T/exp.yaml"
expect_fail 64 "exp.yaml:1:1: the file is empty (or only comments); an experiment needs at least 'name:' and 'benchmark:'" \
	"$ABTOOL" check "$T/exp.yaml"
printf '# to do\n\n' >"$T/exp.yaml"
expect_fail 64 "exp.yaml:1:1: the file is empty" "$ABTOOL" run "$T/exp.yaml" --store "$T/store.db"
[ ! -e "$T/store.db" ] || fail "a bad file created a store"
echo ok
