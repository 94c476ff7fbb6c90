# Hardware counters and cachegrind. `instructions` comes from
# perf_event_open: where the kernel has no counters (as in most VMs) it is
# stored as unavailable with the kernel's reason and a rule on it is
# inconclusive; where it has them, values are stored. cachegrind counts
# are deterministic: an A/A pair gives identical counts, and a candidate
# doing half the work gives fewer.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 4 2
cat > "$T/repo/hw.yaml" <<'EOF2'
name: counters
build: make
benchmark: ./bench 1
checksum: {regex: 'checksum=(\S+)'}
metric: instructions
pairs: 6
accept:
  - name: fewer instructions
    faster_by: 5%
EOF2
expect_decided "$ABTOOL" run "$T/repo/hw.yaml" --json "$T/hw.json"
why=$(jqv "$T/hw.json" '.rows[0].unavailable // empty')
if [ -n "$why" ]; then
	case $why in *perf_event_open*) ;; *) fail "unavailable without the kernel's reason: $why" ;; esac
	[ "$(jqv "$T/hw.json" '.rules[0].outcome')" = inconclusive ] || fail "a rule on an unavailable metric must be inconclusive"
	[ "$(sqlite3 "$T/repo/.git/abtool/abtool.db" "select count(*) from samples where status = 1 and json_extract(metrics, '$.instructions') is not null")" = 0 ] \
		|| fail "an unavailable counter was stored as a value"
	[ "$(sqlite3 "$T/repo/.git/abtool/abtool.db" "select count(*) from samples where status = 1 and unavailable like '%perf_event_open%'")" -gt 0 ] \
		|| fail "the reason is not stored with the samples"
	echo "counters: unavailable here ($why)"
else
	awk "BEGIN { exit !($(jqv "$T/hw.json" '.rows[0].parent.median') > 1000) }" || fail "instruction counts"
fi

# cachegrind: A/A on one commit (three pairs, no padding), then the change
cat > "$T/repo/cg.yaml" <<'EOF2'
name: cachegrind
build: make
benchmark: [./bench, "1"]
checksum: {regex: 'checksum=(\S+)'}
metric: cachegrind_instructions
pairs: 3
timeout: 5m
accept:
  - name: fewer instructions
    faster_by: 5%
EOF2
sed 's/^name: cachegrind/name: cachegrind-aa\nparent: HEAD\nexact_parent: false/' "$T/repo/cg.yaml" > "$T/repo/aa.yaml"
expect_decided "$ABTOOL" run "$T/repo/aa.yaml" --json "$T/aa.json"
[ "$(jqv "$T/aa.json" '.rows[0].unavailable // empty')" = "" ] || fail "cachegrind unavailable: $(jqv "$T/aa.json" '.rows[0].unavailable')"
[ "$(jqv "$T/aa.json" '[.rows[0].per_pair[].log_ratio] | map(. == 0) | all')" = true ] || fail "A/A counts differ"
[ "$(jqv "$T/aa.json" '.rows[0].parent.median')" = "$(jqv "$T/aa.json" '.rows[0].candidate.median')" ] || fail "A/A medians"
expect_decided "$ABTOOL" run "$T/repo/cg.yaml" --json "$T/cg.json"
[ "$(jqv "$T/cg.json" '.rows[0].pair_wins')" = 3 ] || fail "every pair should have fewer instructions"
awk "BEGIN { exit !($(jqv "$T/cg.json" '.rows[0].ratio') < 0.7) }" || fail "half the work: ratio $(jqv "$T/cg.json" '.rows[0].ratio')"
echo ok
