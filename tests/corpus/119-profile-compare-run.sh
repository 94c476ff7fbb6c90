# abtool profile of a comparison of two commands (abtool compare, sides:)
# profiles each side's own command in the experiment's folder; it used to
# reopen the run with builds it never had and crash (SIGSEGV), or give
# perf no command at all. perf here is a stand-in that logs its
# arguments and refuses to record, so the case needs no perf of the host.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w" "$T/bin"
cat >"$T/bin/perf" <<EOF2
#!/bin/sh
echo "\$@" >>"$T/perf.args"
echo "Error:" >&2
echo "perf_event_open is not allowed here" >&2
exit 255
EOF2
chmod +x "$T/bin/perf"
cd "$T/w"
expect_decided "$ABTOOL" compare 'echo a' 'echo b' --pairs 2 --store s.db -q
PATH="$T/bin:$PATH" expect_fail 74 "abtool: no profile was taken: perf record -e cpu-clock failed (exit 255)" \
	"$ABTOOL" profile 1 --store s.db --samples 1
# the sides run without a shell (no shell syntax): perf runs them so too
grep -q -- "-- echo a$" "$T/perf.args" || fail "perf did not record side a's command: $(cat "$T/perf.args")"
grep -q -- "-- echo b$" "$T/perf.args" || fail "perf did not record side b's command: $(cat "$T/perf.args")"
echo ok
