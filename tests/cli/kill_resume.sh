# smoke
# resume, on wall time (the default metric).
# A run killed with SIGKILL once the store holds 11 committed samples (its
# twelfth sample says so and hangs: hang_bench), in the middle of a pair,
# is finished by `abtool resume`: no sample is lost or duplicated, the
# half-finished pair is re-run whole (its committed sample superseded),
# and the row statistics equal those recomputed from the stored samples. Designed error: 0. No assertion depends on the timings: any
# verdict is taken (exit 0, 1 or 2), and the recomputation reads the same
# stored wall times the run analysed.
. "$(dirname "$0")/lib.sh"

events_open
make_repo "$T/repo" 20 10
hang_bench "$T" 12
EXP_LANES="1, 2" EXP_PAIRS=8 EXP_METRIC=wall_ns write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
db=$(test_store store)
touch "$T/hang"
"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --seed 11 --design "pr 12" --quiet >/dev/null 2>&1 &
pid=$!
await hung
kill -9 $pid
wait $pid 2>/dev/null
rm -f "$T/hang"
n=$(sql "$db" "select count(*) from samples where status = 1")
[ "$n" = 11 ] || fail "the run stored $n samples before the kill, expected 11"
planned=$(sql "$db" "select count(*) from samples")
[ "$planned" = 36 ] || fail "the plan has $planned samples, expected 36"
# what was committed before the kill
sql "$db" "select seq, side, wall_ns, checksum from samples where status = 1 order by seq" > "$T/before"
done_before=$(wc -l < "$T/before")
[ "$(sql "$db" "select status from runs where id = 1")" = running ] || fail "status after SIGKILL"

# As if the run had started on another machine: the report keeps the host
# it started on (as `show` does) and says where it was resumed.
if on_pg; then
	host=$(sql "$db" "select host::json ->> 'hostname' from runs where id = 1")
	sql "$db" "update runs set host = (host::jsonb || '{\"hostname\": \"otherbox\", \"cpu_model\": \"AMD EPYC 7B13\"}')::text where id = 1"
else
	host=$(sql "$db" "select json_extract(host, '$.hostname') from runs where id = 1")
	sql "$db" "update runs set host = json_set(host, '$.hostname', 'otherbox', '$.cpu_model', 'AMD EPYC 7B13') where id = 1"
fi
[ -n "$host" ] || fail "no hostname in the stored fingerprint"

expect_decided "$ABTOOL" resume 1 --store "$db" --json "$T/r.json"
[ "$(sql "$db" "select status from runs where id = 1")" = finished ] || fail "resume did not finish the run"
# the host the run started on, with the load after the samples
[ "$(jqv "$T/r.json" '.host.load_after_1m | type')" = number ] || fail "a resumed run's host has no load after"
# the design given to run (--design) is the resumed run's too
[ "$(jqv "$T/r.json" .design)" = "pr 12" ] || fail "resume lost --design"
case "$(jqv "$T/r.json" .reproduce)" in *" --design 'pr 12'") ;; *) fail "reproduce: $(jqv "$T/r.json" .reproduce)" ;; esac
# every sample committed before the kill is still there, unchanged (or
# superseded, when its pair was cut in half)
while IFS='|' read -r seq side wall sum; do
	got=$(sql "$db" "select side || '|' || wall_ns || '|' || checksum || '|' || status from samples where run_id = 1 and seq = $seq")
	case $got in
	"$side|$wall|$sum|1"|"$side|$wall|$sum|2") ;;
	*) fail "sample $seq changed: '$got'" ;;
	esac
done < "$T/before"
# no duplicates: one counted sample per (row, pair, side), every one of them done
[ "$(sql "$db" "select count(*) from samples where run_id = 1 and status = 1 and pair >= 0")" = 32 ] \
	|| fail "counted pair samples"
