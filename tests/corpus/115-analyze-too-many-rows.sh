# analyze bounds what a pairs file may make: parameter columns that make
# more than 10000 rows (each row costs the analysis and its report about
# 30 KB: 100,000 distinct values once took 2.66 GB and 55 s), a line
# longer than 1 MiB (one 1 GB line once ran for minutes); each is exit 64
# naming the default and the option that raises it. A hyperfine export is
# bounded the same way. Raised, the same files are read.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w"
cd "$T/w"
awk 'BEGIN { print "workload\tparent\tcandidate"; for (i = 0; i < 10001; i++) printf "w%d\t%d\t%d\n", i, 1000 + i % 7, 990 + i % 5 }' >rows.tsv
expect_fail 64 "rows.tsv:1: column 'workload' (10001 distinct values): the parameter columns make more than 10000 rows (the product of their numbers of distinct values); is it a parameter? (abtool analyze --max-rows N analyzes more rows, up to 1000000; the default is 10000)" \
	"$ABTOOL" analyze rows.tsv
head -n 13 rows.tsv >some.tsv
expect_fail 64 "some.tsv:1: column 'workload' (12 distinct values): the parameter columns make more than 11 rows" \
	"$ABTOOL" analyze some.tsv --max-rows 11
expect_exit 0 "$ABTOOL" analyze some.tsv --max-rows 12
expect_fail 64 "--max-rows: expected an integer from 1 to 1000000, got '0'" "$ABTOOL" analyze some.tsv --max-rows 0

{ printf 'parent\tcandidate\n1\t'; head -c 1048577 /dev/zero | tr '\0' '2'; printf '\n'; } >line.tsv
expect_fail 64 "line.tsv:2: a line of 1048579 bytes, longer than the 1048576 a line may have; is it a pairs file? (abtool analyze --max-line-bytes N reads longer lines; the default is 1048576)" \
	"$ABTOOL" analyze line.tsv
printf 'parent\tcandidate\n10\t%s\n' "$(head -c 100 /dev/zero | tr '\0' '9')" >long.tsv
expect_fail 64 "long.tsv:2: a line of 103 bytes, longer than the 50 a line may have" \
	"$ABTOOL" analyze long.tsv --max-line-bytes 50

# hyperfine: 3 commands at 4 parameter values make 12 rows
python3 - <<'EOF2' >hf.json || fail "python3"
import json
res = [{"command": c, "times": [1.0 + k, 1.1 + k, 0.9 + k], "parameters": {"n": str(n)}}
       for n in range(4) for k, c in enumerate(["a", "b", "c"])]
print(json.dumps({"results": res}))
EOF2
expect_fail 64 "hf.json: the commands and parameters make more than 11 rows; abtool analyze --max-rows N analyzes more" \
	"$ABTOOL" analyze hf.json --max-rows 11
expect_exit 0 "$ABTOOL" analyze hf.json --max-rows 12
echo ok
