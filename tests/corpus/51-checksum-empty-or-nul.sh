# Checksums that cannot show equal results. A regex whose group can match
# nothing ('(\d*)$' also matches, empty, at the end of the output) used
# to take that empty match as the checksum on both sides, so different
# outputs passed as equal; an empty checksum ('(x*)', a JSON ""), or one
# with a NUL byte (cut there as a C string), likewise. Now the last
# non-empty capture counts, and an empty checksum or one with a NUL makes
# the sample fail (exit 3) with what to fix.
. "$(dirname "$0")/corpus.sh"

make_repo "$T/repo" 2 1
EXP_PAIRS=2 write_exp "$T/repo"
db="$T/store.db"
run_with() { # BENCHMARK CHECKSUM
	sed -i -e "s|^benchmark: .*|benchmark: $1|" -e "s|^checksum: .*|checksum: $2|" "$T/repo/exp.yaml"
}

# a different number every sample, caught by '(\d*)$' only as its last
# non-empty match: the checksums differ, the run is invalid
cat >"$T/random.sh" <<'EOF2'
#!/bin/sh
echo "result"
od -An -N4 -tu4 /dev/urandom | tr -d ' '
EOF2
chmod +x "$T/random.sh"
run_with "$T/random.sh" "{regex: '(\\\\d*)\$'}"
expect_fail 3 "abtool: invalid: lanes=1: checksum mismatch: " "$ABTOOL" run "$T/repo/exp.yaml" --store "$db"

# a group that captures nothing at all
run_with "'echo nothing'" "{regex: '(x*)'}"
expect_fail 3 "lanes=1: parent sample 0 failed: the checksum is empty: checksum.regex '(x*)' matched, but its group captured nothing; make the group match at least one character, e.g. (\\S+)" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$db"

# an empty JSON string
printf '#!/bin/sh\necho '"'"'{"sum": ""}'"'"'\n' >"$T/json.sh"
chmod +x "$T/json.sh"
run_with "$T/json.sh" "{json: sum}"
expect_fail 3 "lanes=1: parent sample 0 failed: the checksum is empty: the key 'sum' (checksum.json) is an empty string" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$db"

# a NUL byte inside the checksum: 'a<NUL>b' and 'a<NUL>c' are not 'a'
cat >"$T/nul.sh" <<'EOF2'
#!/bin/sh
printf 'checksum=a\000%s\n' "$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')"
EOF2
chmod +x "$T/nul.sh"
run_with "$T/nul.sh" "{regex: 'checksum=(\\\\S+)'}"
expect_fail 3 "lanes=1: parent sample 0 failed: the checksum holds a NUL byte (checksum.regex 'checksum=(\\S+)'): print it as text" \
	"$ABTOOL" run "$T/repo/exp.yaml" --store "$db"

# an ordinary checksum still works, and a regex that can match empty finds
# the value before the end
run_with "'./bench {lanes}'" "{regex: 'checksum=(\\\\d*)\$'}"
expect_decided "$ABTOOL" run "$T/repo/exp.yaml" --store "$db" --quiet
[ "$(sqlite3 "$db" "select group_concat(distinct checksum) from samples where run_id = 5")" = 7919 ] ||
	fail "checksum of the last run: $(sqlite3 "$db" "select group_concat(distinct quote(checksum)) from samples where run_id = 5")"
assert_integrity "$db"
echo ok
