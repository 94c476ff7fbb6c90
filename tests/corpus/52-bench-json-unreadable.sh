# A JSON line that jansson cannot read (an integer beyond 64 bits, a real
# beyond double range): the sample fails (exit 3) and says why the line
# was not read, instead of only "not found", which sent the user looking
# for a key that is there.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
cat >>"$T/repo/exp.yaml" <<'EOF2'
metrics:
  ops: {json: ops, better: higher}
EOF2
printf '#!/bin/sh\n./bench "$@"\necho '"'"'{"ops": 1e400}'"'"'\n' >"$T/real.sh"
printf '#!/bin/sh\n./bench "$@" >/dev/null\necho '"'"'{"sum": 18446744073709551615}'"'"'\n' >"$T/big.sh"
chmod +x "$T/real.sh" "$T/big.sh"
sed -i "s|^benchmark: .*|benchmark: $T/real.sh {lanes}|" "$T/repo/exp.yaml"
expect_fail 3 "lanes=1: parent sample 0 failed: metric 'ops' not found in stdout; the line '{\"ops\": 1e400}' is not JSON: real number overflow" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
sed -i -e "s|^benchmark: .*|benchmark: $T/big.sh {lanes}|" -e "s|^checksum: .*|checksum: {json: sum}|" \
	-e '/^metrics:/,$d' "$T/repo/exp.yaml"
expect_fail 3 "lanes=1: parent sample 0 failed: checksum not found in stdout: no JSON line with the key 'sum' (checksum.json); the line '{\"sum\": 18446744073709551615}' is not JSON: too big integer" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$T/store.db"
echo ok
