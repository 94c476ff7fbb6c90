# `abtool compare` with a PostgreSQL store whose URL holds a password
# (trust authentication ignores it): no report, output, message or
# stored option holds the password, and the Reproduce line reproduces the
# measurement only: the commands, the plan's options once each, no
# --store, --md, --json or -q.
. "$(dirname "$0")/corpus.sh"

own_pg_server secret
url=$pg_url
with_password=$(echo "$url" | sed 's|//abtool@|//abtool:SECRET@|')
mkdir -p "$T/w"
cd "$T/w"
expect_decided "$ABTOOL" compare true 'true ' --pairs 5 --warmup 2 --store "$with_password" \
	--md r.md --json r.json -q
for f in r.md r.json "$T/out" "$T/err"; do
	assert_not_contains "$f" SECRET
done
[ "$(sql "$url" "select count(*) from runs where options::text like '%SECRET%'")" = 0 ] \
	|| fail "the store keeps the password in a run's options"
seed=$(sql "$url" "select seed from runs where id = 1")
[ "$(jqv r.json .reproduce)" = "abtool compare --seed $seed --pairs 5 --warmup 2 true 'true '" ] \
	|| fail "Reproduce line: $(jqv r.json .reproduce)"
assert_contains r.md "abtool compare --seed $seed --pairs 5 --warmup 2 true 'true '"

# a run interrupted in its first sample keeps no password either
events_open
touch "$T/hang"
"$ABTOOL" compare "echo started 1<>'$T/events'; while [ -e '$T/hang' ]; do sleep 0.05; done" true -n 'a.b' \
	--pairs 2 --store "$with_password" >"$T/out" 2>"$T/err" &
interrupt_when_started $!
[ $rc = 130 ] || fail "exit $rc after SIGINT, expected 130"
assert_contains "$T/err" "abtool: interrupted by SIGINT: run 2 is kept"
assert_not_contains "$T/err" SECRET
[ "$(sql "$url" "select status from runs where id = 2")" = interrupted ] || fail "run 2 is not interrupted"
[ "$(sql "$url" "select count(*) from runs where options::text like '%SECRET%'")" = 0 ] \
	|| fail "the store keeps the password of the interrupted run"
[ "$(sql "$url" "select options::json->>'reproduce' from runs where id = 2")" = "abtool compare --name a.b" ] \
	|| fail "stored reproduce: $(sql "$url" "select options::json->>'reproduce' from runs where id = 2")"
echo ok
