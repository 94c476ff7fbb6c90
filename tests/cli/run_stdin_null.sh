# Samples read /dev/null on stdin, not abtool's stdin (runner.h: "always
# for samples"): a benchmark that fails unless its stdin is /dev/null
# gives a valid run even when abtool's stdin is a file.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/repo"
git -C "$T/repo" init -q
echo a > "$T/repo/f" && git -C "$T/repo" add f && git -C "$T/repo" commit -qm parent
echo b > "$T/repo/f" && git -C "$T/repo" commit -qam candidate
cat > "$T/repo/exp.yaml" <<'EOF2'
name: stdin
design: stdin
benchmark: [sh, -c, 'test "$(readlink /proc/self/fd/0)" = /dev/null']
pairs: 2
warmup: 0
EOF2
echo "not /dev/null" > "$T/input"
expect_exit 2 "$ABTOOL" run "$T/repo/exp.yaml" --json "$T/r.json" < "$T/input"
[ "$(jqv "$T/r.json" .verdict)" = inconclusive ] || fail "verdict $(jqv "$T/r.json" .verdict)"
echo ok
