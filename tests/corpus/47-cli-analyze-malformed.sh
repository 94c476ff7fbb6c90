# analyze of malformed pairs files: exit 64, the file and line (and
# column name) at fault.
. "$(dirname "$0")/corpus.sh"

printf 'parent\tcandidate\n10\t9\n11\tfast\n' >"$T/pairs.tsv"
expect_fail 64 "$T/pairs.tsv:3: column 'candidate': expected a positive number, got 'fast'" \
	"$ABTOOL" analyze "$T/pairs.tsv"
printf 'a,b\n1,2\n' >"$T/pairs.csv"
expect_fail 64 "$T/pairs.csv:1: the header needs either 'parent' and 'candidate' columns (wide) or 'pair', 'side' and 'value' columns (long)" \
	"$ABTOOL" analyze "$T/pairs.csv"
printf 'parent\tcandidate\n10\t9\t8\n' >"$T/pairs.tsv"
expect_fail 64 "$T/pairs.tsv:2: 3 fields, but the header has 2" "$ABTOOL" analyze "$T/pairs.tsv"
cp "$(type -P true)" "$T/pairs.bin"
expect_fail 64 "$T/pairs.bin: a text file of TSV or CSV was expected (it holds NUL bytes)" "$ABTOOL" analyze "$T/pairs.bin"
expect_fail 64 "'$T/none.tsv': no such file; check the path" "$ABTOOL" analyze "$T/none.tsv"
echo ok
