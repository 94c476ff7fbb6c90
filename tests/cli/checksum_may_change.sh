# A candidate whose checksum changes under `checksum: may_change`: the
# rows table shows both values as a change the rule allowed, not as a
# mismatch (Markdown, HTML and `abtool show`); each side agrees with
# itself, so the run is not invalid.
. "$(dirname "$0")/lib.sh"

make_repo "$T/repo" 8 4 5
EXP_EXTRA="  - name: output may change
    checksum: may_change" write_exp "$T/repo"
db="$T/store.db"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --html "$T/r.html" --json "$T/r.json"
[ "$(jqv "$T/r.json" .verdict)" != invalid ] || fail "invalid: $(jqv "$T/r.json" .reasons)"
[ "$(jqv "$T/r.json" .rows[0].checksum_match)" = false ] || fail "the checksums should differ"
assert_contains "$T/out" '`7919` → `7924` changed, allowed (may_change)'
assert_not_contains "$T/out" "mismatch"
assert_contains "$T/r.html" '<code>7919</code> → <code>7924</code> <span class="o-pass">changed, allowed (may_change)</span>'
assert_not_contains "$T/r.html" "mismatch ✗"
expect_exit 0 "$ABTOOL" show 1 --store "$db"
assert_contains "$T/out" "changed (may_change)"
assert_not_contains "$T/out" "MISMATCH"
echo ok
