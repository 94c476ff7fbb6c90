# An error on the last line of a pairs file that does not end with a
# newline names that line (f.tsv:2), not the one after it.
. "$(dirname "$0")/corpus.sh"

printf 'parent\tcandidate\n10\tx' >"$T/f.tsv"
expect_fail 64 "$T/f.tsv:2: column 'candidate': expected a positive number, got 'x'" "$ABTOOL" analyze "$T/f.tsv"
printf 'parent\tcandidate\n10\t9\n10\t9\t8' >"$T/g.tsv"
expect_fail 64 "$T/g.tsv:3: 3 fields, but the header has 2" "$ABTOOL" analyze "$T/g.tsv"
printf 'lanes,pair,side,value\n1,1,parent,10\n1,1,parent,11' >"$T/h.csv"
expect_fail 64 "$T/h.csv:3: pair '1' has a second parent value (first at line 2)" "$ABTOOL" analyze "$T/h.csv"
echo ok
