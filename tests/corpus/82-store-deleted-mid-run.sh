# The store file is deleted (then, in a second run, replaced by a copy)
# while a run writes to it: the benchmark itself does it at its 5th call.
# The run's report is still written (what can be kept), but abtool does
# not claim "stored as run 1": exit 74, the store named as gone and what
# to do.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
db="$T/store.db"
# bench.sh ACTION: at the 5th call, ACTION ("rm" or "replace") the store
cat >"$T/bench.sh" <<EOF2
#!/bin/sh
n=\$((\$(cat "$T/count" 2>/dev/null || echo 0) + 1))
echo \$n >"$T/count"
if [ \$n = 5 ]; then
	case "\$ABTOOL_CASE_ACTION" in
	rm) rm -f "$db" ;;
	replace) cp "$db" "$db.new" && mv "$db.new" "$db" ;;
	esac
fi
exec ./bench "\$@"
EOF2
chmod +x "$T/bench.sh"
EXP_PAIRS=4 write_exp "$T/repo"
sed -i "s|^benchmark: .*|benchmark: $T/bench.sh {lanes}|" "$T/repo/exp.yaml"
ABTOOL_CASE_ACTION=rm expect_fail 74 "abtool: store '$db' is gone: the file was deleted while abtool had it open (No such file or directory); what abtool stored in it since is lost with it (reports already written are kept); give --store a file that stays where it is, and run again" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --json "$T/r.json"
assert_not_contains "$T/err" "stored as run"
[ "$(cat "$T/count")" -ge 10 ] || fail "the run stopped before its samples"
[ "$(jqv "$T/r.json" .schema)" = abtool-report-1 ] || fail "the report was not kept"
assert_contains "$T/out" "e2e"
[ ! -e "$db" ] || fail "a store came back at '$db'"
rm -f "$T/count" "$db"*
ABTOOL_CASE_ACTION=replace expect_fail 74 "abtool: store '$db' is gone: the file was replaced while abtool had it open" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$db"
assert_not_contains "$T/err" "stored as run"
[ -s "$db" ] || fail "the copy at '$db' is gone"
echo ok
