# A pairs file whose header names a column twice ('parent' twice) is
# refused (exit 64) naming the column and both places; the second
# 'parent' used to become a matrix parameter named parent.
. "$(dirname "$0")/corpus.sh"

printf 'parent\tcandidate\tparent\n10\t9\t8\n11\t10\t9\n' >"$T/dup.tsv"
expect_fail 64 "$T/dup.tsv:1: column 'parent' is named twice (columns 1 and 3); give each column its own name" \
	"$ABTOOL" analyze "$T/dup.tsv"
printf '# a comment\nlanes,parent,lanes,candidate\n1,10,1,9\n' >"$T/dup.csv"
expect_fail 64 "$T/dup.csv:2: column 'lanes' is named twice (columns 1 and 3)" "$ABTOOL" analyze "$T/dup.csv"
echo ok
