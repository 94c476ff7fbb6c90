# abtool site gives the same pages from a sqlite store and from a
# PostgreSQL store that hold the same content: the store of site_lib.bash
# (two projects and the comparisons; accepted, rejected, inconclusive,
# invalid, comparison and bisect runs; notes) is copied by one script, in
# the same order, into a new sqlite file and a new PostgreSQL database
# (abtool sync, oldest run first, so the runs take the same ids; the
# bisects, which sync does not carry, by the same INSERTs into both), and
# the two sites, written at the same $SOURCE_DATE_EPOCH, are identical
# byte for byte but for the field the pages name as the store's location
# (<code class="store">). Every page is compared: the projects' pages,
# the feeds and search indexes, every run's report, samples and summary.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/site_lib.bash"

S="$T/s.db"
site_store "$S"
Q="$T/q.db"
P=$(test_store site)
inserts() {  # the bisects' rows as INSERT statements
	sqlite3 "$S" ".mode insert bisects" "SELECT * FROM bisects ORDER BY id"
	sqlite3 "$S" ".mode insert bisect_steps" "SELECT * FROM bisect_steps ORDER BY bisect_id, seq"
}
for store in "$Q" "$P"; do
	expect_exit 0 "$ABTOOL" sync --from "$S" --to "$store"
	assert_contains "$T/out" "copied 12 runs"
	inserts | while IFS= read -r line; do sql "$store" "$line" >/dev/null || exit 1; done ||
		fail "the bisects into $store"
done
[ "$(sql "$P" "SELECT count(*) FROM bisect_steps")" = "$(sql "$S" "SELECT count(*) FROM bisect_steps")" ] ||
	fail "the bisect steps on PostgreSQL"

export SOURCE_DATE_EPOCH=1796000000
expect_exit 0 "$ABTOOL" site "$T/q" --store "$Q"
assert_contains "$T/out" "3 projects, 12 runs (12 rendered, 0 up to date)"
expect_exit 0 "$ABTOOL" site "$T/p" --store "$P"
assert_contains "$T/out" "3 projects, 12 runs (12 rendered, 0 up to date)"
assert_contains "$T/p/index.html" '<time class="generated">2026-11-30T'
[ "$(cd "$T/q" && find . -type f | sort)" = "$(cd "$T/p" && find . -type f | sort)" ] ||
	fail "the two sites have different files"
[ "$(cd "$T/q" && find . -type f | wc -l)" -gt 60 ] || fail "too few files to compare"
n=0
for f in $(cd "$T/q" && find . -type f | sort); do
	sed 's|<code class="store">[^<]*</code>|<code class="store">STORE</code>|' "$T/q/$f" >"$T/a.page"
	sed 's|<code class="store">[^<]*</code>|<code class="store">STORE</code>|' "$T/p/$f" >"$T/b.page"
	cmp -s "$T/a.page" "$T/b.page" || { diff "$T/a.page" "$T/b.page" | head -20 >&2; fail "$f differs"; }
	n=$((n + 1))
done
# What differs is the store's name, and only there: the PostgreSQL URL
# without a password (docs/security.md).
grep -q '<code class="store">postgresql://abtool@/site_site?host=' "$T/p/p/comparisons/index.html" ||
	fail "the PostgreSQL store's name"
assert_contains "$T/q/p/comparisons/index.html" "<code class=\"store\">$Q</code>"
# A password in the store's URL is on no page (docs/security.md).
ABTOOL_STORE="${P/abtool@/abtool:hunter2secret@}" "$ABTOOL" site "$T/pw" --quiet >"$T/out" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "site of a URL with a password"; }
[ -s "$T/pw/index.html" ] || fail "no site from a URL with a password"
if grep -rl hunter2secret "$T/pw" >"$T/leaks"; then
	fail "the password is in $(head -3 "$T/leaks")"
fi
# The bisect is there, on both.
grep -q '<p class="culprit">Culprit:' "$T/p/p/github.com-acme-engine/bisects.html" || fail "no culprit"
echo "ok: $n files identical"