[ "$(sql "$db" "select count(*) from (select row_idx, pair, side, count(*) c from samples where run_id = 1 and status = 1 group by 1, 2, 3 having count(*) > 1) d")" = 0 ] \
	|| fail "a duplicated sample"
[ "$(sql "$db" "select count(*) from samples where run_id = 1 and status = 0")" = 0 ] || fail "planned samples left"
superseded=$(sql "$db" "select count(*) from samples where run_id = 1 and status = 2")
[ "$superseded" = 2 ] || fail "$superseded superseded samples, expected the 2 of the half-finished pair"
# The report says it was interrupted and resumed, and by whom.
[ "$(jqv "$T/r.json" .resumed.superseded_samples)" = "$superseded" ] || fail "resumed.superseded_samples"
[ "$(jqv "$T/r.json" .resumed.started_on)" = otherbox ] || fail "resumed.started_on"
[ "$(jqv "$T/r.json" .resumed.resumed_on)" = "$host" ] || fail "resumed.resumed_on"
case "$(jqv "$T/r.json" .resumed.host_change)" in "hostname \"otherbox\" -> \"$host\""*) ;;
*) fail "resumed.host_change: $(jqv "$T/r.json" .resumed.host_change)" ;; esac
[ "$(jqv "$T/r.json" .host.hostname)" = otherbox ] || fail "the report's host is not the one the run started on"
[ "$(jqv "$T/r.json" '.warnings | map(select(startswith("the run was interrupted and resumed"))) | length')" = 1 ] \
	|| fail "no resume warning"
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 "$(dirname "$0")/validate_json.py" "$ABTOOL_TEST_SRC/docs/report-schema.json" "$T/r.json" \
		|| fail "the resumed run's report does not validate"
fi
expect_exit 0 "$ABTOOL" report 1 --store "$db"
# (a run interrupted between two pairs, with nothing superseded, is
# corpus/85-cli-resume-nothing-superseded.sh's: no "0 samples")
assert_contains "$T/out" "the run was interrupted and resumed on '$host': $superseded samples of half-finished pairs were superseded"
assert_contains "$T/out" "it started on another host (hostname \"otherbox\" -&gt; \"$host\""
assert_contains "$T/out" "(where the run started; it was resumed on $host)."
grep -q "^Host: .*(AMD EPYC 7B13).*(where the run started" "$T/out" || fail "the Host line: $(grep ^Host: "$T/out")"
expect_exit 0 "$ABTOOL" show 1 --store "$db"
assert_contains "$T/out" "(AMD EPYC 7B13)"
expect_exit 0 "$ABTOOL" report 1 --store "$db" --format html
assert_contains "$T/out" "(where the run started; it was resumed on $host)"
assert_contains "$T/out" "the run was interrupted and resumed on"

on_pg || [ "$(sql "$db" "pragma integrity_check")" = ok ] || fail "integrity_check"

# Recompute the rows from the stored samples with `abtool analyze`.
{
	printf 'lanes\tpair\tparent\tcandidate\n'
	sql "$db" "select r.idx + 1, a.pair + 1, a.wall_ns, b.wall_ns from samples a join samples b on a.run_id = b.run_id and a.row_idx = b.row_idx and a.pair = b.pair and a.side = 'parent' and b.side = 'candidate' and a.status = 1 and b.status = 1 join rows r on r.run_id = a.run_id and r.idx = a.row_idx where a.run_id = 1 and a.pair >= 0 order by a.row_idx, a.pair" | tr '|' '\t'
} > "$T/pairs.tsv"
expect_exit 0 "$ABTOOL" analyze "$T/pairs.tsv" --json "$T/a.json"
for r in 0 1; do
	for f in ratio 'ci[0]' 'ci[1]' pair_wins pairs 'parent.median' 'candidate.median'; do
		x=$(jq ".rows[$r].$f" "$T/r.json")
		y=$(jq ".rows[$r].$f" "$T/a.json")
		[ "$x" = "$y" ] || fail "row $r $f: run $x, recomputed $y"
	done
done
echo ok
