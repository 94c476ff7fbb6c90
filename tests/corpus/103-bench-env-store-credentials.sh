# Builds, benchmarks and hooks do not inherit abtool's own credentials: a
# benchmark that prints its environment and fails (its output is kept in
# the store and exported) never shows ABTOOL_STORE, nor, when the store
# is on PostgreSQL, the PG* variables libpq read for it; with a sqlite
# store they stay (a benchmark may be a PostgreSQL client), and env.keep
# keeps named ones. A --store URL with a password is warned about.
. "$(dirname "$0")/corpus.sh"

own_pg_server creds
url=$pg_url
with_password=$(echo "$url" | sed 's|//abtool@|//abtool:SECRET@|')
export PGPASSWORD=pgsecret PGAPPNAME=pgapp
mkdir -p "$T/w"
cd "$T/w"
# the hooks too: prepare: prints the environment (into the failed sample's output)
cat >sides.yaml <<'EOF2'
name: creds
sides:
  a: {name: a, command: "env; exit 1"}
  b: {name: b, command: "env; exit 1"}
prepare: "env >>prepare.env"
pairs: 1
warmup: 0
EOF2
ABTOOL_STORE="$with_password" expect_fail 3 "invalid" "$ABTOOL" run sides.yaml
assert_not_contains "$T/err" SECRET
expect_exit 0 "$ABTOOL" export 1 --format json --store "$url"
assert_contains "$T/out" "exit 1"
for leak in SECRET ABTOOL_STORE pgsecret pgapp; do
	assert_not_contains "$T/out" "$leak"
	assert_not_contains prepare.env "$leak"
done

# a sqlite store: only ABTOOL_STORE goes
rm -f prepare.env
ABTOOL_STORE="$T/s.db" expect_fail 3 "invalid" "$ABTOOL" run sides.yaml
expect_exit 0 "$ABTOOL" export 1 --format json --store "$T/s.db"
assert_contains "$T/out" "PGPASSWORD=pgsecret"
assert_not_contains "$T/out" ABTOOL_STORE
assert_not_contains prepare.env ABTOOL_STORE

# env.keep gives a PG* variable back, and only that one
rm -f prepare.env
printf 'env: {keep: [PGPASSWORD]}\n' >>sides.yaml
expect_fail 3 "invalid" "$ABTOOL" run sides.yaml --store "$with_password"
assert_contains "$T/err" "abtool: warning: --store: the URL holds a password, which other users of this machine can read in the process list"
assert_not_contains "$T/err" SECRET
expect_exit 0 "$ABTOOL" export 2 --format json --store "$url"
assert_contains "$T/out" "PGPASSWORD=pgsecret"
assert_contains prepare.env "PGPASSWORD=pgsecret"
assert_not_contains "$T/out" pgapp
assert_not_contains "$T/out" SECRET

# env.keep names only PG* variables
printf 'name: k\nsides: {a: {name: a, command: "true"}, b: {name: b, command: "true"}}\nenv: {keep: [ABTOOL_STORE]}\n' >bad.yaml
expect_fail 64 "bad.yaml:3:14: env.keep[0]: 'ABTOOL_STORE': only the PG* variables abtool removes" \
	"$ABTOOL" check bad.yaml
echo ok
