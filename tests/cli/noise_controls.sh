# Noise controls: `affinity` pins the samples to a CPU list (or, per lane,
# to the first N CPUs of it) and `aslr: false` runs them without
# address-space randomization. The samples report what they got through
# their checksum, which must then agree within each row.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 4 2
cat > "$T/repo/aff.yaml" <<'EOF2'
name: affinity
build: make
benchmark: "./bench {lanes} >/dev/null; sed -n 's/^Cpus_allowed_list:[[:space:]]*/cpus=/p' /proc/self/status"
checksum: {regex: 'cpus=(\S+)'}
matrix: {lanes: [1, 2]}
affinity: {cpus: "0-1", per_lane: lanes}
pairs: 2
warmup: 0
EOF2
expect_decided "$ABTOOL" run "$T/repo/aff.yaml" --json "$T/aff.json"
[ "$(jqv "$T/aff.json" '.rows[0].checksum')" = 0 ] || fail "lanes=1 should run on CPU 0: $(jqv "$T/aff.json" '.rows[0].checksum_values')"
[ "$(jqv "$T/aff.json" '.rows[1].checksum')" = 0-1 ] || fail "lanes=2 should run on CPUs 0-1"
# the report states the controls in effect
[ "$(jqv "$T/aff.json" '.noise_controls | [.affinity, .affinity_per_lane, .aslr, .env_padding_bytes] | @tsv')" = \
	"$(printf '0-1\tlanes\ttrue\t0')" ] || fail "noise_controls: $(jqv "$T/aff.json" '.noise_controls')"
assert_contains "$T/out" "Noise controls: CPU affinity 0-1, the first N CPUs for lanes=N."

sed -e 's/^affinity: .*/affinity: "1"/' "$T/repo/aff.yaml" > "$T/repo/aff1.yaml"
expect_decided "$ABTOOL" run "$T/repo/aff1.yaml" --json "$T/aff1.json"
[ "$(jqv "$T/aff1.json" '.rows[0].checksum')" = 1 ] || fail "a fixed list"
[ "$(jqv "$T/aff1.json" '.rows[1].checksum')" = 1 ] || fail "a fixed list, lanes=2"
assert_contains "$T/out" "Noise controls: CPU affinity 1."

cat > "$T/repo/aslr.yaml" <<'EOF2'
name: aslr
build: make
benchmark: "./bench 1 >/dev/null; echo persona=$(cat /proc/self/personality)"
checksum: {regex: 'persona=(\S+)'}
pairs: 2
warmup: 0
aslr: false
EOF2
echo "env_padding: 512" >> "$T/repo/aslr.yaml"
expect_decided "$ABTOOL" run "$T/repo/aslr.yaml" --json "$T/aslr.json" --html "$T/aslr.html"
assert_contains "$T/out" "Noise controls: ASLR off, environment padding 0–512 bytes per pair."
assert_contains "$T/aslr.html" "<p>Noise controls: ASLR off, environment padding 0–512 bytes per pair.</p>"
[ "$(jqv "$T/aslr.json" '.rows[0].checksum')" = 00040000 ] || fail "ADDR_NO_RANDOMIZE: $(jqv "$T/aslr.json" '.rows[0].checksum')"
sed -i '/^aslr: false/d; /^env_padding/d' "$T/repo/aslr.yaml"
expect_decided "$ABTOOL" run "$T/repo/aslr.yaml" --json "$T/aslr2.json"
assert_contains "$T/out" "Noise controls: none."
[ "$(jqv "$T/aslr2.json" '.rows[0].checksum')" = 00000000 ] || fail "randomization is left alone by default"

printf 'name: x\nbenchmark: ./b\naffinity: "0-"\n' > "$T/bad.yaml"
expect_exit 64 "$ABTOOL" check "$T/bad.yaml"
assert_contains "$T/err" "bad.yaml:3:1: affinity: expected a CPU list like \"0-3,6\""
echo ok
