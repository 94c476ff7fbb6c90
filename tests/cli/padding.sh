# env_padding: each pair runs with an ABTOOL_PADDING variable of a
# seeded length, the same for both samples of a pair and recorded with
# every sample; without it there is no such variable.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 10 5
EXP_PAIRS=6 EXP_EXTRA='env_padding: 300' write_exp "$T/repo"
sed -i 's|^benchmark: .*|benchmark: "./bench {lanes}; echo padding=${#ABTOOL_PADDING}"|' "$T/repo/exp.yaml"
sed -i "s|^checksum: .*|checksum: {regex: 'checksum=(\\\\S+)'}\nmetrics: {pad: {regex: 'padding=(\\\\S+)', better: lower}}|" "$T/repo/exp.yaml"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db" --seed 5
db="$T/s.db"
# the benchmark saw exactly the recorded length (metric pad = length + 1 to avoid zero is not needed: 0 is rare)
mismatch=$(sqlite3 "$db" "select count(*) from samples where status = 1 and json_extract(metrics, '$.pad') != padding_bytes")
[ "$mismatch" = 0 ] || fail "$mismatch samples saw another padding than recorded"
[ "$(sqlite3 "$db" "select count(*) from (select row_idx, pair, warmup, count(distinct padding_bytes) c from samples group by 1, 2, 3 having c > 1)")" = 0 ] \
	|| fail "the two samples of a pair were padded differently"
[ "$(sqlite3 "$db" "select count(distinct padding_bytes) from samples")" -ge 3 ] || fail "the padding does not vary"
[ "$(sqlite3 "$db" "select max(padding_bytes) <= 300 from samples")" = 1 ] || fail "padding above the maximum"

EXP_PAIRS=2 write_exp "$T/repo"
sed -i 's|^benchmark: .*|benchmark: "./bench {lanes}; echo padding=${#ABTOOL_PADDING}x"|' "$T/repo/exp.yaml"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$T/s.db" --verbose
[ "$(sqlite3 "$db" "select count(*) from samples where run_id = 2 and padding_bytes is not null")" = 0 ] || fail "padding without env_padding"
echo ok
