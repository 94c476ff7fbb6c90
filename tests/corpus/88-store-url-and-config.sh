# A store named by a URL abtool does not serve, from --store, ABTOOL_STORE
# or the config file, is refused (exit 64) before anything is created,
# naming the scheme but no password; an unreachable PostgreSQL server is
# exit 74 naming its host, with nothing written locally; a config file
# with an unknown key or a bad size names file:line:column.
. "$(dirname "$0")/corpus.sh"

mkdir -p "$T/w"
cd "$T/w"
expect_fail 64 "--store 'mysql://...': abtool does not serve 'mysql:' stores" \
	"$ABTOOL" history --store 'mysql://admin:hunter2@db/x'
grep -q hunter2 "$T/err" && fail "a password in a message"
ABTOOL_STORE='mysql://db/x' expect_fail 64 "ABTOOL_STORE 'mysql://...'" "$ABTOOL" designs
expect_fail 74 "cannot connect to the PostgreSQL store postgresql://abtool@:5999/team?host=$T/nowhere (host $T/nowhere)" \
	"$ABTOOL" history --store "postgresql://abtool:hunter2@/team?host=$T/nowhere&port=5999"
grep -q hunter2 "$T/err" && fail "a password in a message"
expect_fail 64 "does not serve 'sqlite:' stores" "$ABTOOL" note 1 hello --store sqlite://x.db
mkdir -p "$XDG_CONFIG_HOME/abtool"
printf 'store: x.db\nstores: y.db\n' >"$XDG_CONFIG_HOME/abtool/config"
expect_fail 64 "$XDG_CONFIG_HOME/abtool/config:2:1: stores: unknown key (the keys are store, cache and project)" \
	"$ABTOOL" history
printf 'cache:\n  max_size: 2 gigs\n' >"$XDG_CONFIG_HOME/abtool/config"
expect_fail 64 "config:2:13: cache.max_size: expected a size like 2G" "$ABTOOL" show 1
[ -z "$(ls -A "$T/w")" ] || fail "created: $(ls -A "$T/w")"
echo ok
